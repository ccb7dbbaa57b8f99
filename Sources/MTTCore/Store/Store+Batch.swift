import GRDB

extension Store {
    /// Many records in one transaction: one fsync for a whole import instead of one per record.
    /// Nothing is stored if `body` throws.
    public struct Batch {
        let db: Database
        /// The row inserts' statements, looked up once per transaction: finding one in GRDB's cache
        /// hashes its SQL, which for a listener burst cost more than binding the row.
        private let statements = InsertStatements()
        let rowText = RowText()
        /// The coverage this transaction's samples add, written before it commits.
        let coverage = CoverageAccumulator()

        init(_ db: Database) {
            self.db = db
        }

        func statement(_ sql: StaticString) throws -> Statement {
            try statements.statement(sql, in: db)
        }

        /// Writes the coverage added so far, inside the transaction: a batch of a million samples
        /// (an import) would otherwise hold every uplink and cell in memory until it commits
        /// (1.48 GB for a 243 MB data set).
        public func writeCoverageSoFar() throws {
            try coverage.flush(self)
        }

        @discardableResult
        public func record(_ uplink: Uplink, session: Int64) throws -> Int64 { try Store.insert(uplink, session: session, self) }
        @discardableResult
        public func record(_ sample: Sample) throws -> Int64 { try Store.insert(sample, self) }
        @discardableResult
        public func record(_ attempt: Attempt) throws -> Int64 { try Store.insert(attempt, db) }
        @discardableResult
        public func record(_ fix: Fix, session: Int64) throws -> Int64 { try Store.insert(fix, session: session, db) }

        /// A session that exists only if the whole batch is stored.
        public func startSession(mode: CollectionMode, at time: Timestamp, note: String?, sourceHash: String? = nil) throws -> Int64 {
            try Store.insertSession(mode: mode, at: time, SessionDescription(note: note, sourceHash: sourceHash), version: nil, db)
        }

        /// The session an earlier import of the same content made, if any.
        public func importedSession(hash: String) throws -> StoredSession? {
            try Store.importedSession(hash: hash, db)
        }

        /// The stored uplink that is `uplink`, if any: the same device, network receive time and
        /// frame counter, whether MQTT, a fetch or an import brought it.
        public func storedUplinkID(_ uplink: Uplink) throws -> Int64? {
            try Int64.fetchOne(
                try db.cachedStatement(sql: "SELECT id FROM uplinks WHERE device_id = ? AND received_at = ? AND f_cnt IS ? LIMIT 1"),
                arguments: [uplink.deviceID, uplink.receivedAt.nanosecondsSinceEpoch, uplink.fCnt.map { Int64($0) }])
        }

        public func link(attempt: Int64, toUplink uplink: Int64) throws {
            try db.execute(sql: "UPDATE attempts SET uplink_id = ? WHERE id = ?", arguments: [uplink, attempt])
        }

        /// The network heard the attempt as the uplink: linked, and the uplink placed where the
        /// node was when it sent (the attempt's fix, when it had one). Live or fetched alike.
        @discardableResult
        public func recordHeard(attempt: Int64, uplink: Int64, session: Int64, fix: Fix?) throws -> Sample? {
            try link(attempt: attempt, toUplink: uplink)
            guard let fix else { return nil }
            var sample = Sample(sessionID: session, subject: .uplink(uplink), time: fix.time, position: fix.point, method: .txTime)
            sample.id = try record(sample)
            return sample
        }
    }

    public func batch<T>(_ body: (Batch) throws -> T) throws -> T {
        try write { db in
            let batch = Batch(db)
            let result = try body(batch)
            try batch.coverage.flush(batch)
            return result
        }
    }
}

/// Statements by the address of their SQL text, which is a literal for every row insert.
private final class InsertStatements {
    private var bySQL: [UnsafeRawPointer: Statement] = [:]

    func statement(_ sql: StaticString, in db: Database) throws -> Statement {
        let key = UnsafeRawPointer(sql.utf8Start)
        if let statement = bySQL[key] { return statement }
        let statement = try db.cachedStatement(sql: sql.description)
        bySQL[key] = statement
        return statement
    }
}

extension Database {
    /// Runs one of the store's fixed statements, compiled once per connection rather than per row.
    func executeCached(sql: String, arguments: StatementArguments) throws {
        let statement = try cachedStatement(sql: sql)
        // The store's own statements always get their full set of arguments: skip GRDB's check.
        statement.setUncheckedArguments(arguments)
        try statement.execute()
    }
}
