import GRDB

extension Store {
    static func insert(_ attempt: EstimatedAttempt, _ db: Database) throws -> Int64 {
        // Rare beside the uplinks (a gap's frames): GRDB's cached statement is enough; the cell's
        // count follows by trigger (`CoverageSQL.estimatedTrigger`).
        try db.cachedStatement(sql: """
            INSERT INTO estimated_attempts (session_id, device_id, dev_eui, f_cnt, sent_at, lat, lon, alt, reason, spreading_factor, heard_before, heard_after)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                attempt.sessionID, attempt.deviceID, attempt.devEUI, Int64(attempt.fCnt), attempt.sentAt.nanosecondsSinceEpoch,
                attempt.position?.latitude, attempt.position?.longitude, attempt.position?.altitude, attempt.reason,
                attempt.spreadingFactor, attempt.heardBefore, attempt.heardAfter,
            ])
        return db.lastInsertedRowID
    }
}

extension Store.Batch {
    @discardableResult
    public func record(_ attempt: EstimatedAttempt) throws -> Int64 { try Store.insert(attempt, db) }
}

extension StoreRecords {
    /// Estimated attempts in time order, of the sessions, modes and times `filter` selects; read
    /// with a cursor.
    public func forEachEstimatedAttempt(_ filter: ExportFilter = ExportFilter(), _ body: (EstimatedAttempt) throws -> Void) throws {
        var conditions = ["1"]
        var arguments: [DatabaseValueConvertible] = []
        if let session = filter.session { conditions.append("e.session_id = ?"); arguments.append(session) }
        if let since = filter.since { conditions.append("e.sent_at >= ?"); arguments.append(since.nanosecondsSinceEpoch) }
        if let until = filter.until { conditions.append("e.sent_at <= ?"); arguments.append(until.nanosecondsSinceEpoch) }
        if let mode = filter.mode { conditions.append("(SELECT mode FROM sessions WHERE id = e.session_id) = ?"); arguments.append(mode.rawValue) }
        try read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT e.* FROM estimated_attempts e WHERE \(conditions.joined(separator: " AND ")) ORDER BY e.sent_at, e.id
                """, arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                typealias C = EstimatedAttemptColumns
                let lat: Double? = row[C.lat], lon: Double? = row[C.lon]
                try body(EstimatedAttempt(
                    id: row[C.id], sessionID: row[C.sessionID], deviceID: row[C.deviceID], devEUI: row[C.devEUI],
                    fCnt: UInt32(row[C.fCnt] as Int64), sentAt: Timestamp(nanosecondsSinceEpoch: row[C.sentAt]),
                    position: lat.flatMap { lat in lon.map { GeoPoint(latitude: lat, longitude: $0, altitude: row[C.alt]) } },
                    reason: row[C.reason], spreadingFactor: row[C.spreadingFactor], heardBefore: row[C.heardBefore], heardAfter: row[C.heardAfter]))
            }
        }
    }
}
