import GRDB

/// A target's records not synced yet, as a sync with a scope sees them.
public struct SyncQueueCounts: Sendable, Hashable {
    /// What the sync takes.
    public var waiting = 0
    /// Held back: of simulated sessions, and of sessions the user excluded (an excluded simulated
    /// session counts as excluded).
    public var simulated = 0
    public var excluded = 0
    /// Of kinds the target's server said it does not take (`UnacceptedKind`), and what it said.
    public var notTaken = 0
    public var notTakenReason: String?
}

extension Store {

    static func syncQueueCount(
        _ target: SyncTarget, includingHeld: Bool, scope: SyncScope = .plain, skipping: Set<SyncRecordKind> = [], _ db: Database
    ) throws -> Int {
        var total = 0
        for queue in target.queues where !skipping.contains(queue.kind) {
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

    static func syncQueueCounts(_ target: SyncTarget, scope: SyncScope, _ db: Database) throws -> SyncQueueCounts {
        let excluded = try Int64.fetchAll(db, sql: "SELECT id FROM sessions WHERE sync_excluded != 0")
        let simulated = scope.includeSimulated
            ? [] : try Int64.fetchAll(db, sql: "SELECT id FROM sessions WHERE simulated IS NOT NULL AND sync_excluded = 0")
        let unaccepted = try unacceptedKinds(target, db)
        guard !excluded.isEmpty || !simulated.isEmpty || !unaccepted.isEmpty else {
            return SyncQueueCounts(waiting: try syncQueueCount(target, includingHeld: false, scope: scope, db))
        }
        func list(_ ids: [Int64]) -> String { ids.map(String.init).joined(separator: ",") }
        var counts = SyncQueueCounts()
        for queue in target.queues {
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS n, SUM(session IN (\(list(excluded)))) AS excluded, SUM(session IN (\(list(simulated)))) AS simulated
                    FROM (
                        SELECT (SELECT session_id FROM \(table(of: queue.kind)) WHERE id = candidate.id) AS session
                        FROM (\(queue.candidates)) AS candidate WHERE \(notSynced(includingHeld: false)))
                    \(scope.session.map { "WHERE session = \($0)" } ?? "")
                    """,
                arguments: [target.rawValue, queue.kind.rawValue])
            let n: Int = row?["n"] ?? 0, inExcluded: Int = row?["excluded"] ?? 0, inSimulated: Int = row?["simulated"] ?? 0
            if let refusal = unaccepted.first(where: { $0.kind == queue.kind }) {
                counts.notTaken += n - inExcluded - inSimulated
                counts.notTakenReason = "\(refusal.server): \(refusal.reason)"
            } else {
                counts.waiting += n - inExcluded - inSimulated
            }
            counts.excluded += inExcluded
            counts.simulated += inSimulated
        }
        return counts
    }

    static func syncCount(_ target: SyncTarget, state: SyncOutcome.State, _ db: Database) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM sync_state WHERE target = ? AND state = ?",
            arguments: [target.rawValue, state.rawValue]) ?? 0
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
        try Int64.fetchAll(
            db, sql: "SELECT id FROM sessions WHERE sync_excluded != 0" + (scope.includeSimulated ? "" : " OR simulated IS NOT NULL"))
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
    fileprivate static func notSynced(includingHeld: Bool) -> String {
        """
        NOT EXISTS (
            SELECT 1 FROM sync_state
            WHERE sync_state.target = ? AND sync_state.kind = ? AND sync_state.record_id = candidate.id
            \(includingHeld ? "AND sync_state.state != 'held'" : ""))
        """
    }
}

extension StoreSyncQueue {
    /// The targets this database has sent to, however they were named (a `--url` without a
    /// configuration section too), in the registry's order.
    public func targetsUsed() throws -> [SyncTarget] {
        let names = try read { db in Set(try String.fetchAll(db, sql: "SELECT DISTINCT target FROM sync_state")) }
        return SyncTarget.registered.filter { names.contains($0.rawValue) }
    }

    /// The targets a status shows: those a sync sends to by default, and every one used before.
    public func targetsShown(in settings: Config?) throws -> [SyncTarget] {
        let shown = Set(SyncTarget.defaultRun(in: settings) + (try targetsUsed()))
        return SyncTarget.registered.filter(shown.contains)
    }

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
                    WHERE candidate.id > ? AND \(Store.notSynced(includingHeld: includingHeld))\(try Store.inScope(scope, kind, db))
                    ORDER BY candidate.id LIMIT ?
                    """,
                arguments: [after, target.rawValue, kind.rawValue, limit])
        }
    }

    /// How many records a target still waits for (of the kinds not `skipping`).
    public func syncQueueCount(
        _ target: SyncTarget, includingHeld: Bool = false, scope: SyncScope = .plain, skipping: Set<SyncRecordKind> = []
    ) throws -> Int {
        try read { db in try Store.syncQueueCount(target, includingHeld: includingHeld, scope: scope, skipping: skipping, db) }
    }

    /// A target's records not synced yet, split by what a sync with `scope` does with them: one
    /// pass over each queue, whatever the split.
    public func syncQueueCounts(_ target: SyncTarget, scope: SyncScope) throws -> SyncQueueCounts {
        try read { db in try Store.syncQueueCounts(target, scope: scope, db) }
    }

    /// Records of a target in one sync state.
    public func syncCount(_ target: SyncTarget, state: SyncOutcome.State) throws -> Int {
        try read { db in try Store.syncCount(target, state: state, db) }
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
                guard let kind = SyncRecordKind(rawValue: row[SyncStateColumns.kind]) else { return nil }
                return SyncMessage(target: target, state: state, kind: kind, recordID: row[SyncStateColumns.recordID], message: row[SyncStateColumns.message] ?? "")
            }
        }
    }
}
