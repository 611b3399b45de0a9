import Slippers

extension SyncRequest {
    /// Throws when the request sets what this release does not run yet: a ``SyncRequest/schedule``
    /// or ``SyncRequest/incremental`` settings. ``FleetWorker`` fails such a list with the reason.
    ///
    /// - throws: ``FleetError/unsupportedRequest(_:)``.
    public func checkSupported() throws {
        if let schedule {
            throw FleetError.unsupportedRequest(
                "a schedule (every \(schedule.every) s), which this release does not run: enqueue it without one")
        }
        if incremental != nil {
            throw FleetError.unsupportedRequest(
                "incremental settings, which this release does not run: enqueue it without them")
        }
    }
}
