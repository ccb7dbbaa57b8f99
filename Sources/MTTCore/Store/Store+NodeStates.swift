import GRDB

extension Store {

    static func latestNodeStates(_ db: Database) throws -> [NodeState] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT n.*, s.ended_at FROM node_states n JOIN sessions s ON s.id = n.session_id
            WHERE n.session_id = (SELECT MAX(session_id) FROM node_states)
            ORDER BY n.rowid
            """)
        return rows.map { row in
            NodeState(
                session: row[NodeStateColumns.sessionID], node: row[NodeStateColumns.node],
                state: NodeState.Condition(rawValue: row[NodeStateColumns.state]) ?? .lost, reason: row[NodeStateColumns.reason],
                since: Timestamp(nanosecondsSinceEpoch: row[NodeStateColumns.since]), reconnects: row[NodeStateColumns.reconnects],
                sessionEnded: (row[SessionColumns.endedAt] as Int64?) != nil)
        }
    }
}

extension StoreRecords {
    /// The node is reachable: at the start of a run, or back after a loss (`cameBack`).
    public func recordNodeConnected(_ node: String, session: Int64, at time: Timestamp, cameBack: Bool) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO node_states (session_id, node, state, reason, since, reconnects) VALUES (?, ?, 'connected', NULL, ?, ?)
                    ON CONFLICT (session_id, node) DO UPDATE SET
                        state = 'connected', reason = NULL, since = excluded.since, reconnects = reconnects + excluded.reconnects
                    """,
                arguments: [session, node, time.nanosecondsSinceEpoch, cameBack ? 1 : 0])
        }
    }

    public func recordNodeLost(_ node: String, session: Int64, reason: String, at time: Timestamp) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO node_states (session_id, node, state, reason, since, reconnects) VALUES (?, ?, 'lost', ?, ?, 0)
                    ON CONFLICT (session_id, node) DO UPDATE SET state = 'lost', reason = excluded.reason, since = excluded.since
                    """,
                arguments: [session, node, reason, time.nanosecondsSinceEpoch])
        }
    }

    /// The nodes of the newest session that drove any, in the order the run named them.
    public func latestNodeStates() throws -> [NodeState] {
        try read { db in try Store.latestNodeStates(db) }
    }
}
