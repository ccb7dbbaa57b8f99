import GRDB

/// Why the store could not be opened or written, in one line a user can act on.
public enum StoreError: Error, CustomStringConvertible {
    case notADatabase(path: String)
    case foreignDatabase(path: String)
    case unreadable(path: String, reason: String)
    case cannotCreate(path: String, reason: String)
    case newerSchema(path: String)
    case olderSchema(path: String)
    case missing(path: String)
    case notAFile(path: String, kind: String)
    case database(String)
    /// Another program held the database's write lock past SQLite's wait (`busyTimeout`).
    case busy

    public var description: String {
        switch self {
        case .notADatabase(let path):
            return "\(path) is not an SQLite database; mtt left it untouched"
        case .foreignDatabase(let path):
            return "\(path) is an SQLite database of another program, not mtt's; mtt left it untouched"
        case .unreadable(let path, let reason):
            return "cannot read the database \(path): \(reason); mtt left it untouched"
        case .cannotCreate(let path, let reason):
            return "cannot create the database \(path): \(reason)"
        case .newerSchema(let path):
            return "\(path) was written by a newer mtt; upgrade mtt to open it"
        case .olderSchema(let path):
            return "\(path) was written by an older mtt; open it once with a command that records (collect, import) to bring it up to date"
        case .missing(let path):
            return "there is no database at \(path); nothing has been collected there yet"
        case .notAFile(let path, let kind):
            return "\(path) is \(kind), not a database file; mtt left it untouched"
        case .database(let message):
            return "database error: \(message)"
        case .busy:
            return "another program has held the database's write lock for more than \(Int(Store.busyTimeout)) s"
        }
    }

    /// A GRDB error as one line, without the SQL statement it carries.
    static func wrapping(_ error: any Error) -> any Error {
        if let error = error as? DatabaseError {
            if error.resultCode == .SQLITE_FULL { return StoreError.database("the disk is full") }
            if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED { return StoreError.busy }
            if error.extendedResultCode == .SQLITE_IOERR_WRITE || error.extendedResultCode == .SQLITE_IOERR_FSYNC {
                // ENOSPC shows as SQLITE_FULL; a full disk or a file-size limit can also fail the write itself.
                return StoreError.database("cannot write the database file: the disk is full or the file may not grow (\(error.message ?? "disk I/O error"))")
            }
            return StoreError.database(error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
        return error
    }
}
