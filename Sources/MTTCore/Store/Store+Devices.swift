import GRDB

extension StoreRecords {
    /// Every device's own sessions (of one stored session's uplinks, or all), device by device in
    /// time order; read with a cursor, sorted by SQLite (which spills to a temporary file past its
    /// cache, so memory stays flat): the uplinks have no device index, which a fleet's ingest paid for.
    public func forEachDeviceSession(
        of session: Int64? = nil, device: String? = nil, splitter: DeviceSessionSplitter = DeviceSessionSplitter(),
        _ body: (DeviceSession) throws -> Void
    ) throws {
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        if let session { conditions.append("u.session_id = ?"); arguments.append(session) }
        if let device { conditions.append("u.device_id = ?"); arguments.append(device) }
        try read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT u.device_id, u.dev_eui, u.received_at, u.f_cnt, s.lat, s.lon,
                       (SELECT COUNT(*) FROM estimated_attempts e WHERE e.heard_after = u.id) AS estimated, s.method = 'payload' AS own
                FROM uplinks u LEFT JOIN samples s ON s.uplink_id = u.id AND s.lat IS NOT NULL
                WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))
                ORDER BY u.device_id, u.received_at, u.id
                """, arguments: StatementArguments(arguments))
            func next() throws -> DeviceSessionSplitter.Heard? {
                guard let row = try rows.next() else { return nil }
                let lat: Double? = row[4], lon: Double? = row[5]
                return DeviceSessionSplitter.Heard(
                    device: row[0], devEUI: row[1], time: Timestamp(nanosecondsSinceEpoch: row[2]),
                    fCnt: (row[3] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
                    position: lat.flatMap { lat in lon.map { GeoPoint(latitude: lat, longitude: $0) } }, sentByDevice: row[7] ?? false,
                    estimatedBefore: row[6])
            }
            try splitter.split(next: next, body)
        }
    }
}
