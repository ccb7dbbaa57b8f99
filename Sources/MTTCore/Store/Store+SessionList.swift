import GRDB

/// A session as `mtt sessions` lists it: what it was run with and what it holds.
public struct SessionSummary: Sendable, Hashable {
    public var session: StoredSession
    public var attempts = 0
    public var confirmed = 0
    public var failed = 0
    public var pending = 0
    /// Attempts the network was seen to receive.
    public var heard = 0
    public var uplinks = 0
    /// Samples with a position.
    public var samples = 0
    public var fixes = 0
    /// Gateways that heard any of its uplinks.
    public var gateways = 0
    /// Devices whose uplinks it stored.
    public var devices = 0
    /// Frames trackers sent that nobody heard, estimated from their frame counters.
    public var estimatedAttempts = 0
    /// Each default target's records of it, by sync state.
    public var targets: [SessionSyncState] = []

    public init(session: StoredSession) {
        self.session = session
    }

    /// Share of settled attempts the network did not hear, when it heard any check.
    public var lossPercent: Double? { StoreStatus.lossPercent(confirmed: confirmed, failed: failed, heard: heard) }
}

/// One target's records of one session.
public struct SessionSyncState: Sendable, Hashable, Encodable {
    public var target: String
    /// Candidates not sent yet; held back as a whole when the session is simulated or excluded.
    public var waiting = 0
    public var sent = 0
    public var rejected = 0
    /// Kept off TTN Mapper's main map by its quality gate.
    public var held = 0
}


extension SessionSummary: Encodable {
    // Every stored property, each under its own name but the targets' states, under "sync".
    enum CodingKeys: String, CodingKey {
        case session, attempts, confirmed, failed, pending, heard, uplinks, samples, fixes, gateways, devices
        case estimatedAttempts = "estimated_attempts"
        case targets = "sync"
    }
}

extension StoreSessions {
    /// Every session, oldest first, with its counts and its records' sync state for `targets`.
    public func sessionSummaries(targets: [SyncTarget] = SyncTarget.defaultRun(in: nil)) throws -> [SessionSummary] {
        try read { db in
            var summaries: [Int64: SessionSummary] = [:]
            let sessions = try Row.fetchAll(db, sql: "SELECT * FROM sessions ORDER BY id").map(Store.session(from:))
            for session in sessions {
                summaries[session.id] = SessionSummary(session: session)
                summaries[session.id]!.targets = targets.map { SessionSyncState(target: $0.rawValue) }
            }
            func each(_ sql: String, _ body: (inout SessionSummary, Row) -> Void) throws {
                for row in try Row.fetchAll(db, sql: sql) {
                    guard let id: Int64 = row[SessionCountColumns.session], summaries[id] != nil else { continue }
                    body(&summaries[id]!, row)
                }
            }
            try each("""
                SELECT session_id AS session, COUNT(*) AS n, SUM(state = 'confirmed') AS confirmed, SUM(state = 'failed') AS failed,
                       SUM(state = 'pending') AS pending, SUM(uplink_id IS NOT NULL) AS heard
                FROM attempts GROUP BY session_id
                """) { s, row in
                (s.attempts, s.confirmed, s.failed, s.pending, s.heard) = (row[SessionCountColumns.n], row[SessionCountColumns.confirmed], row[SessionCountColumns.failed], row[SessionCountColumns.pending], row[SessionCountColumns.heard])
            }
            try each("SELECT session_id AS session, COUNT(*) AS n, COUNT(DISTINCT device_id) AS devices FROM uplinks GROUP BY session_id") { s, row in
                (s.uplinks, s.devices) = (row[SessionCountColumns.n], row[SessionCountColumns.devices])
            }
            try each("SELECT session_id AS session, COUNT(*) AS n FROM estimated_attempts GROUP BY session_id") { s, row in
                s.estimatedAttempts = row[SessionCountColumns.n]
            }
            try each("SELECT session_id AS session, COUNT(*) AS n FROM samples WHERE lat IS NOT NULL GROUP BY session_id") { s, row in
                s.samples = row[SessionCountColumns.n]
            }
            try each("SELECT session_id AS session, COUNT(*) AS n FROM fixes GROUP BY session_id") { s, row in s.fixes = row[SessionCountColumns.n] }
            try each("""
                SELECT uplinks.session_id AS session, COUNT(DISTINCT receptions.gateway_id) AS n
                FROM receptions JOIN uplinks ON uplinks.id = receptions.uplink_id GROUP BY uplinks.session_id
                """) { s, row in s.gateways = row[SessionCountColumns.n] }
            for (index, target) in targets.enumerated() {
                for queue in target.queues {
                    let rows = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT record.session_id AS session, COUNT(*) AS n, SUM(sync_state.state = 'sent') AS sent,
                                   SUM(sync_state.state = 'rejected') AS rejected, SUM(sync_state.state = 'held') AS held
                            FROM (\(queue.candidates)) AS candidate
                            JOIN \(Store.table(of: queue.kind)) AS record ON record.id = candidate.id
                            LEFT JOIN sync_state ON sync_state.target = ? AND sync_state.kind = ? AND sync_state.record_id = candidate.id
                            GROUP BY record.session_id
                            """,
                        arguments: [target.rawValue, queue.kind.rawValue])
                    for row in rows {
                        guard let id: Int64 = row[SessionCountColumns.session], summaries[id] != nil else { continue }
                        let n: Int = row[SessionCountColumns.n], sent: Int = row[SessionCountColumns.sent] ?? 0, rejected: Int = row[SessionCountColumns.rejected] ?? 0, held: Int = row[SessionCountColumns.held] ?? 0
                        summaries[id]!.targets[index].sent += sent
                        summaries[id]!.targets[index].rejected += rejected
                        summaries[id]!.targets[index].held += held
                        summaries[id]!.targets[index].waiting += n - sent - rejected - held
                    }
                }
            }
            return sessions.compactMap { summaries[$0.id] }
        }
    }
}
