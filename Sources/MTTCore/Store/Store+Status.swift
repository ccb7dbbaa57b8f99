import GRDB

extension Store {
    /// - Parameter targets: the targets whose queues to count (a plain `mtt sync`'s by default).
    public func status(targets: [SyncTarget] = SyncTarget.defaultRun(in: nil)) throws -> StoreStatus {
        try read { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            var unsynced: [String: Int] = [:]
            var held: [String: Int] = [:]
            var simulated: [String: Int] = [:]
            var excluded: [String: Int] = [:]
            var notTaken: [String: NotTaken] = [:]
            for target in targets {
                let queue = try Self.syncQueueCounts(target, scope: .plain, db)
                (unsynced[target.rawValue], simulated[target.rawValue], excluded[target.rawValue]) = (queue.waiting, queue.simulated, queue.excluded)
                if queue.notTaken > 0, let reason = queue.notTakenReason {
                    notTaken[target.rawValue] = NotTaken(count: queue.notTaken, reason: reason)
                }
                held[target.rawValue] = try Self.syncCount(target, state: .held, db)
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
                unsynced: unsynced, held: held, simulated: simulated, excluded: excluded, notTaken: notTaken, nodes: try Self.latestNodeStates(db))
        }
    }
}
