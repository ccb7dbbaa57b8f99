import FoundationEssentials
import Glibc
import GRDB

extension Store {

    static func insert(_ attempt: Attempt, _ db: Database) throws -> Int64 {
        let fixID = try attempt.fix.map { try Self.insert($0, session: attempt.sessionID, db) }
        try db.executeCached(
            sql: """
                INSERT INTO attempts (session_id, node, sequence, payload, fix_id, sent_at, state, f_cnt, dev_eui,
                                      resolved_at, failure_reason, spreading_factor)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                attempt.sessionID, attempt.node, attempt.sequence, Data(attempt.payload), fixID,
                attempt.sentAt.nanosecondsSinceEpoch, attempt.state.rawValue, attempt.frameCounter.map { Int64($0) },
                attempt.devEUI, attempt.resolvedAt?.nanosecondsSinceEpoch, attempt.failureReason, attempt.spreadingFactor,
            ])
        return db.lastInsertedRowID
    }

}

extension StoreRecords {
    /// Stores an attempt (normally `pending`, before the send) with the fix it was built from.
    @discardableResult
    public func record(_ attempt: Attempt) throws -> Int64 {
        try write { db in try Store.insert(attempt, db) }
    }

    /// The node reported the transmission with its LoRaWAN frame counter; `linkCheck` is what the
    /// link check sent with it said, when one was asked for (its gateway count is 0 when no answer
    /// came). One statement, so that the cell counts (the attempts' triggers) see the outcome and
    /// the link check together.
    public func confirmAttempt(_ id: Int64, frameCounter: UInt32?, sequence: Int? = nil, linkCheck: LinkCheck? = nil, at time: Timestamp = .now()) throws {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE attempts SET state = 'confirmed', f_cnt = ?, sequence = COALESCE(?, sequence), resolved_at = ?,
                                        linkcheck_gateways = ?, linkcheck_margin = ?
                    WHERE id = ?
                    """,
                arguments: [frameCounter.map { Int64($0) }, sequence, time.nanosecondsSinceEpoch, linkCheck.map { $0.gateways ?? 0 }, linkCheck?.margin, id])
        }
    }

    public func failAttempt(_ id: Int64, reason: String, sequence: Int? = nil, at time: Timestamp = .now()) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE attempts SET state = 'failed', failure_reason = ?, sequence = COALESCE(?, sequence), resolved_at = ? WHERE id = ?",
                arguments: [reason, sequence, time.nanosecondsSinceEpoch, id])
        }
    }

    /// Every attempt of a session, in order, with the uplink each was heard as (if any).
    public func attempts(session: Int64) throws -> [(attempt: Attempt, uplinkID: Int64?)] {
        let rows = try read { db in
            try Row.fetchAll(db, sql: "SELECT id, uplink_id FROM attempts WHERE session_id = ? ORDER BY id", arguments: [session])
                .map { ($0[AttemptColumns.id] as Int64, $0[AttemptColumns.uplinkID] as Int64?) }
        }
        return try rows.compactMap { id, uplinkID in try attempt(id).map { ($0, uplinkID) } }
    }

    /// Attempts left pending by a run that was stopped or killed mid-send never got their result:
    /// they are failed. Returns how many were resolved.
    @discardableResult
    public func failPendingAttempts(reason: String, at time: Timestamp = .now()) throws -> Int {
        try write { db in
            try db.execute(
                sql: "UPDATE attempts SET state = 'failed', failure_reason = ?, resolved_at = ? WHERE state = 'pending'",
                arguments: [reason, time.nanosecondsSinceEpoch])
            return db.changesCount
        }
    }

    /// Records that the network heard this attempt as the given uplink.
    public func link(attempt id: Int64, toUplink uplinkID: Int64) throws {
        try write { db in
            try db.execute(sql: "UPDATE attempts SET uplink_id = ? WHERE id = ?", arguments: [uplinkID, id])
        }
    }

    public func attempt(_ id: Int64) throws -> Attempt? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM attempts WHERE id = ?", arguments: [id]) else {
                return nil
            }
            let fix = try (row[AttemptColumns.fixID] as Int64?).flatMap {
                try Row.fetchOne(db, sql: "SELECT * FROM fixes WHERE id = ?", arguments: [$0]).map(Store.fix(from:))
            }
            let payload: Data = row[AttemptColumns.payload]
            return Attempt(
                id: row[AttemptColumns.id], sessionID: row[AttemptColumns.sessionID], node: row[AttemptColumns.node], sequence: row[AttemptColumns.sequence],
                payload: [UInt8](payload), fix: fix, sentAt: Timestamp(nanosecondsSinceEpoch: row[AttemptColumns.sentAt]),
                state: Attempt.State(rawValue: row[AttemptColumns.state]) ?? .pending,
                frameCounter: (row[AttemptColumns.fCnt] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
                devEUI: row[AttemptColumns.devEUI],
                resolvedAt: (row[AttemptColumns.resolvedAt] as Int64?).map(Timestamp.init(nanosecondsSinceEpoch:)),
                failureReason: row[AttemptColumns.failureReason], spreadingFactor: row[AttemptColumns.spreadingFactor])
        }
    }
}
