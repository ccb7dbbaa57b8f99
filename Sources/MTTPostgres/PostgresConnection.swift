import CLibPQ
import Glibc
import Synchronization

/// One connection to PostgreSQL through libpq, which brings what its users expect for free:
/// `postgresql://` URIs and `key=value` strings, the `PG*` environment, `~/.pgpass`, service files,
/// TLS with `sslmode=verify-full`. The only file of the adapter that calls libpq (`LibPQ`, opened
/// on first use). Calls block; one at a time (a lock), as libpq wants.
public final class PostgresConnection: Sendable {
    /// The connection, and the statements prepared on it by their text.
    private struct State: ~Copyable {
        let c: OpaquePointer
        var prepared: [String: String] = [:]
    }

    /// A statement with parameters is prepared the first time (parsed and planned once, then run
    /// by name), up to this many: an upload's few statements, not whatever a caller makes up.
    static let preparedLimit = 32

    private let pq: LibPQ
    private let connection: Mutex<State>
    /// libpq's handle for cancelling what the connection runs, usable from any thread while a
    /// call holds the connection (PQcancel is made for that).
    private let canceller: Canceller

    private final class Canceller: @unchecked Sendable {
        let handle: OpaquePointer?
        let free: @convention(c) (OpaquePointer?) -> Void
        init(_ handle: OpaquePointer?, free: @escaping @convention(c) (OpaquePointer?) -> Void) {
            self.handle = handle
            self.free = free
        }
        deinit { if let handle { free(handle) } }
    }

    /// Connects; a refusal (no server, a wrong password, no such database) is one line from libpq.
    public init(_ url: String) throws(PostgresError) {
        let pq = try LibPQ.load()
        self.pq = pq
        guard let c = pq.connectdb(url) else { throw PostgresError("libpq could not allocate a connection") }
        guard pq.status(c) == CONNECTION_OK else {
            let reason = PostgresError.oneLine(LibPQ.text(pq.errorMessage(c)))
            pq.finish(c)
            throw PostgresError(reason)
        }
        // Notices ("extension postgis already exists, skipping") are for people at psql.
        _ = pq.setNoticeProcessor(c, { _, _ in }, nil)
        canceller = Canceller(pq.getCancel(c), free: pq.freeCancel)
        connection = Mutex(State(c: c))
    }

    /// Has the server cancel any statement of this session that runs, or waits for a lock, longer
    /// than `seconds`: another session's open transaction then holds it that long and no longer.
    public func limitStatements(to seconds: Double) throws(PostgresError) {
        let milliseconds = max(1, Int(seconds * 1000))
        try execute("SET statement_timeout = \(milliseconds); SET lock_timeout = \(milliseconds)")
    }

    /// Asks the server to cancel the statement this connection runs now, from another thread: a
    /// stop request does not wait for a statement blocked behind another session's lock.
    public func cancelRunningStatement() {
        guard let handle = canceller.handle else { return }
        var reason = [CChar](repeating: 0, count: 256)
        _ = pq.cancel(handle, &reason, Int32(reason.count))
    }

    deinit {
        connection.withLock { pq.finish($0.c) }
    }

    /// Whether a URL or connection string carries a password: one on a command line can be read by
    /// every user of the machine (`ps`), so mtt refuses it and says where the password goes.
    public static func hasPassword(_ url: String) -> Bool {
        // Without libpq there is no connecting either, which says so.
        guard let pq = try? LibPQ.load() else { return false }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = pq.conninfoParse(url, &error) else {
            pq.freemem(error)
            return false
        }
        defer { pq.conninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val, value.pointee != 0 { return true }
            option += 1
        }
        return false
    }

