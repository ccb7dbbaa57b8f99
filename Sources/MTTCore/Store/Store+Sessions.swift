import GRDB

/// A collection run or an import: every record belongs to one.
public struct StoredSession: Sendable, Hashable {
    public var id: Int64
    public var mode: CollectionMode
    public var startedAt: Timestamp
    public var endedAt: Timestamp?
    public var nodes: String?
    public var gps: String?
    public var network: String?
    public var note: String?
}

extension Store {
    public func startSession(
        mode: CollectionMode, at time: Timestamp = .now(), nodes: String? = nil, gps: String? = nil,
        network: String? = nil, note: String? = nil, version: String? = nil
    ) throws -> Int64 {
        try write { db in
            try Self.insertSession(mode: mode, at: time, nodes: nodes, gps: gps, network: network, note: note, version: version, db)
        }
    }

    static func insertSession(
        mode: CollectionMode, at time: Timestamp, nodes: String?, gps: String?, network: String?, note: String?, version: String?,
        _ db: Database
    ) throws -> Int64 {
            try db.execute(
                sql: """
                    INSERT INTO sessions (mode, started_at, nodes, gps, network, note, mtt_version)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [mode.rawValue, time.nanosecondsSinceEpoch, nodes, gps, network, note, version])
            return db.lastInsertedRowID
    }

    public func endSession(_ id: Int64, at time: Timestamp = .now()) throws {
        try write { db in
            try db.execute(sql: "UPDATE sessions SET ended_at = ? WHERE id = ?", arguments: [time.nanosecondsSinceEpoch, id])
        }
    }

    public func session(_ id: Int64) throws -> StoredSession? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sessions WHERE id = ?", arguments: [id]) else {
                return nil
            }
            return StoredSession(
                id: row["id"], mode: CollectionMode(rawValue: row["mode"]) ?? .imported,
                startedAt: Timestamp(nanosecondsSinceEpoch: row["started_at"]),
                endedAt: (row["ended_at"] as Int64?).map(Timestamp.init(nanosecondsSinceEpoch:)),
                nodes: row["nodes"], gps: row["gps"], network: row["network"], note: row["note"])
        }
    }
}
