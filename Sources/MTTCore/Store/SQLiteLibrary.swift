import FoundationEssentials
import Glibc
import GRDBSQLite

/// `sqlite3_config`, which Swift cannot call: it is variadic, so it is not imported, and GRDB
/// wraps only the setting it uses itself. MTTCore reaches SQLite through GRDB alone (no C module
/// of its own over the same header), so the function is looked up in the loaded library and
/// called with a fixed prototype of integers. On the ABIs mtt runs on (x86-64 System V, AArch64
/// Linux), integer arguments of a variadic call travel exactly as those of a fixed one; x86-64's
/// %al only bounds how many vector registers the callee spills.
enum SQLiteLibrary {
    private typealias Config = @convention(c) (Int32, Int32) -> Int32

    private static let config: Config? = {
        // The process's own symbols: libsqlite3 is linked into mtt.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sqlite3_config") else { return nil }
        return unsafeBitCast(symbol, to: Config.self)
    }()

    /// `sqlite3_config(option, value)` for an option taking one int (or none); SQLITE_MISUSE once
    /// SQLite has started, SQLITE_ERROR when the function cannot be found.
    static func configure(_ option: Int32, _ value: Int32 = 0) -> Int32 {
        config?(option, value) ?? SQLITE_ERROR
    }
}
