/// The tables whose rows are uploaded; with a record id it names one row in `sync_state`.
public enum SyncRecordKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A confirmed transmit attempt of active mode, at the fix it was sent on.
    case attempt
    /// A heard uplink with the position it was heard at.
    case sample
    /// One point of a matching-mode track.
    case fix
}

extension SyncRecordKind {
    /// "12 listener samples", "1 attempt": a count of records of this kind, for messages.
    public func counted(_ count: Int) -> String {
        switch self {
        case .attempt: CountText.of(count, "attempt")
        case .sample: CountText.of(count, "sample")
        case .fix: CountText.of(count, "track point")
        }
    }
}
