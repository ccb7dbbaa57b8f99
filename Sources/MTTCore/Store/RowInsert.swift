import CSQLite
import GRDB

/// One row bound straight into a statement GRDB compiled and caches, for the inserts that run for
/// every uplink: GRDB's general argument handling costs more than the insert itself there. Runs
/// inside the batch's transaction like any other statement.
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
        db = batch.db
        // The batch holds the statement, and so keeps this pointer valid, until the transaction ends.
        statement = try batch.statement(sql).sqliteStatement
        text = batch.rowText
        text.startRow()
        sqlite3_reset(statement)
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
        // The string's own UTF-8 where it has it (every native string), without a copy of the string.
        if value.utf8.withContiguousStorageIfAvailable({ bindText(UnsafeRawBufferPointer($0)) }) == nil {
            var contiguous = value
            contiguous.withUTF8 { bindText(UnsafeRawBufferPointer($0)) }
        }
    }

    private func bindText(_ bytes: UnsafeRawBufferPointer) {
        if let kept = text.keep(bytes) {
            sqlite3_bind_text(statement, index, kept.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.inPlace)
        } else {
            sqlite3_bind_text(statement, index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
        }
    }

    mutating func bind(blob value: [UInt8]) {
        index += 1
        _ = value.withUnsafeBytes { bytes in
            // A zero-length blob is still a blob, not NULL: SQLite needs a non-null pointer for that.
            if let kept = text.keep(bytes) {
                sqlite3_bind_blob(statement, index, kept, Int32(bytes.count), Self.inPlace)
            } else {
                sqlite3_bind_blob(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), Self.transient)
            }
        }
    }

    /// Inserts the row; returns its rowid.
    func run() throws -> Int64 {
        // Every parameter bound for this row: none still points into an earlier row's text.
        guard index == sqlite3_bind_parameter_count(statement) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(index) of \(sqlite3_bind_parameter_count(statement)) values bound")
        }
        let code = sqlite3_step(statement)
        defer { sqlite3_reset(statement) }
        guard code == SQLITE_DONE else {
            let connection = db.sqliteConnection
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                message: String(cString: sqlite3_errmsg(connection)))
        }
        return sqlite3_last_insert_rowid(db.sqliteConnection)
    }
}
