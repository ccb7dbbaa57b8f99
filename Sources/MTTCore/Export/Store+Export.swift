import GRDB

extension Store {
    /// Calls `body` with every export record in time order, reading with a cursor: a million samples
    /// pass through in constant memory.
    public func forEachExportRecord(_ filter: ExportFilter, _ body: (ExportRecord) throws -> Void) throws {
        let (condition, bounds, _) = filter.sql(time: "t")
        let (sessionCondition, sessionArguments) = filter.sessionSQL()
        // Placeholders in order: each half of the union's conditions, then the time bounds.
        var sampleCondition = sessionCondition, attemptCondition = sessionCondition
        var sampleArguments = sessionArguments, attemptArguments = sessionArguments
        if let newer = filter.newer {
            sampleCondition += " AND samples.id > ?"
            sampleArguments.append(newer.sample)
            attemptCondition += " AND attempts.id > ? AND attempts.resolved_at <= ?"
            attemptArguments += [newer.attempt, newer.resolvedBy.nanosecondsSinceEpoch]
        }
        var arguments: [(any DatabaseValueConvertible)?] = sampleArguments + attemptArguments
        arguments += bounds.map { $0 as (any DatabaseValueConvertible)? }
        try read { db in
            // Each sample's gateways in one text field (unit and record separators: gateway IDs are
            // lower-case letters, digits and dashes), strongest first.
            let samples = try Row.fetchCursor(db, sql: """
                SELECT * FROM (
                    SELECT samples.time AS t, samples.lat, samples.lon, samples.alt, 'heard' AS status, samples.method,
                           sessions.mode, uplinks.device_id AS device, uplinks.dev_eui, uplinks.f_cnt, uplinks.spreading_factor,
                           uplinks.frequency, 's' || samples.id AS record, sessions.id AS session,
                           (SELECT group_concat(gateway_id || char(31) || IFNULL(rssi, '') || char(31) || IFNULL(snr, '') || char(31)
                                                || IFNULL(lat, '') || char(31) || IFNULL(lon, ''), char(30))
                            FROM (SELECT * FROM receptions WHERE receptions.uplink_id = samples.uplink_id ORDER BY rssi DESC)) AS heard_by
                    FROM samples
                    JOIN sessions ON sessions.id = samples.session_id
                    LEFT JOIN uplinks ON uplinks.id = samples.uplink_id
                    WHERE samples.lat IS NOT NULL \(sampleCondition)
                    UNION ALL
                    SELECT fixes.time AS t, fixes.lat, fixes.lon, COALESCE(fixes.alt_msl, fixes.alt_hae),
                           CASE attempts.state WHEN 'failed' THEN 'failed' ELSE 'lost' END, NULL,
                           sessions.mode, attempts.node, attempts.dev_eui, attempts.f_cnt, NULL, NULL,
                           'a' || attempts.id, sessions.id, NULL
                    FROM attempts
                    JOIN fixes ON fixes.id = attempts.fix_id
                    JOIN sessions ON sessions.id = attempts.session_id
                    WHERE attempts.uplink_id IS NULL AND attempts.state != 'pending' \(attemptCondition)
                ) WHERE \(condition)
                ORDER BY t
                """, arguments: StatementArguments(arguments))
            while let row = try samples.next() {
                // Strongest first: the best gateway is the first (one subquery a sample, not three).
                let heardBy = Self.heardBy(row[14])
                try body(ExportRecord(
                    id: row[12], session: row[13],
                    time: Timestamp(nanosecondsSinceEpoch: row[0]), latitude: row[1], longitude: row[2],
                    altitude: row[3], status: ExportRecord.Status(rawValue: row[4]) ?? .heard, method: row[5],
                    mode: row[6], device: row[7], devEUI: row[8], fCnt: row[9],
                    spreadingFactor: row[10], frequency: row[11], gateways: heardBy.count,
                    bestGateway: heardBy.first?.gateway, rssi: heardBy.first?.rssi, snr: heardBy.first?.snr, receptions: heardBy))
            }
        }
    }

    /// The gateways of `heard_by` above, read as bytes (splitting the text by Characters took a
    /// sixth of a 100,000-sample export).
    private static func heardBy(_ text: String?) -> [ExportRecord.HeardBy] {
        guard let text, !text.isEmpty else { return [] }
        return text.utf8.split(separator: 0x1E).map { entry in
            let f = entry.split(separator: 0x1F, omittingEmptySubsequences: false)
            let number = { (i: Int) -> Double? in i < f.count && !f[i].isEmpty ? Double(Substring(f[i])) : nil }
            let position = number(3).flatMap { lat in number(4).map { GeoPoint(latitude: lat, longitude: $0) } }
            return ExportRecord.HeardBy(gateway: String(Substring(f[0])), rssi: number(1), snr: number(2), position: position)
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
                try body(row["session_id"], Self.fix(from: row))
            }
        }
    }
}

extension Store {
    /// The newest sample and attempt ids: where a live map starts following.
    public func newestRecordIDs() throws -> (sample: Int64, attempt: Int64) {
        try read { db in
            (try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM samples") ?? 0,
             try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM attempts") ?? 0)
        }
    }
}
