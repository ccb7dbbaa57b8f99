import FoundationEssentials
import GRDB

extension Store {

    /// An uplink as the `heard` event the run reported for it.
    fileprivate static func heard(_ row: Row, mapURL: String?) -> FieldEvent {
        var event = FieldEvent(.heard, at: Timestamp(nanosecondsSinceEpoch: row[2]), session: row[1])
        event.uplink = row[0]
        event.device = row[3]
        event.fCnt = (row[4] as Int64?).map { UInt32(truncatingIfNeeded: $0) }
        event.attempt = row[5]
        event.lat = row[6]
        event.lon = row[7]
        let count: Int = row[8]
        event.gateways = count
        event.heardBy = count == 0 ? [] : ((row[9] as String?) ?? "").split(separator: ",").map(String.init)
        event.rssi = row[10]
        event.snr = row[11]
        if let mapURL { event.url = MapLink.url(base: mapURL, at: event.position) }
        return event
    }

}

extension StoreRecords {
    /// Keeps `events` (those `FieldEventType.isStored` says), in one transaction.
    public func recordEvents(_ events: [FieldEvent]) throws {
        // Encoded before the write: the collectors' own writes wait for none of it.
        let rows = events.filter(\.type.isStored).map { ($0, String(decoding: $0.json(), as: UTF8.self)) }
        guard !rows.isEmpty else { return }
        try write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO events (session_id, time, type, json) VALUES (?, ?, ?, ?)")
            for (event, json) in rows {
                try insert.execute(arguments: [event.session, event.time.nanosecondsSinceEpoch, event.type.rawValue, json])
            }
        }
    }

    /// The stored events in time order, handed to `each` one at a time (a long drive is never held
    /// whole); `since` and `session` narrow them, `types` too when not empty. `heard` events are
    /// read back from the uplinks themselves (at the network's receive time, with `mapURL`'s link),
    /// merged in time order: a listener burst stores each uplink once, not twice, and uplinks
    /// `mtt fetch` brought in later are there too.
    public func forEachEvent(
        since: Timestamp? = nil, session: Int64? = nil, types: Set<FieldEventType> = [], mapURL: String? = nil,
        _ each: (FieldEvent) throws -> Void
    ) throws {
        let from = since?.nanosecondsSinceEpoch ?? Int64.min
        var conditions = ["time >= ?"]
        var arguments: [any DatabaseValueConvertible] = [from]
        if let session {
            conditions.append("session_id = ?")
            arguments.append(session)
        }
        if !types.isEmpty {
            conditions.append("type IN (\(types.map { _ in "?" }.joined(separator: ", ")))")
            arguments += types.map(\.rawValue).sorted()
        }
        let wantsHeard = types.isEmpty || types.contains(.heard)
        let decoder = JSONDecoder()
        try read { db in
            let stored = try Row.fetchCursor(
                db, sql: "SELECT time, json FROM events WHERE \(conditions.joined(separator: " AND ")) ORDER BY time, id",
                arguments: StatementArguments(arguments))
            let uplinks = wantsHeard ? try Row.fetchCursor(db, sql: """
                SELECT u.id, u.session_id, u.received_at, u.device_id, u.f_cnt,
                       (SELECT a.id FROM attempts a WHERE a.uplink_id = u.id LIMIT 1),
                       (SELECT s.lat FROM samples s WHERE s.uplink_id = u.id LIMIT 1),
                       (SELECT s.lon FROM samples s WHERE s.uplink_id = u.id LIMIT 1),
                       COUNT(r.id), GROUP_CONCAT(r.gateway_id, ','), MAX(r.rssi), r.snr
                FROM uplinks u LEFT JOIN receptions r ON r.uplink_id = u.id
                WHERE u.received_at >= ? \(session == nil ? "" : "AND u.session_id = ?")
                GROUP BY u.id ORDER BY u.received_at, u.id
                """, arguments: StatementArguments([from] + (session.map { [$0] } ?? []))) : nil
            var nextStored = try stored.next()
            var nextUplink = try uplinks?.next()
            while nextStored != nil || nextUplink != nil {
                // A stored event comes back at the millisecond its JSON keeps, an uplink at the
                // nanosecond it was received: merged by the stored nanoseconds, an uplink received
                // earlier in the same millisecond came first and the replay went back in time.
                let storedTime: Int64? = (nextStored?[0] as Int64?).map { $0 - (($0 % 1_000_000) + 1_000_000) % 1_000_000 }
                let uplinkTime: Int64? = nextUplink?[2]
                if let row = nextStored, uplinkTime.map({ storedTime! <= $0 }) ?? true {
                    let text: String = row[1]
                    var event = try decoder.decode(FieldEvent.self, from: Data(text.utf8))
                    // Recorded before a map link was configured: the replay links it as a run
                    // would now (a hook's Click, the url field).
                    if event.url == nil, let mapURL { event.url = MapLink.url(base: mapURL, at: event.position) }
                    try each(event)
                    nextStored = try stored.next()
                } else if let row = nextUplink {
                    try each(Store.heard(row, mapURL: mapURL))
                    nextUplink = try uplinks?.next()
                }
            }
        }
    }
}

extension StoreCoverage {
    /// Every gateway that ever heard an uplink in this database (for `new_gateway`).
    public func knownGatewayIDs() throws -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT DISTINCT gateway_id FROM receptions")) }
    }
}
