/// The gateways nothing was heard from for `days` (SPEC §7: TTN Mapper stops showing a gateway's
/// coverage after five silent days; its users and Helium's asked for old data to fade). Their cells
/// are left off the map unless asked for, and drawn faded then; exports keep everything.
///
/// The days are counted back from the newest reception of any gateway, not from today: the map of a
/// drive made last month is not emptied by the calendar, while a gateway that went quiet as others
/// kept being heard is told apart.
public struct SilentGateways: Sendable, Hashable {
    /// TTN Mapper's.
    public static let defaultDays = 5.0

    public let days: Double
    /// The newest reception of any gateway, which the silence is counted back from.
    public let newest: Timestamp?
    /// Each silent gateway, by id, with when it was last heard.
    public let lastHeard: [String: Timestamp]

    /// From the gateway antennas' summaries (`CoverageReader.coverageGateways` of everything): a
    /// gateway is silent when none of its antennas was heard in the `days` before `newest`.
    public init(_ antennas: [CoverageSummary.Gateway], days: Double = Self.defaultDays) {
        self.days = days
        var latest: [String: Timestamp] = [:]
        for antenna in antennas { latest[antenna.gateway] = max(latest[antenna.gateway] ?? antenna.lastHeard, antenna.lastHeard) }
        let newest = latest.values.max()
        self.newest = newest
        guard let newest else {
            lastHeard = [:]
            return
        }
        let cutoff = newest.adding(seconds: -days * 86_400)
        lastHeard = latest.filter { $0.value < cutoff }
    }

    /// As worked out elsewhere (a community database keeps its own).
    public init(days: Double, newest: Timestamp?, lastHeard: [String: Timestamp]) {
        self.days = days
        self.newest = newest
        self.lastHeard = lastHeard
    }

    public var ids: Set<String> { Set(lastHeard.keys) }

    /// Days since `gateway` was last heard, counted back from `newest` and to a tenth of a day
    /// (rounded down), when it is silent.
    public func silentDays(_ gateway: String) -> Double? {
        guard let heard = lastHeard[gateway], let newest else { return nil }
        return (newest.seconds(since: heard) / 8_640).rounded(.down) / 10
    }
}
