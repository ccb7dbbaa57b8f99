import CSQLite
import Foundation
import GRDB

/// mtt's one SQLite database (WAL). Every write is durable when the call returns:
/// a crash or `kill -9` afterwards loses nothing that was reported stored.
public final class Store: Sendable {
    public let path: String
    let pool: DatabasePool

    /// Opens the database at `path`, creating it (mode 0600, its folder 0700) when missing.
    /// An existing file that is not an mtt database is refused and left untouched.
    public init(path: String) throws {
        _ = Self.libraryConfigured
        self.path = path
        try Self.prepareFile(at: path)
        try DatabaseFileCheck.verifyExisting(path: path)

        var config = Configuration()
        config.busyMode = .timeout(10)
        // SQLite's default. mtt only appends, each record referring to rows the same code wrote in
        // the same transaction; checking those references on every insert took about a tenth of
        // a listener burst's store time. `integrityCheck()` checks them all on demand instead.
        config.foreignKeysEnabled = false
        config.prepareDatabase { db in
            // In WAL mode NORMAL may lose the last commits on power loss; FULL syncs every commit.
            // A 512 KiB page cache (SQLite's default is 2 MB) per connection: mtt mostly appends,
            // and a listener burst stored as fast with it in about 1.5 MB less memory (scripts/load).
            try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA cache_size = -512")
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            let migrator = StoreSchema.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
                throw StoreError.newerSchema(path: path)
            }
            try migrator.migrate(pool)
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error)
        }
    }

    /// SQLite's settings for the whole process, made before the first database opens (later they
    /// would be refused, and SQLite would run as it does by default: slower, as safely).
    /// GRDB only ever uses a connection from one thread at a time, so the connections need no
    /// mutex of their own; and nothing in mtt reads SQLite's memory counters. Each of the 50-odd
    /// calls that store an uplink took and released those two mutexes, about 7 % of a listener
    /// burst's CPU.
    private static let libraryConfigured: Void = {
        _ = mtt_sqlite3_config_multithread()
        _ = mtt_sqlite3_config_memstatus(0)
    }()

    /// Opens the database that `--db`, `MTT_DB` or the XDG default names.
    public convenience init(explicitPath: String?) throws {
        try self.init(path: StoreLocation.resolve(explicit: explicitPath))
    }

    private static func prepareFile(at path: String) throws {
        let fm = FileManager.default
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !fm.fileExists(atPath: folder) {
            do {
                try fm.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError.cannotCreate(path: path, reason: "cannot create folder \(folder)")
            }
        }
        if !fm.fileExists(atPath: path) {
            // Created here rather than by SQLite so the mode is 0600 whatever the umask;
            // SQLite gives the -wal and -shm files the same mode.
            let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if fd < 0 && errno != EEXIST {
                throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            if fd >= 0 { close(fd) }
        }
    }

    /// Runs a write transaction and turns SQLite's errors into one-line `StoreError`s.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.write(body)
        } catch {
            throw StoreError.wrapping(error)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch {
            throw StoreError.wrapping(error)
        }
    }

    /// SQLite's own full consistency check, then every reference between records: "ok" for a
    /// sound file.
    public func integrityCheck() throws -> String {
        try read { db in
            let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            guard problems == ["ok"] else { return problems.joined(separator: "; ") }
            let dangling = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            guard let first = dangling.first else { return "ok" }
            let table: String = first["table"], row: Int64 = first["rowid"], parent: String = first["parent"]
            return "\(dangling.count) record(s) refer to a missing one (the first: \(table) \(row), in \(parent))"
        }
    }

    /// A value kept in the database across runs (the TTN Mapper user id, for one).
    public func metaValue(_ key: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }
    }

    /// Returns the stored value for `key`, storing `make()` first when there is none.
    public func metaValue(_ key: String, orInsert make: () -> String) throws -> String {
        try write { db in
            if let existing = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) {
                return existing
            }
            let value = make()
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
            return value
        }
    }
}

extension Store {
    /// A random id made when first asked for and kept: it names this database's uploads
    /// (track ids, idempotency keys) so two databases never collide.
    public func databaseID() throws -> String {
        try metaValue("database.id") { UUID().uuidString.lowercased() }
    }
}
