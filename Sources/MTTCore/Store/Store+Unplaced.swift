import GRDB

/// What placing uplinks on their tracks did.
public struct PlacementOutcome: Sendable, Hashable {
    public var placed = 0
    /// Uplinks stored without a position, by the kind of reason (each sample keeps its own).
    public var unplaceable: [String: Int] = [:]

    public var total: Int { placed + unplaceable.values.reduce(0, +) }

    /// A reason without its figures, to count like ones together ("before the track starts
    /// (12 s early)" → "before the track starts").
    static func kind(of reason: String) -> String {
        if reason.hasPrefix("in a "), reason.contains(" gap of the track") { return "in a gap of the track longer than allowed" }
        return reason.components(separatedBy: " (").first ?? reason
    }
}

extension Store {
    /// Uplinks placed per transaction: a fetch may leave a hundred thousand to place, and memory
    /// must not grow with them.
    static let placementChunk = 5_000

}

extension StoreRecords {
    /// Gives a sample to every uplink of a matching or listener session that has none — a run
    /// stopped (or killed) while uplinks waited for the track to reach their time, or uplinks
    /// `mtt fetch` brought later — by the rule of the session's mode (`TrackPlacement`): on its
    /// stored track, or without a position and with the reason. `sessions` limits it to those.
    @discardableResult
    public func placeUnplacedUplinks(sessions: [Int64]? = nil) throws -> PlacementOutcome {
        let only = sessions.map { " AND u.session_id IN (\($0.map(String.init).joined(separator: ",")))" } ?? ""
        var outcome = PlacementOutcome()
        var tracks: [Int64: [Fix]] = [:]
        var after: Int64 = 0
        while true {
            // The uplinks' own times and their gateways', not the whole uplinks: reading each
            // whole was most of a large fetch's time.
            let chunk = try read { db in
                let uplinks = try Row.fetchAll(db, sql: """
                    SELECT u.id, u.session_id, s.mode, u.received_at FROM uplinks u JOIN sessions s ON s.id = u.session_id
                    WHERE s.mode IN ('matching', 'listener')\(only) AND u.id > ?
                      AND NOT EXISTS (SELECT 1 FROM samples m WHERE m.uplink_id = u.id)
                    ORDER BY u.id LIMIT \(Store.placementChunk)
                    """, arguments: [after])
                guard let first = uplinks.first?[0] as Int64?, let last = uplinks.last?[0] as Int64? else {
                    return [(id: Int64, session: Int64, mode: CollectionMode, time: Timestamp)]()
                }
                var gatewayTimes: [Int64: [Timestamp]] = [:]
                let times = try Row.fetchCursor(
                    db, sql: "SELECT uplink_id, time FROM receptions WHERE uplink_id BETWEEN ? AND ? AND time IS NOT NULL",
                    arguments: [first, last])
                while let row = try times.next() {
                    gatewayTimes[row[0], default: []].append(Timestamp(nanosecondsSinceEpoch: row[1]))
                }
                return uplinks.map { row in
                    let id: Int64 = row[0]
                    return (id, row[1], CollectionMode(rawValue: row[2]) ?? .matching, Uplink.earliestReceiveTime(
                        receivedAt: Timestamp(nanosecondsSinceEpoch: row[3]), gatewayTimes: gatewayTimes[id] ?? []))
                }
            }
            guard let last = chunk.last else { return outcome }
            after = last.id
            var samples: [Sample] = []
            samples.reserveCapacity(chunk.count)
            for orphan in chunk {
                guard let placement = TrackPlacement.of(orphan.mode) else { continue }
                let track = try tracks[orphan.session] ?? fixes(session: orphan.session)
                tracks[orphan.session] = track
                samples.append(placement.sample(uplink: orphan.id, session: orphan.session, at: orphan.time, on: track))
            }
            try batch { batch in
                for sample in samples { try batch.record(sample) }
            }
            for sample in samples {
                if sample.position != nil {
                    outcome.placed += 1
                } else {
                    outcome.unplaceable[PlacementOutcome.kind(of: sample.reason ?? "no reason given"), default: 0] += 1
                }
            }
        }
    }
}
