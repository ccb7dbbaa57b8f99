import FoundationEssentials
import GRDB



/// The store's reading of a filter: SQL conditions, kept with the queries that use them.
extension ExportFilter {
    /// SQL conditions on a time column and `sessions.mode`, with their arguments.
    func sql(time column: String) -> (String, [Int64?], String?) {
        ("\(column) >= ? AND \(column) <= ?", [since?.nanosecondsSinceEpoch ?? Int64.min, until?.nanosecondsSinceEpoch ?? Int64.max], mode?.rawValue)
    }

    /// The condition on `sessions` (mode and session), ANDed, with its arguments in order.
    func sessionSQL() -> (String, [any DatabaseValueConvertible]) {
        var condition = ""
        var arguments: [any DatabaseValueConvertible] = []
        if let mode {
            condition += " AND sessions.mode = ?"
            arguments.append(mode.rawValue)
        }
        if let session {
            condition += " AND sessions.id = ?"
            arguments.append(session)
        }
        return (condition, arguments)
    }
}

extension StoreRecords {
    /// Calls `body` with every export record in time order, reading with a cursor: a million samples
    /// pass through in constant memory.
    public func forEachExportRecord(_ filter: ExportFilter, _ body: (ExportRecord) throws -> Void) throws {
        let (condition, bounds, _) = filter.sql(time: "time")
        let (sessionCondition, sessionArguments) = filter.sessionSQL()
        // Placeholders in order: each half of the union's conditions, then the time bounds.
        var sampleCondition = sessionCondition, attemptCondition = sessionCondition
        var sampleArguments = sessionArguments, attemptArguments = sessionArguments
        if let newer = filter.newer {
            sampleCondition += " AND samples.id > ?"
            sampleArguments.append(newer.sample)
            attemptCondition += " AND attempts.id > ?"
            attemptArguments.append(newer.attempt)
        }
        var arguments: [(any DatabaseValueConvertible)?] = sampleArguments + attemptArguments
        arguments += bounds.map { $0 as (any DatabaseValueConvertible)? }
        try read { db in
            // Each sample's gateways, strongest first, by the index on receptions(uplink_id).
            let gateways = try db.cachedStatement(sql: """
                SELECT gateway_id, rssi, snr, lat, lon FROM receptions WHERE uplink_id = ? ORDER BY rssi DESC
                """)
            let records = try Row.fetchCursor(db, sql: """
                SELECT * FROM (
                    SELECT samples.time AS time, samples.lat AS lat, samples.lon AS lon, samples.alt AS alt, 'heard' AS status,
                           samples.method AS method, sessions.mode AS mode, uplinks.device_id AS device, uplinks.dev_eui AS dev_eui,
                           uplinks.f_cnt AS f_cnt, uplinks.spreading_factor AS sf, uplinks.frequency AS frequency,
                           samples.id AS sample_id, NULL AS attempt_id, sessions.id AS session, samples.uplink_id AS uplink_id,
                           field_test_replies.reply AS field_test, NULL AS linkcheck_gateways, NULL AS linkcheck_margin
                    FROM samples
                    JOIN sessions ON sessions.id = samples.session_id
                    LEFT JOIN uplinks ON uplinks.id = samples.uplink_id
                    LEFT JOIN field_test_replies ON field_test_replies.uplink_id = samples.uplink_id
                    WHERE samples.lat IS NOT NULL \(sampleCondition)
                    UNION ALL
                    SELECT fixes.time, fixes.lat, fixes.lon, COALESCE(fixes.alt_msl, fixes.alt_hae),
                           CASE WHEN attempts.state = 'failed' THEN 'failed' WHEN attempts.linkcheck_gateways > 0 THEN 'heard-linkcheck' ELSE 'lost' END, NULL,
                           sessions.mode, attempts.node, attempts.dev_eui, attempts.f_cnt, attempts.spreading_factor, NULL,
                           NULL, attempts.id, sessions.id, NULL, NULL, attempts.linkcheck_gateways, attempts.linkcheck_margin
                    FROM attempts
                    JOIN fixes ON fixes.id = attempts.fix_id
                    JOIN sessions ON sessions.id = attempts.session_id
                    WHERE attempts.uplink_id IS NULL AND attempts.state != 'pending' \(attemptCondition)
                ) WHERE \(condition)
                ORDER BY time
                """, arguments: StatementArguments(arguments))
            while let row = try records.next() {
                var heardBy: [ExportRecord.HeardBy] = []
                if let uplink: Int64 = row[ExportQueryColumns.uplinkID] {
                    let receptions = try Row.fetchCursor(gateways, arguments: [uplink])
                    while let g = try receptions.next() {
                        let lat: Double? = g[ReceptionColumns.lat], lon: Double? = g[ReceptionColumns.lon]
                        heardBy.append(ExportRecord.HeardBy(
                            gateway: g[ReceptionColumns.gatewayID], rssi: g[ReceptionColumns.rssi], snr: g[ReceptionColumns.snr],
                            position: lat.flatMap { lat in lon.map { GeoPoint(latitude: lat, longitude: $0) } }))
                    }
                }
                let linkCheckGateways: Int? = row[ExportQueryColumns.linkCheckGateways]
                let key: ExportRecord.Key = if let sample: Int64 = row[ExportQueryColumns.sampleID] { .sample(sample) } else { .attempt(row[ExportQueryColumns.attemptID]) }
                try body(ExportRecord(
                    key: key, session: row[ExportQueryColumns.session], time: Timestamp(nanosecondsSinceEpoch: row[ExportQueryColumns.time]),
                    latitude: row[ExportQueryColumns.lat], longitude: row[ExportQueryColumns.lon], altitude: row[ExportQueryColumns.alt],
                    status: ExportRecord.Status(rawValue: row[ExportQueryColumns.status]) ?? .heard, method: row[ExportQueryColumns.method], mode: row[ExportQueryColumns.mode],
                    device: row[ExportQueryColumns.device], devEUI: row[ExportQueryColumns.devEUI], fCnt: row[ExportQueryColumns.fCnt], spreadingFactor: row[ExportQueryColumns.sf], frequency: row[ExportQueryColumns.frequency],
                    gateways: linkCheckGateways ?? heardBy.count, bestGateway: heardBy.first?.gateway, rssi: heardBy.first?.rssi, snr: heardBy.first?.snr,
                    receptions: heardBy, linkCheckMargin: row[ExportQueryColumns.linkCheckMargin],
                    fieldTestReply: (row[ExportQueryColumns.fieldTest] as Data?).map { [UInt8]($0) }))
            }
        }
    }

    /// Calls `body` with every track fix in session and time order (GPX tracks).
    public func forEachTrackFix(_ filter: ExportFilter, _ body: (_ session: Int64, Fix) throws -> Void) throws {
        let (condition, bounds, _) = filter.sql(time: "fixes.time")
        let (sessionCondition, sessionArguments) = filter.sessionSQL()
        let arguments: [(any DatabaseValueConvertible)?] = bounds.map { $0 as (any DatabaseValueConvertible)? } + sessionArguments
        try read { db in
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT fixes.* FROM fixes JOIN sessions ON sessions.id = fixes.session_id
                WHERE \(condition) \(sessionCondition)
                ORDER BY fixes.session_id, fixes.time
                """, arguments: StatementArguments(arguments))
            while let row = try cursor.next() {
                try body(row[ExportQueryColumns.sessionID], Store.fix(from: row))
            }
        }
    }

    /// The newest sample and attempt ids: where a live map starts following.
    public func newestRecordIDs() throws -> (sample: Int64, attempt: Int64) {
        try read { db in
            (try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM samples") ?? 0,
             try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM attempts") ?? 0)
        }
    }
}
