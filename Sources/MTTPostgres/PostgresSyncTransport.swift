import Dispatch
import MTTCore
import Synchronization

/// The postgis target's transport: each batch in one transaction on one connection, made when
/// first needed and made again after the server went away. libpq blocks, so the work runs on a
/// queue of its own, never on Swift's cooperative threads.
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
    private let connection = Mutex<PostgresConnection?>(nil)
    private let queue = DispatchQueue(label: "mtt.postgres.sync")

    public init(_ url: String, timeout: Double = 20) {
        self.url = url
        self.timeout = timeout
    }

    /// A stop request (the task cancelled) cancels the statement running on the server at once,
    /// and any not begun yet: one that came while the connection was made found no statement to
    /// cancel, and the batch then waited on a lock for as long as the timeout allowed.
    public func send(_ request: DatabaseBatch) async throws {
        let cancelled = Cancelled()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                queue.async {
                    done.resume(with: Result { try self.run(request, cancelled: cancelled) })
                }
            }
        } onCancel: {
            cancelled.flag.withLock { $0 = true }
            connection.withLock { $0 }?.cancelRunningStatement()
        }
    }

    /// One request's stop, seen by the queue that runs it.
    private final class Cancelled: Sendable {
        let flag = Mutex(false)
    }

    private func run(_ batch: DatabaseBatch, cancelled: Cancelled) throws {
        let c = try connected()
        do throws(PostgresError) {
            try c.execute("BEGIN")
            for statement in batch.statements {
                if cancelled.flag.withLock({ $0 }) { throw PostgresError("the upload was stopped") }
                try c.execute(statement.sql, statement.parameters)
            }
            try c.execute("COMMIT")
        } catch {
            _ = try? c.execute("ROLLBACK")
            if !c.isOpen { connection.withLock { $0 = nil } }
            throw Self.transportError(error, connected: c.isOpen)
        }
    }

    private func connected() throws -> PostgresConnection {
        if let open = connection.withLock({ $0 }), open.isOpen { return open }
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
        connection.withLock { $0 = fresh }
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
            throw SyncTransportError.untrusted("the community database's schema is version \(version), newer than this mtt knows (\(latest)): update mtt")
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
