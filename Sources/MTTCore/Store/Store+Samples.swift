import GRDB

extension Store {

    static func insert(_ sample: Sample, _ batch: Batch) throws -> Int64 {
        let uplinkID: Int64?
        let attemptID: Int64?
        switch sample.subject {
        case .uplink(let id): (uplinkID, attemptID) = (id, nil)
        case .attempt(let id): (uplinkID, attemptID) = (nil, id)
        }
        var row = try RowInsert(batch, sql: """
            INSERT INTO samples (session_id, uplink_id, attempt_id, time, lat, lon, alt, method, reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        row.bind(sample.sessionID)
        row.bind(uplinkID)
        row.bind(attemptID)
        row.bind(sample.time.nanosecondsSinceEpoch)
        row.bind(sample.position?.latitude)
        row.bind(sample.position?.longitude)
        row.bind(sample.position?.altitude)
        row.bind(sample.method.rawValue)
        row.bind(sample.reason)
        let id = try row.run()
        if let uplinkID, let place = sample.position {
            try batch.coverage.add(session: sample.sessionID, uplink: uplinkID, time: sample.time.nanosecondsSinceEpoch, at: place, batch.db)
        }
        return id
    }

}

extension StoreRecords {
    @discardableResult
    public func record(_ sample: Sample) throws -> Int64 {
        try batch { try Store.insert(sample, $0) }
    }

    public func samples(session: Int64) throws -> [Sample] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM samples WHERE session_id = ? ORDER BY time, id", arguments: [session])
                .compactMap { row -> Sample? in
                    let uplinkID: Int64? = row[SampleColumns.uplinkID]
                    let attemptID: Int64? = row[SampleColumns.attemptID]
                    guard let subject = uplinkID.map(Sample.Subject.uplink) ?? attemptID.map(Sample.Subject.attempt) else {
                        return nil
                    }
                    let lat: Double? = row[SampleColumns.lat]
                    let lon: Double? = row[SampleColumns.lon]
                    return Sample(
                        id: row[SampleColumns.id], sessionID: row[SampleColumns.sessionID],
                        subject: subject,
                        time: Timestamp(nanosecondsSinceEpoch: row[SampleColumns.time]),
                        position: lat.flatMap { la in lon.map { GeoPoint(latitude: la, longitude: $0, altitude: row[SampleColumns.alt]) } },
                        method: Sample.PositionMethod(rawValue: row[SampleColumns.method]) ?? .none, reason: row[SampleColumns.reason])
                }
        }
    }
}
