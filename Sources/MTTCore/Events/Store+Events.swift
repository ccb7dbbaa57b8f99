import FoundationEssentials
import GRDB

extension Store {
    /// Keeps `events` (those `FieldEventType.isStored` says), in one transaction.
    public func recordEvents(_ events: [FieldEvent]) throws {
        let kept = events.filter(\.type.isStored)
        guard !kept.isEmpty else { return }
        try write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO events (session_id, time, type, json) VALUES (?, ?, ?, ?)")
            for event in kept {
                try insert.execute(arguments: [event.session, event.time.nanosecondsSinceEpoch, event.type.rawValue, String(decoding: event.json(), as: UTF8.self)])
            }
        }
    }

    /// The stored events in time order, handed to `each` one at a time (a long drive is never held
    /// whole); `since` and `session` narrow them, `types` too when not empty.
    public func forEachEvent(
        since: Timestamp? = nil, session: Int64? = nil, types: Set<FieldEventType> = [], _ each: (FieldEvent) throws -> Void
    ) throws {
        var conditions = ["time >= ?"]
        var arguments: [any DatabaseValueConvertible] = [since?.nanosecondsSinceEpoch ?? Int64.min]
        if let session {
            conditions.append("session_id = ?")
            arguments.append(session)
        }
        if !types.isEmpty {
            conditions.append("type IN (\(types.map { _ in "?" }.joined(separator: ", ")))")
            arguments += types.map(\.rawValue).sorted()
        }
        let decoder = JSONDecoder()
        try read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT json FROM events WHERE \(conditions.joined(separator: " AND ")) ORDER BY time, id",
                arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                let text: String = row[0]
                try each(try decoder.decode(FieldEvent.self, from: Data(text.utf8)))
            }
        }
    }

    /// Every gateway that ever heard an uplink in this database (for `new_gateway`).
    public func knownGatewayIDs() throws -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT DISTINCT gateway_id FROM receptions")) }
    }
}
