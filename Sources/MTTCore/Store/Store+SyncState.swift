import GRDB

extension Store {
    /// The next ids of a target's queue of one kind, above `after`, in id order.
    /// Held records are in the queue only when `includingHeld` (an upload to an experiment).
    public func syncQueue(
        _ target: SyncTarget, kind: SyncRecordKind, after: Int64, limit: Int, includingHeld: Bool = false, scope: SyncScope = .plain
    ) throws -> [Int64] {
        guard let queue = target.queues.first(where: { $0.kind == kind }) else { return [] }
        return try read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT candidate.id FROM (\(queue.candidates)) AS candidate
                    WHERE candidate.id > ? AND \(Self.notSynced(includingHeld: includingHeld))\(try Self.inScope(scope, kind, db))
                    ORDER BY candidate.id LIMIT ?
                    """,
                arguments: [after, target.rawValue, kind.rawValue, limit])
        }
    }

    /// How many records a target still waits for.
    public func syncQueueCount(_ target: SyncTarget, includingHeld: Bool = false, scope: SyncScope = .plain) throws -> Int {
        try read { db in try Self.syncQueueCount(target, includingHeld: includingHeld, scope: scope, db) }
    }

    static func syncQueueCount(_ target: SyncTarget, includingHeld: Bool, scope: SyncScope = .plain, _ db: Database) throws -> Int {
        var total = 0
        for queue in target.queues {
            total += try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM (\(queue.candidates)) AS candidate
                    WHERE \(notSynced(includingHeld: includingHeld))\(try inScope(scope, queue.kind, db))
                    """,
                arguments: [target.rawValue, queue.kind.rawValue]) ?? 0
        }
        return total
    }

    /// A target's records that the scope holds back because their session is simulated, or
    /// because the user excluded it (an excluded simulated session counts as excluded).
    public func syncHeldBack(_ target: SyncTarget, scope: SyncScope) throws -> (simulated: Int, excluded: Int) {
        try read { db in
            var withSimulated = scope
            withSimulated.includeSimulated = true
            var withAll = withSimulated
            withAll.includeExcluded = true
            let plain = try Self.syncQueueCount(target, includingHeld: false, scope: scope, db)
            let simulated = try Self.syncQueueCount(target, includingHeld: false, scope: withSimulated, db)
            let all = try Self.syncQueueCount(target, includingHeld: false, scope: withAll, db)
            return (simulated - plain, all - simulated)
        }
    }

    /// Records of a target in one sync state.
    public func syncCount(_ target: SyncTarget, state: SyncOutcome.State) throws -> Int {
        try read { db in try Self.syncCount(target, state: state, db) }
    }

    static func syncCount(_ target: SyncTarget, state: SyncOutcome.State, _ db: Database) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM sync_state WHERE target = ? AND state = ?",
            arguments: [target.rawValue, state.rawValue]) ?? 0
    }

    /// Writes outcomes in one transaction. A held record that later reaches an experiment is
    /// updated to sent; a sent or rejected one is never written again.
    public func recordSync(_ outcomes: [SyncOutcome], target: SyncTarget, at time: Timestamp = .now()) throws {
        guard !outcomes.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO sync_state (target, kind, record_id, state, tries, message, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (target, kind, record_id) DO UPDATE SET
                    state = excluded.state, tries = sync_state.tries + excluded.tries,
                    message = excluded.message, updated_at = excluded.updated_at
                WHERE sync_state.state = 'held'
                """)
            for outcome in outcomes {
                try statement.execute(arguments: [
                    target.rawValue, outcome.kind.rawValue, outcome.recordID, outcome.state.rawValue, outcome.tries,
                    outcome.message, time.nanosecondsSinceEpoch,
                ])
            }
        }
    }

    /// The reasons recorded for a target's rejected or held records, newest first.
    public func syncMessages(_ target: SyncTarget, state: SyncOutcome.State, limit: Int = 20) throws -> [SyncMessage] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, record_id, message FROM sync_state WHERE target = ? AND state = ?
                    ORDER BY updated_at DESC, record_id DESC LIMIT ?
                    """,
                arguments: [target.rawValue, state.rawValue, limit]
            ).compactMap { row in
                guard let kind = SyncRecordKind(rawValue: row["kind"]) else { return nil }
                return SyncMessage(target: target, state: state, kind: kind, recordID: row["record_id"], message: row["message"] ?? "")
            }
        }
    }

    /// The table a kind of record is a row of.
    static func table(of kind: SyncRecordKind) -> String {
        switch kind {
        case .attempt: "attempts"
        case .sample: "samples"
        case .fix: "fixes"
        }
    }

    /// The sessions a plain sync holds back: simulated ones (unless the scope includes them) and
    /// the ones the user excluded.
    static func heldSessions(_ scope: SyncScope, _ db: Database) throws -> [Int64] {
        var reasons: [String] = []
        if !scope.includeExcluded { reasons.append("sync_excluded != 0") }
        if !scope.includeSimulated { reasons.append("simulated IS NOT NULL") }
        guard !reasons.isEmpty else { return [] }
        return try Int64.fetchAll(db, sql: "SELECT id FROM sessions WHERE " + reasons.joined(separator: " OR "))
    }

    /// More conditions on `candidate.id` (none for a database with no held session and no session
    /// asked for, so a plain sync pays nothing for them); session ids are numbers, written in.
    static func inScope(_ scope: SyncScope, _ kind: SyncRecordKind, _ db: Database) throws -> String {
        let held = try heldSessions(scope, db)
        let sessionOf = "(SELECT session_id FROM \(table(of: kind)) WHERE id = candidate.id)"
        var conditions: [String] = []
        if let session = scope.session { conditions.append("\(sessionOf) = \(session)") }
        if !held.isEmpty { conditions.append("\(sessionOf) NOT IN (\(held.map(String.init).joined(separator: ",")))") }
        return conditions.map { " AND " + $0 }.joined()
    }

    /// The condition on `candidate.id` with two placeholders: the target and the kind.
    private static func notSynced(includingHeld: Bool) -> String {
        """
        NOT EXISTS (
            SELECT 1 FROM sync_state
            WHERE sync_state.target = ? AND sync_state.kind = ? AND sync_state.record_id = candidate.id
            \(includingHeld ? "AND sync_state.state != 'held'" : ""))
        """
    }
}
