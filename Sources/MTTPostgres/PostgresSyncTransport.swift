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

    /// A stop request (the task cancelled) cancels the statement running on the server at once.
    public func send(_ request: DatabaseBatch) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                queue.async {
                    done.resume(with: Result { try self.run(request) })
                }
            }
        } onCancel: {
            connection.withLock { $0 }?.cancelRunningStatement()
        }
    }

    private func run(_ batch: DatabaseBatch) throws {
        let c = try connected()
        do throws(PostgresError) {
            try c.execute("BEGIN")
            for statement in batch.statements {
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
        do {
            let fresh = try PostgresConnection(url)
            try fresh.limitStatements(to: timeout)
            connection.withLock { $0 = fresh }
            return fresh
        } catch {
            // Credentials and names a retry would only repeat stop the run; a server that is not
            // there (yet) is tried again later.
            let lasting = ["password authentication failed", "no password supplied", "no pg_hba.conf entry", "does not exist", "certificate"]
            if lasting.contains(where: error.message.contains) { throw SyncTransportError.untrusted(error.message) }
            throw SyncTransportError.connectionFailed(error.message)
        }
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
