import GRDB

extension Store {
    /// - Parameters:
    ///   - targets: the targets whose queues to count (a plain `mtt sync`'s by default).
    ///   - session: only this session's records (a report of one session); its nodes' link
    ///     states are left out, as they belong to a run, not to what it recorded.
    public func status(targets: [SyncTarget] = SyncTarget.defaultRun(in: nil), session: Int64? = nil) throws -> StoreStatus {
        try read { db in
            /// Rows of `table` where `condition` holds, of `session` when there is one.
            func count(_ table: String, _ condition: String = "1") throws -> Int {
                let scope = session.map { " AND session_id = \($0)" } ?? ""
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(condition)\(scope)") ?? 0
            }
            var unsynced: [String: Int] = [:]
            var held: [String: Int] = [:]
            var simulated: [String: Int] = [:]
            var excluded: [String: Int] = [:]
            var notTaken: [String: NotTaken] = [:]
            for target in targets {
                let queue = try Self.syncQueueCounts(target, scope: SyncScope(session: session), db)
                (unsynced[target.rawValue], simulated[target.rawValue], excluded[target.rawValue]) = (queue.waiting, queue.simulated, queue.excluded)
                if queue.notTaken > 0, let reason = queue.notTakenReason {
                    notTaken[target.rawValue] = NotTaken(count: queue.notTaken, reason: reason)
                }
                held[target.rawValue] = try Self.syncCount(target, state: .held, db)
            }
            var status = StoreStatus(
                sessions: session == nil ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions") ?? 0 : 1,
                attempts: try count("attempts"),
                confirmed: try count("attempts", "state = 'confirmed'"),
                failed: try count("attempts", "state = 'failed'"),
                pending: try count("attempts", "state = 'pending'"),
                heard: try count("attempts", "uplink_id IS NOT NULL"),
                uplinks: try count("uplinks"),
                gpsSamples: try count("fixes"),
                samples: try count("samples", "lat IS NOT NULL"), estimatedAttempts: try count("estimated_attempts"),
                devices: try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT device_id) FROM uplinks" + (session.map { " WHERE session_id = \($0)" } ?? "")) ?? 0,
                fieldTestsAnswered: try count("events", "type = '\(FieldEventType.fieldTestAnswered.rawValue)'"),
                unsynced: unsynced, held: held, simulated: simulated, excluded: excluded, notTaken: notTaken, nodes: session == nil ? try Self.latestNodeStates(db) : [])
            status.linkChecks = try count("attempts", "linkcheck_gateways IS NOT NULL")
            status.linkChecksAnswered = try count("attempts", "linkcheck_gateways > 0")
            return status
        }
    }
}
