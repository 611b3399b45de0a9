extension Figure {
    /// A timing figure in microseconds: the median of `measured`, against the median of `baseline`.
    ///
    /// - parameter baseline: the name and measurement of what the figure is compared with, if anything.
    init(
        name: String,
        measured: Measurement,
        against baseline: (name: String, measurement: Measurement)? = nil,
        target: Target
    ) {
        self.init(
            name: name,
            unit: .microseconds,
            value: measured.median.microseconds,
            baseline: baseline?.name,
            baselineValue: baseline?.measurement.median.microseconds,
            target: target,
            spread: measured.p10.microseconds...measured.p90.microseconds
        )
    }
}

extension Figure {
    /// A timing figure in milliseconds, with no baseline: for targets on the value itself.
    init(milliseconds name: String, measured: Measurement, target: Target) {
        self.init(
            name: name,
            unit: .milliseconds,
            value: measured.median.milliseconds,
            baseline: nil,
            baselineValue: nil,
            target: target,
            spread: measured.p10.milliseconds...measured.p90.milliseconds
        )
    }
}
