import GRDB

/// A kind of record a target's server said it does not take (HTTP 404 or 405 for its path: a
/// MapTheThings server without mtt's /samples). Its records are not sent to that server again, and
/// not counted as waiting; another server (`--url`) is still tried.
public struct UnacceptedKind: Sendable, Hashable {
    public var kind: SyncRecordKind
    public var server: String
    public var reason: String
    public var at: Timestamp

    public init(kind: SyncRecordKind, server: String, reason: String, at: Timestamp) {
        self.kind = kind
        self.server = server
        self.reason = reason
        self.at = at
    }
}

extension Store {

    static func unacceptedKinds(_ target: SyncTarget, _ db: Database) throws -> [UnacceptedKind] {
        try Row.fetchAll(db, sql: "SELECT kind, server, reason, at FROM sync_unaccepted WHERE target = ? ORDER BY kind", arguments: [target.rawValue])
            .compactMap { row in
                guard let kind = SyncRecordKind(rawValue: row[SyncUnacceptedColumns.kind]) else { return nil }
                return UnacceptedKind(kind: kind, server: row[SyncUnacceptedColumns.server], reason: row[SyncUnacceptedColumns.reason], at: Timestamp(nanosecondsSinceEpoch: row[SyncUnacceptedColumns.at]))
            }
    }

}

extension StoreSyncQueue {
    public func unacceptedKinds(_ target: SyncTarget) throws -> [UnacceptedKind] {
        try read { db in try Store.unacceptedKinds(target, db) }
    }

    /// Notes that `target`'s server does not take records of a kind (the latest server's word wins).
    public func recordUnaccepted(_ target: SyncTarget, _ entry: UnacceptedKind) throws {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO sync_unaccepted (target, kind, server, reason, at) VALUES (?, ?, ?, ?, ?)",
                arguments: [target.rawValue, entry.kind.rawValue, entry.server, entry.reason, entry.at.nanosecondsSinceEpoch])
        }
    }

    /// A server took records of the kind after all: they count as waiting again.
    public func forgetUnaccepted(_ target: SyncTarget, kind: SyncRecordKind) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM sync_unaccepted WHERE target = ? AND kind = ?", arguments: [target.rawValue, kind.rawValue])
        }
    }
}
