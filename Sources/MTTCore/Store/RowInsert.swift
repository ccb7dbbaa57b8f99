import GRDBSQLite
import GRDB

/// One row bound straight into a statement GRDB compiled and caches, for the inserts that run for
/// every uplink: the store's one hand-written write path. Measured against the same rows gathered
/// as `DatabaseValue`s and run through GRDB's `Statement.execute(arguments:)` (the listener burst of
/// scripts/load, 50,000 uplinks, release builds, two rounds in one run): 26,000-35,000 uplinks/s and
/// 37-49 µs of CPU per uplink that way, 68,000-71,000/s and 21-23 µs this way. Runs inside the
/// batch's transaction like any other statement.
struct RowInsert {
    private let db: Database
    private let statement: OpaquePointer
    private let text: RowText
    private var index: Int32 = 0

    /// SQLite copies text and blobs before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// SQLite reads text and blobs where they are, when the statement runs.
    private static let inPlace: sqlite3_destructor_type? = nil

    init(_ batch: Store.Batch, sql: StaticString) throws {
        self.init(batch, statement: try batch.statement(sql))
    }

    /// A statement of the batch's connection that the caller holds until the row has run.
    init(_ batch: Store.Batch, statement: Statement) {
        db = batch.db
        // The batch holds the statement, and so keeps this pointer valid, until the transaction ends.
        self.statement = statement.sqliteStatement
        text = batch.rowText
        text.startRow()
        sqlite3_reset(self.statement)
    }

    mutating func bind(_ value: Int64?) {
        index += 1
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func bind(_ value: Int?) {
        bind(value.map(Int64.init))
    }

    mutating func bind(_ value: Double?) {
        index += 1
        if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func bind(_ value: Bool) {
        bind(Int64(value ? 1 : 0))
    }

    mutating func bind(_ value: String?) {
        index += 1
        guard let value else {
            sqlite3_bind_null(statement, index)
            return
        }
        value.withUTF8Bytes { utf8 in
            let (bytes, destructor) = placed(UnsafeRawBufferPointer(utf8))
            sqlite3_bind_text(statement, index, bytes?.assumingMemoryBound(to: CChar.self), Int32(utf8.count), destructor)
        }
    }

    mutating func bind(blob value: [UInt8]) {
        index += 1
        _ = value.withUnsafeBytes { blob in
            let (bytes, destructor) = placed(blob)
            // A zero-length blob is still a blob, not NULL: SQLite needs a non-null pointer for that.
            return sqlite3_bind_blob(statement, index, bytes ?? UnsafeRawPointer(bitPattern: 1), Int32(blob.count), destructor)
        }
    }

    /// Where SQLite reads a value from: the row's copy, bound in place, or (the row being full)
    /// the caller's bytes, which SQLite must copy before the bind returns.
    private func placed(_ bytes: UnsafeRawBufferPointer) -> (UnsafeRawPointer?, sqlite3_destructor_type?) {
        if let kept = text.keep(bytes) { return (kept, Self.inPlace) }
        return (bytes.baseAddress, Self.transient)
    }

    /// Inserts (or upserts) the row; returns its rowid.
    @discardableResult
    func run() throws -> Int64 {
        try checkBound()
        let code = sqlite3_step(statement)
        defer { sqlite3_reset(statement) }
        guard code == SQLITE_DONE else { throw failure() }
        return sqlite3_last_insert_rowid(db.sqliteConnection)
    }

    /// Runs a query of one text column, bound as a row is, and counts its different values:
    /// cheaper than SQL's `COUNT(DISTINCT …)`, which builds a temporary B-tree every time, for the
    /// few rows a cell has.
    func countDifferentTexts() throws -> Int {
        try checkBound()
        defer { sqlite3_reset(statement) }
        var seen: [String] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_DONE: return seen.count
            case SQLITE_ROW:
                let text = sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
                if !seen.contains(text) { seen.append(text) }
            default: throw failure()
            }
        }
    }

    /// Every parameter bound for this row: none still points into an earlier row's text.
    private func checkBound() throws {
        guard index == sqlite3_bind_parameter_count(statement) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(index) of \(sqlite3_bind_parameter_count(statement)) values bound")
        }
    }

    private func failure() -> DatabaseError {
        let connection = db.sqliteConnection
        return DatabaseError(
            resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
            message: String(cString: sqlite3_errmsg(connection)))
    }
}