    /// Runs `sql` (several statements when there are no parameters); parameters are text, `$1`…,
    /// never spliced into the SQL. A statement the server refuses throws its own error, one line.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
        let outcome: Result<PostgresRows, PostgresError> = connection.withLock { state in
            let c = state.c
            var result: OpaquePointer?
            if parameters.isEmpty {
                result = pq.exec(c, sql)
            } else {
                var name = state.prepared[sql]
                if name == nil, state.prepared.count < Self.preparedLimit {
                    let next = "mtt_\(state.prepared.count + 1)"
                    let prepared = pq.prepare(c, next, sql, Int32(parameters.count), nil)
                    defer { pq.clear(prepared) }
                    guard pq.resultStatus(prepared) == PGRES_COMMAND_OK else { return .failure(Self.error(of: prepared, c, pq)) }
                    state.prepared[sql] = next
                    name = next
                }
                let values = parameters.map { $0.flatMap { strdup($0) } }
                defer { values.forEach { free($0) } }
                result = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
                    if let name { pq.execPrepared(c, name, Int32(buffer.count), buffer.baseAddress, nil, nil, 0) }
                    else { pq.execParams(c, sql, Int32(buffer.count), nil, buffer.baseAddress, nil, nil, 0) }
                }
            }
            defer { pq.clear(result) }
            switch pq.resultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                return .success(Self.rows(of: result, pq))
            default:
                return .failure(Self.error(of: result, c, pq))
            }
        }
        return try outcome.get()
    }

    /// `text` quoted as an SQL identifier (a role's or database's name).
    public func identifier(_ text: String) throws(PostgresError) -> String {
        try connection.withLock { state throws(PostgresError) in
            let c = state.c
            guard let quoted = pq.escapeIdentifier(c, text, text.utf8.count) else { throw PostgresError(Self.lastError(c, pq)) }
            defer { pq.freemem(quoted) }
            return String(cString: quoted)
        }
    }

    /// `text` quoted as an SQL string literal.
    public func literal(_ text: String) throws(PostgresError) -> String {
        try connection.withLock { state throws(PostgresError) in
            let c = state.c
            guard let quoted = pq.escapeLiteral(c, text, text.utf8.count) else { throw PostgresError(Self.lastError(c, pq)) }
            defer { pq.freemem(quoted) }
            return String(cString: quoted)
        }
    }

    /// A password encrypted for `user` as the server stores passwords (`password_encryption`).
    public func encryptedPassword(_ password: String, user: String) throws(PostgresError) -> String {
        try connection.withLock { state throws(PostgresError) in
            let c = state.c
            guard let encrypted = pq.encryptPasswordConn(c, password, user, nil) else { throw PostgresError(Self.lastError(c, pq)) }
            defer { pq.freemem(encrypted) }
            return String(cString: encrypted)
        }
    }

    /// Whether the connection still works: false once the server went away or closed it.
    public var isOpen: Bool {
        connection.withLock { pq.status($0.c) == CONNECTION_OK }
    }

    /// Where the connection went: host (or socket folder), port, database, user.
    public var endpoint: (host: String, port: String, database: String, user: String) {
        connection.withLock { state in
            let c = state.c, pq = self.pq
            return (LibPQ.text(pq.host(c)), LibPQ.text(pq.port(c)), LibPQ.text(pq.db(c)), LibPQ.text(pq.user(c)))
        }
    }

    private static func rows(of result: OpaquePointer?, _ pq: LibPQ) -> PostgresRows {
        let columns = (0..<pq.nfields(result)).map { LibPQ.text(pq.fname(result, $0)) }
        let rows = (0..<pq.ntuples(result)).map { row in
            (0..<Int32(columns.count)).map { column -> String? in
                pq.getisnull(result, row, column) == 1 ? nil : LibPQ.text(pq.getvalue(result, row, column))
            }
        }
        return PostgresRows(columns: columns, rows: rows)
    }

    private static func error(of result: OpaquePointer?, _ c: OpaquePointer, _ pq: LibPQ) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let result, let value = pq.resultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        guard let primary = field("M") else { return PostgresError(lastError(c, pq)) }
        return PostgresError(PostgresError.oneLine(primary + (field("D").map { " (\($0))" } ?? "")), state: field("C"))
    }

    private static func lastError(_ c: OpaquePointer, _ pq: LibPQ) -> String {
        PostgresError.oneLine(LibPQ.text(pq.errorMessage(c)))
    }
}
