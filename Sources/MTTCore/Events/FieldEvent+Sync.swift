extension FieldEvent {
    /// What an upload to one target did, as the `sync_done` event (of no session).
    public static func syncDone(_ summary: SyncSummary, at time: Timestamp, mapURL: String?) -> FieldEvent {
        var event = FieldEvent(.syncDone, at: time, session: nil)
        event.target = summary.target.rawValue
        event.sent = summary.sent
        event.rejected = summary.rejected
        event.undelivered = summary.failed
        event.queued = summary.queued
        event.reason = summary.stopReason
        event.url = mapURL
        return event
    }
}
