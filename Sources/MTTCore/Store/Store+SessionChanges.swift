import GRDB

/// What deleting a session took with it.
public struct SessionDeletion: Sendable, Hashable, Encodable {
    public var session: Int64
    public var attempts: Int
    public var uplinks: Int
    public var samples: Int
    public var fixes: Int
    public var events: Int
}

extension Store {

    fileprivate static func deletion(of id: Int64, _ db: Database) throws -> SessionDeletion? {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM sessions WHERE id = ?", arguments: [id]) == true else { return nil }
        func count(_ select: String) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(select))", arguments: [id]) ?? 0
        }
        return SessionDeletion(
            session: id, attempts: try count(attempts), uplinks: try count(uplinks), samples: try count(samples),
            fixes: try count(fixes), events: try count("SELECT id FROM events WHERE session_id = ?1"))
    }

    // A session's records, each a SELECT of ids taking the session id as ?1. A sample of another
    // session made from one of its attempts or uplinks goes with them.
    fileprivate static let attempts = "SELECT id FROM attempts WHERE session_id = ?1"
    fileprivate static let uplinks = "SELECT id FROM uplinks WHERE session_id = ?1"
    fileprivate static let samples = "SELECT id FROM samples WHERE session_id = ?1 OR attempt_id IN (\(attempts)) OR uplink_id IN (\(uplinks))"
    fileprivate static let fixes = "SELECT id FROM fixes WHERE session_id = ?1"

    static func importedSession(hash: String, _ db: Database) throws -> StoredSession? {
        try Row.fetchOne(db, sql: "SELECT * FROM sessions WHERE source_hash = ? ORDER BY id LIMIT 1", arguments: [hash])
            .map(Self.session(from:))
    }
}

extension StoreSessions {
    /// Names a session; nil or empty takes the name away. False when there is no such session.
    @discardableResult
    public func nameSession(_ id: Int64, _ name: String?) throws -> Bool {
        let name = name.flatMap { $0.isEmpty ? nil : $0 }
        return try write { db in
            try db.execute(sql: "UPDATE sessions SET name = ? WHERE id = ?", arguments: [name, id])
            return db.changesCount > 0
        }
    }

    /// Leaves a session out of every sync, or takes it back. False when there is no such session.
    @discardableResult
    public func setSyncExcluded(_ id: Int64, _ excluded: Bool) throws -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE sessions SET sync_excluded = ? WHERE id = ?", arguments: [excluded, id])
            return db.changesCount > 0
        }
    }

    /// Deletes a session with everything recorded in it: attempts, uplinks and their gateways,
    /// samples, the track, events, node states and what sync wrote about them. An attempt of another
    /// session that was matched to one of its uplinks keeps its place but loses the match. Nil when
    /// there is no such session.
    public func deleteSession(_ id: Int64) throws -> SessionDeletion? {
        try write { db -> SessionDeletion? in
            guard let deletion = try Store.deletion(of: id, db) else { return nil }
            let (attempts, uplinks, samples, fixes) = (Store.attempts, Store.uplinks, Store.samples, Store.fixes)
            let arguments: StatementArguments = [id]
            // The coverage it leaves: the gateways that heard what goes, and the other sessions
            // whose samples or matches go with it, rebuilt once it is gone.
            let gateways = Set(try String.fetchAll(db, sql: """
                SELECT DISTINCT gateway_id FROM receptions WHERE uplink_id IN (SELECT uplink_id FROM samples WHERE id IN (\(samples)))
                """, arguments: arguments))
            let touched = Set(try Int64.fetchAll(db, sql: """
                SELECT session_id FROM samples WHERE id IN (\(samples))
                UNION SELECT session_id FROM attempts WHERE session_id != ?1 AND uplink_id IN (\(uplinks))
                """, arguments: arguments)).subtracting([id])
            // One statement at a time: each takes the session id as its ?1.
            for statement in [
                """
                DELETE FROM sync_state WHERE (kind = 'attempt' AND record_id IN (\(attempts)))
                    OR (kind = 'sample' AND record_id IN (\(samples))) OR (kind = 'fix' AND record_id IN (\(fixes)))
                """,
                "DELETE FROM samples WHERE id IN (\(samples))",
                "UPDATE attempts SET uplink_id = NULL WHERE session_id != ?1 AND uplink_id IN (\(uplinks))",
                "DELETE FROM attempts WHERE session_id = ?1",
                "DELETE FROM estimated_attempts WHERE session_id = ?1",
                "DELETE FROM field_test_replies WHERE uplink_id IN (\(uplinks))",
                "DELETE FROM receptions WHERE uplink_id IN (\(uplinks))",
                "DELETE FROM uplinks WHERE session_id = ?1",
                "DELETE FROM fixes WHERE session_id = ?1",
                "DELETE FROM events WHERE session_id = ?1",
                "DELETE FROM node_states WHERE session_id = ?1",
                "DELETE FROM sessions WHERE id = ?1",
                "DELETE FROM coverage_cells WHERE session_id = ?1",
                "DELETE FROM coverage_cells_moved WHERE session_id = ?1",
                "DELETE FROM coverage_attempts WHERE session_id = ?1",
                "DELETE FROM coverage_linkchecks WHERE session_id = ?1",
                "DELETE FROM coverage_left_out WHERE session_id = ?1",
            ] {
                try db.execute(sql: statement, arguments: arguments)
            }
            try Store.rebuildCoverage(sessions: touched, gateways: gateways, db)
            try Store.rebuildCoverageTotals(db)
            return deletion
        }
    }

    /// What deleting a session would take, without deleting it; nil when there is no such session.
    public func deletion(of id: Int64) throws -> SessionDeletion? {
        try read { db in try Store.deletion(of: id, db) }
    }

    /// The import session made from a file with this content hash, if there is one.
    public func importedSession(hash: String) throws -> StoredSession? {
        try read { db in try Store.importedSession(hash: hash, db) }
    }
}
