import GRDB

extension Store {
    public func status() throws -> StoreStatus {
        try read { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            var unsynced: [String: Int] = [:]
            for target in SyncTarget.allCases {
                var total = 0
                for queue in target.queues {
                    total += try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM (\(queue.candidates)) AS candidate
                            WHERE NOT EXISTS (
                                SELECT 1 FROM sync_state
                                WHERE sync_state.target = ? AND sync_state.kind = ? AND sync_state.record_id = candidate.id)
                            """,
                        arguments: [target.rawValue, queue.kind]) ?? 0
                }
                unsynced[target.rawValue] = total
            }
            return StoreStatus(
                sessions: try count("SELECT COUNT(*) FROM sessions"),
                attempts: try count("SELECT COUNT(*) FROM attempts"),
                confirmed: try count("SELECT COUNT(*) FROM attempts WHERE state = 'confirmed'"),
                failed: try count("SELECT COUNT(*) FROM attempts WHERE state = 'failed'"),
                pending: try count("SELECT COUNT(*) FROM attempts WHERE state = 'pending'"),
                heard: try count("SELECT COUNT(*) FROM attempts WHERE uplink_id IS NOT NULL"),
                uplinks: try count("SELECT COUNT(*) FROM uplinks"),
                gpsSamples: try count("SELECT COUNT(*) FROM fixes"),
                samples: try count("SELECT COUNT(*) FROM samples WHERE lat IS NOT NULL"),
                unsynced: unsynced)
        }
    }
}
