import FoundationEssentials
import Glibc
import GRDB

/// Looks at an existing file before mtt opens it for writing, so a wrong `--db` is refused
/// without a single byte of it changed (opening for writing would convert it to WAL and migrate it).
enum DatabaseFileCheck {
    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// Whether something is at `path`; throws when it is not a regular file (a FIFO would hang
    /// SQLite's open, a device such as /dev/null would fail every write).
    static func verifyKind(path: String) throws -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw StoreError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind = switch info.st_mode & S_IFMT {
            case S_IFDIR: "a folder"
            case S_IFIFO: "a FIFO"
            case S_IFCHR, S_IFBLK: "a device"
            case S_IFSOCK: "a socket"
            default: "not a regular file"
            }
            throw StoreError.notAFile(path: path, kind: kind)
        }
        return true
    }

    /// Throws when the file exists and is not an mtt database that SQLite can read.
    static func verifyExisting(path: String) throws {
        guard let file = ReadOnlyFile(path: path) else { return }
        let header = (try? file.read(upTo: 100)) ?? []
        if header.isEmpty { return }  // an empty file is a new database to SQLite
        guard header.count == 100, Array(header.prefix(16)) == sqliteMagic else {
            throw StoreError.notADatabase(path: path)
        }

        var config = Configuration()
        config.readonly = true
        // Another process may be writing to it (or still creating it): wait as the store does.
        config.busyMode = .timeout(Store.busyTimeout)
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            // Asked through SQLite, not read from the header bytes: after a crash the header
            // on disk can predate what the write-ahead log already holds.
            let (applicationID, tables) = try queue.read { db in
                (try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") ?? 0)
            }
            try queue.close()
            let ours = UInt32(bitPattern: applicationID) == StoreSchema.applicationID
            if !ours && (applicationID != 0 || tables > 0) {
                throw StoreError.foreignDatabase(path: path)
            }
        } catch let error as DatabaseError {
            // Said as the store's own check says it, whichever page the damage hit.
            let damaged = error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
            throw StoreError.unreadable(path: path, reason: (damaged ? "damaged: " : "") + (error.message ?? "SQLite error \(error.resultCode.rawValue)"))
        }
    }
}
