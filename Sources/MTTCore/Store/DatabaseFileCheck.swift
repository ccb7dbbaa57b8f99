import Foundation
import GRDB

/// Looks at an existing file before mtt opens it for writing, so a wrong `--db` is refused
/// without a single byte of it changed (opening for writing would convert it to WAL and migrate it).
enum DatabaseFileCheck {
    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// Throws when the file exists and is not an mtt database that SQLite can read.
    static func verifyExisting(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        try? handle.close()
        if header.isEmpty { return }  // an empty file is a new database to SQLite
        guard header.count == 100, Array(header.prefix(16)) == sqliteMagic else {
            throw StoreError.notADatabase(path: path)
        }

        var config = Configuration()
        config.readonly = true
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
            throw StoreError.unreadable(path: path, reason: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
    }
}
