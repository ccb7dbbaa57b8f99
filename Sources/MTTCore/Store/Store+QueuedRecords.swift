import GRDB

/// A confirmed attempt as MapTheThings takes it: where and when the node transmitted.
public struct QueuedAttempt: Sendable, Hashable {
    public var id: Int64
    public var sessionID: Int64
    public var sentAt: Timestamp
    public var devEUI: String?
    /// The node spec, for an attempt whose DevEUI the node never told.
    public var node: String
    public var fCnt: Int64?
    public var position: GeoPoint
    public var state: Attempt.State
    public var spreadingFactor: Int?
    /// Whether the network heard it (joined to an uplink).
    public var heard: Bool
    /// Whether its session had a network source, so that "not heard" can be said.
    public var networkKnown: Bool
}

/// A heard uplink with the position it was heard at and the GPS quality there.
public struct QueuedSample: Sendable, Hashable {
    public var id: Int64
    public var sessionID: Int64
    public var time: Timestamp
    public var position: GeoPoint
    public var method: String
    public var uplink: Uplink
    /// The track fix nearest before the sample (after it when there is none), for its quality figures.
    public var nearestFix: Fix?
}

/// One point of a matching-mode track.
public struct QueuedFix: Sendable, Hashable {
    public var id: Int64
    public var sessionID: Int64
    public var fix: Fix
}

extension Store {

    /// Ids as one JSON array argument, so a page of any size is one statement, and its SQL is fixed:
    /// the readers below take it from the statement cache (compiled again for each page, it was
    /// about 30 % of a MapTheThings sync's instructions).
    fileprivate static func jsonArray(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}


extension StoreSyncQueue {
    public func queuedAttempts(_ ids: [Int64]) throws -> [QueuedAttempt] {
        try read { db in
            try Array(Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT a.id, a.session_id, a.sent_at, a.dev_eui, a.node, a.f_cnt, a.state, a.spreading_factor,
                           a.uplink_id IS NOT NULL AS heard, \(CoverageSQL.networkKnown) AS known,
                           fixes.lat, fixes.lon, COALESCE(fixes.alt_msl, fixes.alt_hae) AS alt
                    FROM attempts a JOIN fixes ON fixes.id = a.fix_id
                    WHERE a.id IN (SELECT value FROM json_each(?)) ORDER BY a.id
                    """),
                arguments: [Store.jsonArray(ids)]
            ).map { row in
                QueuedAttempt(
                    id: row[QueuedRecordColumns.id], sessionID: row[QueuedRecordColumns.sessionID], sentAt: Timestamp(nanosecondsSinceEpoch: row[QueuedRecordColumns.sentAt]), devEUI: row[QueuedRecordColumns.devEUI],
                    node: row[QueuedRecordColumns.node], fCnt: row[QueuedRecordColumns.fCnt],
                    position: GeoPoint(latitude: row[QueuedRecordColumns.lat], longitude: row[QueuedRecordColumns.lon], altitude: row[QueuedRecordColumns.alt]),
                    state: Attempt.State(rawValue: row[QueuedRecordColumns.state]) ?? .pending, spreadingFactor: row[QueuedRecordColumns.spreadingFactor],
                    heard: row[QueuedRecordColumns.heard], networkKnown: row[QueuedRecordColumns.known] ?? false)
            })
        }
    }

    public func queuedSamples(_ ids: [Int64]) throws -> [QueuedSample] {
        try read { db in
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT id, session_id, uplink_id, time, lat, lon, alt, method FROM samples
                    WHERE id IN (SELECT value FROM json_each(?)) AND uplink_id IS NOT NULL AND lat IS NOT NULL
                    ORDER BY id
                    """),
                arguments: [Store.jsonArray(ids)])
            var samples: [QueuedSample] = []
            while let row = try rows.next() {
                guard let uplink = try Store.uplink(row[QueuedRecordColumns.uplinkID], db) else { continue }
                let time: Int64 = row[QueuedRecordColumns.time]
                let session: Int64 = row[QueuedRecordColumns.sessionID]
                let nearest = try Store.fix(
                    db.cachedStatement(sql: "SELECT * FROM fixes WHERE session_id = ? AND time <= ? ORDER BY time DESC LIMIT 1"), [session, time])
                    ?? Store.fix(db.cachedStatement(sql: "SELECT * FROM fixes WHERE session_id = ? AND time > ? ORDER BY time LIMIT 1"), [session, time])
                samples.append(QueuedSample(
                    id: row[QueuedRecordColumns.id], sessionID: session, time: Timestamp(nanosecondsSinceEpoch: time),
                    position: GeoPoint(latitude: row[QueuedRecordColumns.lat], longitude: row[QueuedRecordColumns.lon], altitude: row[QueuedRecordColumns.alt]),
                    method: row[QueuedRecordColumns.method], uplink: uplink, nearestFix: nearest))
            }
            return samples
        }
    }

    public func queuedFixes(_ ids: [Int64]) throws -> [QueuedFix] {
        try read { db in
            try Array(Row.fetchCursor(
                db.cachedStatement(sql: "SELECT * FROM fixes WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id"),
                arguments: [Store.jsonArray(ids)]
            ).map { row in QueuedFix(id: row[QueuedRecordColumns.id], sessionID: row[QueuedRecordColumns.sessionID], fix: Store.fix(from: row)) })
        }
    }
}

extension StoreRecords {
    /// The DevEUIs heard in a session, sorted: the devices a matching-mode track belongs to.
    public func heardDevEUIs(session: Int64) throws -> [String] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT DISTINCT dev_eui FROM uplinks WHERE session_id = ? AND dev_eui IS NOT NULL ORDER BY dev_eui",
                arguments: [session])
        }
    }
}
