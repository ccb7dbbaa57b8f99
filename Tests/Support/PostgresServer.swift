import Foundation

/// A real PostgreSQL (with PostGIS available) on 127.0.0.1, made by initdb in a folder of the
/// test's and stopped with it. PostgreSQL refuses to run as root: when the tests run as root it
/// runs as the `postgres` user the Debian package made.
public final class PostgresServer: @unchecked Sendable {
    /// The superuser initdb makes, with a password: connections over TCP need one (SCRAM).
    public static let admin = "mtt_admin"
    public static let adminPassword = "admin-password-for-tests"

    public let port: Int
    public let folder: TemporaryDirectory
    private let binaries: String
    private var server: ChildProcess.Running?

    /// `settings`: the server's own, as `-c NAME=VALUE` (max_connections=6).
    public static func start(settings: [String] = []) async throws -> PostgresServer {
        try await offThePool { try PostgresServer(settings: settings) }
    }

    /// What this server was started with beyond the tests' own settings.
    private let settings: [String]

    private init(settings: [String]) throws {
        self.settings = settings
        guard let version = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.compactMap(Int.init).max() else {
            throw PostgresServerError.setup("PostgreSQL is not installed: run ./scripts/setup")
        }
        binaries = "/usr/lib/postgresql/\(version)/bin"
        port = LoopbackPort.free()
        folder = TemporaryDirectory("mtt-postgres")
        chmod(folder.path, 0o755)
        let passwordFile = folder.file("admin-password")
        try Self.adminPassword.write(toFile: passwordFile, atomically: true, encoding: .utf8)
        if geteuid() == 0 {
            let owned = try ChildProcess.runBlocking("/bin/chown", ["-R", "postgres:postgres", folder.path])
            guard owned.status == 0 else { throw PostgresServerError.setup("chown: \(owned.stderr)") }
        }
        try Self.run(binaries + "/initdb", [
            "-D", folder.file("data"), "-U", Self.admin, "--pwfile=\(passwordFile)", "--auth-host=scram-sha-256", "--auth-local=trust",
            "--no-sync", "-E", "UTF8", "--locale=C",
        ])
        try start()
    }

    /// A hot standby of this server on a port of its own: a base backup streamed from it
    /// (`pg_basebackup -R`, which writes the standby's connection to this server into it), started
    /// and following it. Roles and passwords are this server's.
    public func standby() async throws -> PostgresServer {
        try await offThePool { try PostgresServer(standbyOf: self) }
    }

    private init(standbyOf primary: PostgresServer) throws {
        binaries = primary.binaries
        settings = primary.settings
        port = LoopbackPort.free()
        folder = TemporaryDirectory("mtt-postgres-standby")
        chmod(folder.path, 0o755)
        if geteuid() == 0 {
            let owned = try ChildProcess.runBlocking("/bin/chown", ["-R", "postgres:postgres", folder.path])
            guard owned.status == 0 else { throw PostgresServerError.setup("chown: \(owned.stderr)") }
        }
        try Self.run("/usr/bin/env", [
            "PGPASSWORD=\(Self.adminPassword)", binaries + "/pg_basebackup", "-h", "127.0.0.1", "-p", String(primary.port), "-U", Self.admin,
            // A fast checkpoint: the default spreads it over most of checkpoint_timeout (4.5 min).
            "-D", folder.file("data"), "-R", "-X", "stream", "--checkpoint=fast", "--no-sync",
        ])
        try start()
    }

    /// Starts the server (again, after `stop()`), on the same port and data: the postmaster itself
    /// is the child (pg_ctl's daemon would outlive the test), and it is up once it listens.
    public func start() throws {
        let (tool, arguments) = Self.asServerUser(binaries + "/postgres", [
            "-D", folder.file("data"), "-p", String(port), "-k", folder.path, "-c", "listen_addresses=127.0.0.1",
            // No fsync (a test's server need not survive the machine's crash), but every commit is in
            // the WAL before it is acknowledged: a server that goes away keeps what it said it stored.
            "-c", "fsync=off", "-c", "full_page_writes=off",
        ] + settings.flatMap { ["-c", $0] })
        let started = try ChildProcess.Running(tool, arguments, environment: [:])
        server = started
        // Listening is not yet accepting ("the database system is starting up"): pg_isready says when.
        guard LoopbackPort.waitUntilListening(port), isReady(within: 30) else {
            let log = started.stderr.split(whereSeparator: \.isNewline).suffix(5).joined(separator: " | ")
            stop()
            throw PostgresServerError.setup("postgres did not listen on 127.0.0.1:\(port): \(log)")
        }
    }

    private func isReady(within seconds: Double) -> Bool {
        // pg_isready is a process a look: every 50 ms, not every tick.
        eventuallyBlocking(timeout: seconds, every: .milliseconds(50)) {
            (try? ChildProcess.runBlocking(binaries + "/pg_isready", ["-q", "-h", "127.0.0.1", "-p", String(port)]))?.status == 0
        }
    }

    /// Stops it at once (an immediate shutdown, SIGQUIT), as a server that goes away does.
    public func stop() {
        guard let server else { return }
        self.server = nil
        server.signal(SIGQUIT)
        if !server.waitBlocking(timeout: 20) { server.kill() }
    }

    deinit { stop() }

    /// A connection URL for `user` (no password: libpq takes it from PGPASSWORD or ~/.pgpass).
    public func url(user: String = admin, database: String = "postgres") -> String {
        "postgresql://\(user)@127.0.0.1:\(port)/\(database)"
    }

    /// A libpq connection string with the password in it, for the tests' own connections.
    public func connectionString(user: String = admin, password: String = adminPassword, database: String = "postgres") -> String {
        "host=127.0.0.1 port=\(port) dbname=\(database) user=\(user) password=\(password) connect_timeout=10"
    }

    /// Runs `sql` as the administrator through psql; returns its output (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try client("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql], database: database)
    }

    /// Runs one of PostgreSQL's client programs (psql, pg_dump, pg_restore) as the administrator
    /// on `database`; returns its output.
    @discardableResult
    public func client(_ tool: String, _ arguments: [String], database: String) throws -> String {
        let result = try ChildProcess.runBlocking("/usr/bin/env", [
            "PGPASSWORD=\(Self.adminPassword)", binaries + "/" + tool, "-h", "127.0.0.1", "-p", String(port), "-U", Self.admin, "-d", database,
        ] + arguments)
        guard result.status == 0 else { throw PostgresServerError.setup("\(tool): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new empty database.
    public func createDatabase(_ name: String) throws {
        try psql("CREATE DATABASE \(name)")
    }

    /// The command that runs `tool` as the server's user: itself, or through setpriv (which execs
    /// it, so the test's child is the tool) when the tests run as root.
    private static func asServerUser(_ tool: String, _ arguments: [String]) -> (String, [String]) {
        geteuid() == 0 ? ("/usr/bin/setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", tool] + arguments) : (tool, arguments)
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let (command, all) = asServerUser(tool, arguments)
        let result = try ChildProcess.runBlocking(command, all)
        guard result.status == 0 else {
            throw PostgresServerError.setup("\((tool as NSString).lastPathComponent): \(result.stderr.isEmpty ? result.stdout : result.stderr)")
        }
    }
}

public enum PostgresServerError: Error, CustomStringConvertible {
    case setup(String)

    public var description: String {
        switch self {
        case .setup(let message): message
        }
    }
}
