import GRDB

extension Store {
    /// Calls `body` with every export record in time order, reading with a cursor: a million samples
    /// pass through in constant memory.
    public func forEachExportRecord(_ filter: ExportFilter, _ body: (ExportRecord) throws -> Void) throws {
        let (condition, bounds, mode) = filter.sql(time: "t")
        let modeCondition = mode == nil ? "" : "AND sessions.mode = ?"
        // Placeholders in order: the mode in each half of the union, then the time bounds.
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let mode { arguments += [mode, mode] }
        arguments += bounds.map { $0 as (any DatabaseValueConvertible)? }
        try read { db in
            let samples = try Row.fetchCursor(db, sql: """
                SELECT * FROM (
                    SELECT samples.time AS t, samples.lat, samples.lon, samples.alt, 'heard' AS status, samples.method,
                           sessions.mode, uplinks.device_id AS device, uplinks.dev_eui, uplinks.f_cnt, uplinks.spreading_factor,
                           uplinks.frequency,
                           (SELECT COUNT(*) FROM receptions WHERE receptions.uplink_id = samples.uplink_id) AS gateways,
                           best.gateway_id AS best_gateway, best.rssi, best.snr
                    FROM samples
                    JOIN sessions ON sessions.id = samples.session_id
                    LEFT JOIN uplinks ON uplinks.id = samples.uplink_id
                    LEFT JOIN receptions AS best ON best.id = (
                        SELECT id FROM receptions WHERE receptions.uplink_id = samples.uplink_id ORDER BY rssi DESC LIMIT 1)
                    WHERE samples.lat IS NOT NULL \(modeCondition)
                    UNION ALL
                    SELECT fixes.time AS t, fixes.lat, fixes.lon, COALESCE(fixes.alt_msl, fixes.alt_hae),
                           CASE attempts.state WHEN 'failed' THEN 'failed' ELSE 'lost' END, NULL,
                           sessions.mode, attempts.node, attempts.dev_eui, attempts.f_cnt, NULL, NULL, 0, NULL, NULL, NULL
                    FROM attempts
                    JOIN fixes ON fixes.id = attempts.fix_id
                    JOIN sessions ON sessions.id = attempts.session_id
                    WHERE attempts.uplink_id IS NULL AND attempts.state != 'pending' \(modeCondition)
                ) WHERE \(condition)
                ORDER BY t
                """, arguments: StatementArguments(arguments))
            while let row = try samples.next() {
                try body(ExportRecord(
                    time: Timestamp(nanosecondsSinceEpoch: row["t"]), latitude: row["lat"], longitude: row["lon"],
                    altitude: row["alt"], status: ExportRecord.Status(rawValue: row["status"]) ?? .heard, method: row["method"],
                    mode: row["mode"], device: row["device"], devEUI: row["dev_eui"], fCnt: row["f_cnt"],
                    spreadingFactor: row["spreading_factor"], frequency: row["frequency"], gateways: row["gateways"],
                    bestGateway: row["best_gateway"], rssi: row["rssi"], snr: row["snr"]))
            }
        }
    }

    /// Calls `body` with every track fix in session and time order (GPX tracks).
    public func forEachTrackFix(_ filter: ExportFilter, _ body: (_ session: Int64, Fix) throws -> Void) throws {
        let (condition, bounds, mode) = filter.sql(time: "fixes.time")
        var arguments: [(any DatabaseValueConvertible)?] = bounds.map { $0 as (any DatabaseValueConvertible)? }
        if let mode { arguments.append(mode) }
        try read { db in
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT fixes.* FROM fixes JOIN sessions ON sessions.id = fixes.session_id
                WHERE \(condition) \(mode == nil ? "" : "AND sessions.mode = ?")
                ORDER BY fixes.session_id, fixes.time
                """, arguments: StatementArguments(arguments))
            while let row = try cursor.next() {
                try body(row["session_id"], Self.fix(from: row))
            }
        }
    }
}
