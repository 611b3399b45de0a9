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
