import CLibPQ
import Glibc
import MTTCore

/// A community's coverage database on PostgreSQL/PostGIS, as its administrator sees it:
/// `mtt community init` (create and migrate the schema), `add-mapper`, `grant-map`.
public struct CommunityDatabase: Sendable {
    /// A login role made for a mapper or a map: its password is shown once, to be handed over.
    public struct Account: Sendable {
        public var name: String
        public var password: String
        /// Where the database is, as the account would write it in `~/.pgpass` and a URL.
        public var host: String
        public var port: String
        public var database: String

        /// `postgresql://NAME@HOST:PORT/DATABASE`: no password in it.
        public var url: String { "postgresql://\(name)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)" }
        /// The account's line for `~/.pgpass` (mode 600).
        public var pgpassLine: String { [host, port, database, name, password].map(Self.pgpassEscaped).joined(separator: ":") }

        private static func pgpassEscaped(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
        }
    }

    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// The schema version `migrate` brings a database to.
    public static var latestSchemaVersion: Int { CommunitySchema.latest }

    /// The schema version this database has (0: none yet).
    public func schemaVersion() throws(PostgresError) -> Int {
        let exists = try connection.execute("SELECT to_regclass('mtt.schema_version') IS NOT NULL").value == "t"
        guard exists else { return 0 }
        return Int(try connection.execute("SELECT COALESCE(max(version), 0) FROM mtt.schema_version").value ?? "0") ?? 0
    }

    /// Creates schema `mtt` or brings it up to date, one migration per transaction; returns the
    /// versions before and after. Refuses a schema newer than this mtt knows, and a server
    /// without PostGIS, each in one line.
    @discardableResult
    public func migrate() throws(PostgresError) -> (from: Int, to: Int) {
        try migrate(through: CommunitySchema.latest)
    }

    /// Migrates up to version `last`, not beyond: how an older mtt's database is made (in tests
    /// of the migrations after it).
    @discardableResult
    func migrate(through last: Int) throws(PostgresError) -> (from: Int, to: Int) {
        if try connection.execute("SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'").value == "0" {
            let major = (try connection.execute("SHOW server_version_num").value).flatMap { Int($0) }.map { String($0 / 10000) } ?? "NN"
            throw PostgresError("this PostgreSQL server has no PostGIS, which the community database needs: install it on the server (Debian: apt-get install postgresql-\(major)-postgis-3)")
        }
        let roles = try self.roles()
        let migrations = CommunitySchema.migrations(roles)
        try connection.execute("CREATE SCHEMA IF NOT EXISTS mtt; CREATE TABLE IF NOT EXISTS mtt.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        var from: Int?
        while true {
            try connection.execute("BEGIN")
            do throws(PostgresError) {
                // Two administrators migrating at once: one waits, then finds the work done.
                try connection.execute("SELECT pg_advisory_xact_lock(hashtext('mtt community schema'))")
                let current = try schemaVersion()
                if from == nil { from = current }
                guard current <= migrations.count else {
                    throw PostgresError(CommunitySchema.newer(current))
                }
                guard current < min(last, migrations.count) else {
                    try connection.execute("COMMIT")
                    return (from ?? current, current)
                }
                try connection.execute(migrations[current])
                try connection.execute("INSERT INTO mtt.schema_version (version) VALUES ($1)", [String(current + 1)])
                try connection.execute("COMMIT")
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Makes the map without the silent gateways again from everything uploaded (`mtt community
    /// refresh`; each mapper's sync does it as it ends): after a restore, or where a sync's own
    /// refresh failed. Waits for one running; returns how old the result is and what it took.
    public func refreshWithoutSilent() throws(PostgresError) -> (asOf: String, seconds: Double) {
        guard try schemaVersion() >= 8 else {
            throw PostgresError("this database keeps no map without the silent gateways (schema version 8): bring it up to date with mtt community init")
        }
        try connection.execute("SELECT mtt.refresh_lately()")
        let row = try connection.execute("SELECT to_char(as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), seconds FROM mtt.lately_refreshed").rows.first
        return (row?[0] ?? "", row?[1].flatMap(Double.init) ?? 0)
    }

    /// The rows the checks moved aside (`mtt.refused_rows`), counted per table and check.
    public func refusedRows() throws(PostgresError) -> [(reason: String, rows: Int)] {
        guard try connection.execute("SELECT to_regclass('mtt.refused_rows') IS NOT NULL").value == "t" else { return [] }
        return try connection.execute("SELECT table_name || ': ' || reason, count(*) FROM mtt.refused_rows GROUP BY 1 ORDER BY 1").rows
            .map { ($0[0] ?? "", Int($0[1] ?? "") ?? 0) }
    }

    /// A mapper: a login role in this database's mapper group, which can insert its own rows and
    /// read its own raw rows and everybody's coverage.
    public func addMapper(_ name: String) throws(PostgresError) -> Account {
        // The role and its row in mtt.mapper_accounts together, or neither.
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            let account = try addLogin(name, group: try roles().mapperSQL)
            try connection.execute("INSERT INTO mtt.mapper_accounts (name) VALUES ($1)", [name])
            try connection.execute("COMMIT")
            return account
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// A read-only role for the community map (`mtt serve --db postgresql://…`): the views only.
    public func grantMap(_ name: String) throws(PostgresError) -> Account {
        try addLogin(name, group: try roles().mapSQL)
    }

    private func addLogin(_ name: String, group: String) throws(PostgresError) -> Account {
        guard try schemaVersion() > 0 else { throw PostgresError("this database has no community schema (schema mtt) yet") }
        guard (1...63).contains(name.utf8.count), name.first.map({ $0.isASCII && $0.isLetter }) == true,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }) else {
            throw PostgresError("\(name) cannot be a role's name here: 1 to 63 letters, digits, _, - or ., starting with a letter")
        }
        // Names PostgreSQL gives a meaning of its own: a role called current_user is not the one
        // a policy's `mapper = current_user` means, and pg_ names are the server's.
        guard !Self.reservedRoleNames.contains(name.lowercased()), !name.lowercased().hasPrefix("pg_") else {
            throw PostgresError("\(name) cannot be a role's name: PostgreSQL gives it a meaning of its own")
        }
        let password = Self.newPassword()
        let verifier = try encrypted(password, for: name)
        try connection.execute("CREATE ROLE \(try connection.identifier(name)) LOGIN PASSWORD \(try connection.literal(verifier)) IN ROLE \(group)")
        let end = connection.endpoint
        // A connection through a socket names its folder as the host: others reach the server by its name.
        let host = end.host.hasPrefix("/") ? "localhost" : end.host
        return Account(name: name, password: password, host: host, port: end.port, database: end.database)
    }

    static let reservedRoleNames: Set<String> = ["current_user", "session_user", "current_role", "user", "public", "none", "all"]

    /// The password as the server stores it (SCRAM, as the server is set to): the clear text never
    /// goes to the server, nor into its log.
    private func encrypted(_ password: String, for user: String) throws(PostgresError) -> String {
        try connection.encryptedPassword(password, user: user)
    }

    private func roles() throws(PostgresError) -> CommunitySchema.Roles {
        let database = try connection.execute("SELECT current_database()").value ?? "mtt"
        let mapper = "\(database)_mapper", map = "\(database)_map"
        return .init(mapper: mapper, map: map, mapperSQL: try connection.identifier(mapper), mapSQL: try connection.identifier(map))
    }

    /// 24 characters from 62: about 143 bits.
    static func newPassword() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<24).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
