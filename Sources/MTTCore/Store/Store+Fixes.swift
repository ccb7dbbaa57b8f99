import GRDB

extension Store {

    static func insert(_ fix: Fix, session: Int64, _ db: Database) throws -> Int64 {
        try db.executeCached(
            sql: """
                INSERT INTO fixes (session_id, time, lat, lon, alt_hae, alt_msl, eph, epv, hdop, satellites,
                                   speed, track, mode, source)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                session, fix.time.nanosecondsSinceEpoch, fix.latitude, fix.longitude, fix.altitudeHAE,
                fix.altitudeMSL, fix.eph, fix.epv, fix.hdop, fix.satellites, fix.speed, fix.track,
                fix.mode.rawValue, fix.source,
            ])
        return db.lastInsertedRowID
    }

    /// The fix the statement finds first, if any.
    static func fix(_ statement: Statement, _ arguments: StatementArguments) throws -> Fix? {
        // A cursor's row is read from its statement: the cursor must outlive the reading.
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        return try withExtendedLifetime(rows) { try rows.next().map(fix(from:)) }
    }

    static func fix(from row: Row) -> Fix {
        Fix(
            time: Timestamp(nanosecondsSinceEpoch: row[FixColumns.time]), latitude: row[FixColumns.lat], longitude: row[FixColumns.lon],
            altitudeHAE: row[FixColumns.altHAE], altitudeMSL: row[FixColumns.altMSL], eph: row[FixColumns.eph], epv: row[FixColumns.epv],
            hdop: row[FixColumns.hdop], satellites: row[FixColumns.satellites], speed: row[FixColumns.speed], track: row[FixColumns.track],
            mode: Fix.Mode(rawValue: row[FixColumns.mode]) ?? .noFix, source: row[FixColumns.source])
    }
}

extension StoreRecords {
    /// Stores one fix of a session's track.
    @discardableResult
    public func record(_ fix: Fix, session: Int64) throws -> Int64 {
        try write { db in try Store.insert(fix, session: session, db) }
    }

    /// A session's track in time order.
    public func fixes(session: Int64) throws -> [Fix] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM fixes WHERE session_id = ? ORDER BY time, id", arguments: [session])
                .map(Store.fix(from:))
        }
    }
}
