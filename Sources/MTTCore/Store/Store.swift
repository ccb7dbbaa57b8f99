import FoundationEssentials
import Glibc
import GRDB
import GRDBSQLite

/// mtt's one SQLite database (WAL). Every write is durable when the call returns:
/// a crash or `kill -9` afterwards loses nothing that was reported stored.
public final class Store: Sendable {
    /// What a command needs of the database, which decides what happens when it is missing.
    public enum Access: Sendable {
        /// Collecting or importing: a missing database is created (mode 0600, its folder 0700),
        /// and an existing one is checked (SQLite's quick_check) before anything is recorded.
        case create
        /// Writing to records that must already be there (sync): a missing database is an error,
        /// not a new empty one.
        case existing
        /// Reading only (status, export): also works on a file or folder mtt may not write.
        case readOnly
    }

    public let path: String
    let pool: DatabasePool
    /// Seconds a write waits for another program's write lock before it fails with `StoreError.busy`.
    public static let busyTimeout = 10.0

    /// Opens the database at `path`. An existing file that is not an mtt database, or not a
    /// regular file at all (a FIFO, /dev/null), is refused and left untouched.
    public init(path: String, access: Access = .create) throws {
        _ = Self.libraryConfigured
        self.path = path
        // Two processes creating the same new database would race each other's migration (seen:
        // "database is locked", a UNIQUE constraint on the migrations table, and a half-made file
        // taken for another program's). Opening is serialised by a lock on the folder.
        let existed = try DatabaseFileCheck.verifyKind(path: path)
        if !existed {
            guard access == .create else { throw StoreError.missing(path: path) }
            try Self.prepareFolder(for: path)
        }
        let folderLock = access == .readOnly ? nil : FileLock.waiting(onFolder: PathText.folder(of: path))
        defer { folderLock?.release() }
        if !existed { try Self.prepareFile(at: path) }
        try DatabaseFileCheck.verifyExisting(path: path)

        var config = Configuration()
        config.readonly = access == .readOnly
        config.busyMode = .timeout(Self.busyTimeout)
        // SQLite's default. mtt only appends, each record referring to rows the same code wrote in
        // the same transaction; checking those references on every insert took about a tenth of
        // a listener burst's store time. `integrityCheck()` checks them all on demand instead.
        config.foreignKeysEnabled = false
        config.prepareDatabase { db in
            // In WAL mode NORMAL may lose the last commits on power loss; FULL syncs every commit.
            // A 512 KiB page cache (SQLite's default is 2 MB) per connection: mtt mostly appends,
            // and a listener burst stored as fast with it in about 1.5 MB less memory (scripts/load).
            try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA cache_size = -512")
            // The attempts' coverage triggers and the coverage rebuild call them (CoverageSQL).
            CoverageFunctions.register(in: db)
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            let migrator = StoreSchema.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
                throw StoreError.newerSchema(path: path)
            }
            if access == .readOnly {
                guard try pool.read({ try migrator.hasCompletedMigrations($0) }) else { throw StoreError.olderSchema(path: path) }
            } else {
                try migrator.migrate(pool)
            }
            if access == .create && existed {
                // A damaged file found now, not after an hour of collecting into it.
                let problems = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
                guard problems == ["ok"] else {
                    throw StoreError.unreadable(path: path, reason: "damaged: " + problems.prefix(3).joined(separator: "; "))
                }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            throw StoreError.unreadable(path: path, reason: "damaged: \(error.message ?? "malformed")")
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
        _ = SQLiteLibrary.configure(SQLITE_CONFIG_MULTITHREAD)
        _ = SQLiteLibrary.configure(SQLITE_CONFIG_MEMSTATUS, 0)
    }()

    /// Opens the database that the user named, `MTT_DB` or the XDG default names.
    public convenience init(explicitPath: String?, access: Access = .create) throws {
        try self.init(path: StoreLocation.resolve(explicit: explicitPath), access: access)
    }

    private static func prepareFolder(for path: String) throws {
        let fm = FileManager.default
        let folder = PathText.folder(of: path)
        if !folder.isEmpty && !fm.fileExists(atPath: folder) {
            do {
                try fm.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError.cannotCreate(path: path, reason: "cannot create folder \(folder)")
            }
        }
    }

    private static func prepareFile(at path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
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
            let table: String = first[ForeignKeyCheckColumns.table], row: Int64 = first[ForeignKeyCheckColumns.rowid], parent: String = first[ForeignKeyCheckColumns.parent]
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

extension StoreSyncQueue {
    /// Claims the right to upload to `target` from this database until the claim is released or
    /// the process ends (even by `kill -9`). Nil when another process holds it: two syncs at once
    /// would send the same records twice.
    public func claimSync(_ target: SyncTarget) throws -> SyncClaim? {
        try FileLock.ifFree(at: "\(path)-sync-\(target.rawValue).lock").map(SyncClaim.init)
    }
}
