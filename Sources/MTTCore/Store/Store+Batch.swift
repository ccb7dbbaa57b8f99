import GRDB

extension Store {
    /// Many records in one transaction: one fsync for a whole import instead of one per record.
    /// Nothing is stored if `body` throws.
    public struct Batch {
        fileprivate let db: Database

        @discardableResult
        public func record(_ uplink: Uplink, session: Int64) throws -> Int64 { try Store.insert(uplink, session: session, db) }
        @discardableResult
        public func record(_ sample: Sample) throws -> Int64 { try Store.insert(sample, db) }
        @discardableResult
        public func record(_ attempt: Attempt) throws -> Int64 { try Store.insert(attempt, db) }
        @discardableResult
        public func record(_ fix: Fix, session: Int64) throws -> Int64 { try Store.insert(fix, session: session, db) }

        public func link(attempt: Int64, toUplink uplink: Int64) throws {
            try db.execute(sql: "UPDATE attempts SET uplink_id = ? WHERE id = ?", arguments: [uplink, attempt])
        }
    }

    public func batch<T>(_ body: (Batch) throws -> T) throws -> T {
        try write { db in try body(Batch(db: db)) }
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
