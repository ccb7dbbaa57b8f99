import GRDB

/// Uplinks kept without a position, counted by why and by device, for `mtt status --reasons`.
public struct UnplacedCount: Sendable, Hashable, Codable {
    /// The reason without its figures: "no payload position, no_fix", "before the track starts".
    public var reason: String
    public var device: String
    public var count: Int

    /// As `mtt status --reasons --json` prints it, apart from a sync's reasons.
    enum CodingKeys: String, CodingKey {
        case reason = "unplaced_reason"
        case device
        case count = "uplinks"
    }
}

extension StoreRecords {
    /// Uplinks whose sample has no position, by kind of reason and device, most first.
    public func unplacedCounts() throws -> [UnplacedCount] {
        try read { db in
            var counts: [UnplacedCount: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT u.device_id AS \(UplinkColumns.deviceID.rawValue), s.reason AS \(SampleColumns.reason.rawValue), count(*) AS n
                FROM samples s JOIN uplinks u ON u.id = s.uplink_id
                WHERE s.lat IS NULL GROUP BY u.device_id, s.reason
                """)
            while let row = try rows.next() {
                let reason: String = row[SampleColumns.reason] ?? "no reason given"
                let key = UnplacedCount(reason: UnplacedCount.kind(of: reason), device: row[UplinkColumns.deviceID], count: 0)
                counts[key, default: 0] += row[SessionCountColumns.n] as Int
            }
            return counts.map { key, n in
                var count = key
                count.count = n
                return count
            }.sorted { ($0.count, $1.reason, $1.device) > ($1.count, $0.reason, $0.device) }
        }
    }
}

extension UnplacedCount {
    /// A reason up to its detail: "no payload position, no_fix: fixFailed …" counts as
    /// "no payload position, no_fix"; a track's reasons as placing counts them.
    static func kind(of reason: String) -> String {
        if let colon = reason.firstIndex(of: ":") { return String(reason[..<colon]) }
        return PlacementOutcome.kind(of: reason)
    }
}
