import GRDB

extension Store {
    /// Gives a sample to every uplink of a matching or listener session that has none: a run
    /// stopped (or killed) while uplinks waited for the track to reach their time. Each is placed
    /// on its session's stored track, or stored without a position and with the reason. Returns
    /// how many were placed either way.
    public func placeUnplacedUplinks(maximumGap: Double = 30) throws -> Int {
        let orphans = try read { db in
            try Row.fetchAll(db, sql: """
                SELECT u.id, u.session_id FROM uplinks u JOIN sessions s ON s.id = u.session_id
                WHERE s.mode IN ('matching', 'listener')
                  AND NOT EXISTS (SELECT 1 FROM samples m WHERE m.uplink_id = u.id)
                ORDER BY u.session_id, u.id
                """).map { (id: $0["id"] as Int64, session: $0["session_id"] as Int64) }
        }
        guard !orphans.isEmpty else { return 0 }
        var tracks: [Int64: [Fix]] = [:]
        var samples: [Sample] = []
        for orphan in orphans {
            guard let uplink = try uplink(orphan.id) else { continue }
            let track = try tracks[orphan.session] ?? fixes(session: orphan.session)
            tracks[orphan.session] = track
            let time = uplink.earliestReceiveTime
            switch TrackInterpolator(maximumGap: maximumGap).position(at: time, in: track) {
            case .position(let point):
                samples.append(Sample(sessionID: orphan.session, subject: .uplink(orphan.id), time: time, position: point, method: .interpolated))
            case .none(let reason):
                samples.append(Sample(sessionID: orphan.session, subject: .uplink(orphan.id), time: time, position: nil, method: .none, reason: reason))
            }
        }
        try batch { batch in
            for sample in samples { try batch.record(sample) }
        }
        return samples.count
    }
}
