import Dispatch
import MTTCore
import Synchronization

/// The postgis target's transport: each batch in one transaction on one of a few connections
/// (lanes), each made when first needed and made again after the server went away. libpq blocks,
/// so each lane's work runs on a queue of its own, never on Swift's cooperative threads.
///
/// Two lanes by default: with one, the server waited on mtt between batches (reading the queue,
/// the round trips) and one mapper's upload stayed under 20,000 records/s; two keep it busy while
/// each of fifty mappers at once still takes two of the server's 100 connections at most. A lane
/// the server has no room for (too many clients) while another lane is connected closes, and hands
/// its work to that one.
///
/// What the database says decides what the upload does: a connection that fails or drops, a
/// server shutting down, a deadlock are worth retrying (`connectionFailed`); a refusal that a
/// retry would meet again — a wrong password, no such role or database, no community schema,
/// a permission or a row-level-security refusal — stops the run with the database's own words
/// (`untrusted`). Either way the batch's transaction is rolled back: nothing half-stored.
public final class PostgresSyncTransport: SyncTransport, Sendable {
    public typealias Request = DatabaseBatch
    public typealias Response = Void

    private let url: String
    /// Seconds a statement may run, and wait for a lock, before the server cancels it (the sync's
    /// request timeout): a mapper holding a transaction open held every other upload with no end.
    private let timeout: Double
    private let lanes: [Lane]
    private let turn = Mutex(0)
    /// Held while a lane connects: one at a time, so a lane the server refuses knows whether
    /// another one got in.
    private let connecting = Mutex(())

    /// One connection and the queue its batches run on, one after the other.
    private final class Lane: Sendable {
        let queue: DispatchQueue
        let connection = Mutex<PostgresConnection?>(nil)
        /// A lane that could not connect while another was: its batches go to the others.
        let closed = Mutex(false)
        var isConnected: Bool { connection.withLock { $0?.isOpen ?? false } }

        init(_ index: Int) {
            queue = DispatchQueue(label: "mtt.postgres.sync.\(index)")
        }
    }

    /// One request's stop, seen by the lane that runs it.
    private final class Cancelled: Sendable {
        let flag = Mutex(false)
        let lane = Mutex<Lane?>(nil)
    }

    public init(_ url: String, timeout: Double = 20, connections: Int = 2) {
        self.url = url
        self.timeout = timeout
        lanes = (0..<max(1, connections)).map(Lane.init)
    }

    /// A stop request (the task cancelled) cancels the statement running on the server at once,
    /// and any not begun yet: one that came while the connection was made found no statement to
    /// cancel, and the batch then waited on a lock for as long as the timeout allowed.
    public func send(_ request: DatabaseBatch) async throws {
        let cancelled = Cancelled()
        let lane = turn.withLock { turn in
            defer { turn += 1 }
            let open = lanes.filter { !$0.closed.withLock { $0 } }
            return open.isEmpty ? lanes[0] : open[turn % open.count]
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                lane.queue.async {
                    do {
                        done.resume(with: .success(try self.run(request, on: lane, cancelled: cancelled)))
                    } catch let refused as LaneRefused {
                        refused.other.queue.async {
                            done.resume(with: Result { try self.run(request, on: refused.other, cancelled: cancelled) })
                        }
                    } catch {
                        done.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            cancelled.flag.withLock { $0 = true }
            cancelled.lane.withLock { $0 }?.connection.withLock { $0 }?.cancelRunningStatement()
        }
    }

    /// A lane could not connect; `other` is.
    private struct LaneRefused: Error {
        let other: Lane
    }

    private func run(_ batch: DatabaseBatch, on lane: Lane, cancelled: Cancelled) throws {
        cancelled.lane.withLock { $0 = lane }
        let c: PostgresConnection
        do {
            c = try connected(lane)
        } catch let error as SyncTransportError {
            guard case .connectionFailed = error, let other = lanes.first(where: { $0 !== lane && $0.isConnected }) else { throw error }
            lane.closed.withLock { $0 = true }
            throw LaneRefused(other: other)
        }
        do throws(PostgresError) {
            try c.execute("BEGIN")
            for statement in batch.statements {
                if cancelled.flag.withLock({ $0 }) { throw PostgresError("the upload was stopped") }
                try c.execute(statement.sql, statement.parameters)
            }
            try c.execute("COMMIT")
        } catch {
            _ = try? c.execute("ROLLBACK")
            if !c.isOpen { lane.connection.withLock { $0 = nil } }
            throw Self.transportError(error, connected: c.isOpen)
        }
    }

    private func connected(_ lane: Lane) throws -> PostgresConnection {
        if let open = lane.connection.withLock({ $0 }), open.isOpen { return open }
        return try connecting.withLock { _ in try connect(lane) }
    }

    private func connect(_ lane: Lane) throws -> PostgresConnection {
        let fresh: PostgresConnection
        do {
            fresh = try PostgresConnection(url)
            try fresh.limitStatements(to: timeout)
        } catch {
            // Credentials and names a retry would only repeat stop the run; a server that is not
            // there (yet) is tried again later.
            let lasting = ["password authentication failed", "no password supplied", "no pg_hba.conf entry", "does not exist", "certificate"]
            if lasting.contains(where: error.message.contains) { throw SyncTransportError.untrusted(error.message) }
            throw SyncTransportError.connectionFailed(error.message)
        }
        try Self.checkSchema(fresh)
        lane.connection.withLock { $0 = fresh }
        return fresh
    }

    /// The schema this mtt uploads into, or a line that says why not: a database older or newer
    /// than this mtt would otherwise refuse the upload as a missing column or function.
    private static func checkSchema(_ c: PostgresConnection) throws {
        let latest = CommunitySchema.latest
        let older = "the community database's schema is older than this mtt uploads into (version \(latest)): its administrator brings it up to date with mtt community init"
        let version: Int
        do {
            version = Int(try c.execute("SELECT COALESCE(max(version), 0) FROM mtt.schema_version").value ?? "") ?? 0
        } catch {
            guard c.isOpen else { throw SyncTransportError.connectionFailed(error.message) }
            // Before version 4 a mapper could not read the version.
            if error.message.contains("permission denied") { throw SyncTransportError.untrusted(older) }
            throw SyncTransportError.untrusted("this database has no community schema (its administrator makes it with mtt community init): \(error.message)")
        }
        if version > latest {
            throw SyncTransportError.untrusted(CommunitySchema.newer(version))
        }
        if version < latest { throw SyncTransportError.untrusted(older) }
    }

    /// SQLSTATE classes: 08 connection, 40 rollback (deadlock, serialization), 53 resources,
    /// 57 operator intervention (shutdown), 58 system: worth a retry; everything else is an answer.
    static func transportError(_ error: PostgresError, connected: Bool) -> SyncTransportError {
        let retried: Set<String> = ["08", "40", "53", "57", "58"]
        if !connected || error.state.map({ retried.contains(String($0.prefix(2))) }) ?? true {
            return .connectionFailed(error.message)
        }
        return .untrusted(error.message)
    }
}
