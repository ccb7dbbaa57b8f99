/// Which sessions' records one sync takes. Simulated sessions and sessions the user excluded are
/// held by default: simulated data must never reach a public map by accident.
public struct SyncScope: Sendable, Hashable {
    /// Only this session's records (`mtt sync --session N`).
    public var session: Int64?
    /// Also simulated sessions' records (`--include-simulated`), for testing one's own server.
    public var includeSimulated: Bool

    public init(session: Int64? = nil, includeSimulated: Bool = false) {
        self.session = session
        self.includeSimulated = includeSimulated
    }

    /// What a plain `mtt sync` takes.
    public static let plain = SyncScope()
}
