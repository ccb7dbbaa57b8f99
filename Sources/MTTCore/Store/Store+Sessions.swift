import GRDB

/// What a session was run with, as the database keeps it.
public struct SessionDescription: Sendable, Hashable {
    public var nodes: String?
    public var gps: String?
    public var network: String?
    public var note: String?
    /// The MQTT server (`mqtts://host:port`) and user (`APP_ID@TENANT`) the run heard The Things
    /// Stack on, or would have: where `mtt fetch` finds the session's uplinks later.
    public var mqttURL: String?
    public var mqttUser: String?
    /// The TTS device IDs the run heard (`+` for every device of the application).
    public var devices: [String] = []
    /// What stood in for the real world (`SimulatedParts`); empty for a real run.
    public var simulated: [String] = []
    /// An import's file content hash (SHA-256, hex).
    public var sourceHash: String?

    public init(
        nodes: String? = nil, gps: String? = nil, network: String? = nil, note: String? = nil,
        mqttURL: String? = nil, mqttUser: String? = nil, devices: [String] = [], simulated: [String] = [], sourceHash: String? = nil
    ) {
        self.simulated = simulated
        self.sourceHash = sourceHash
        self.nodes = nodes
        self.gps = gps
        self.network = network
        self.note = note
        self.mqttURL = mqttURL
        self.mqttUser = mqttUser
        self.devices = devices
    }
}

/// A collection run or an import: every record belongs to one.
public struct StoredSession: Sendable, Hashable {
    public var id: Int64
    public var mode: CollectionMode
    public var startedAt: Timestamp
    public var endedAt: Timestamp?
    public var description: SessionDescription
    /// When a fetch from the Storage Integration last completed it.
    public var fetchedAt: Timestamp?
    /// The user's name for it (`mtt sessions name`).
    public var name: String?
    /// Left out of every sync by the user (`mtt sessions exclude`).
    public var syncExcluded = false

    public var nodes: String? { description.nodes }
    public var gps: String? { description.gps }
    public var network: String? { description.network }
    public var note: String? { description.note }
    public var isSimulated: Bool { !description.simulated.isEmpty }

    /// How it is named in lists and titles: its name, else its note, else its number.
    public var title: String { name ?? note ?? "session \(id)" }
}

extension Store {

    static func insertSession(mode: CollectionMode, at time: Timestamp, _ d: SessionDescription, version: String?, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO sessions (mode, started_at, nodes, gps, network, note, mtt_version, mqtt_url, mqtt_user, devices,
                                      simulated, source_hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                mode.rawValue, time.nanosecondsSinceEpoch, d.nodes, d.gps, d.network, d.note, version, d.mqttURL, d.mqttUser,
                d.devices.isEmpty ? nil : d.devices.joined(separator: " "),
                d.simulated.isEmpty ? nil : d.simulated.joined(separator: ", "), d.sourceHash,
            ])
        return db.lastInsertedRowID
    }

    static func session(from row: Row) -> StoredSession {
        let devices: String? = row[SessionColumns.devices]
        let simulated: String? = row[SessionColumns.simulated]
        return StoredSession(
            id: row[SessionColumns.id], mode: CollectionMode(rawValue: row[SessionColumns.mode]) ?? .imported,
            startedAt: Timestamp(nanosecondsSinceEpoch: row[SessionColumns.startedAt]),
            endedAt: (row[SessionColumns.endedAt] as Int64?).map(Timestamp.init(nanosecondsSinceEpoch:)),
            description: SessionDescription(
                nodes: row[SessionColumns.nodes], gps: row[SessionColumns.gps], network: row[SessionColumns.network], note: row[SessionColumns.note], mqttURL: row[SessionColumns.mqttURL],
                mqttUser: row[SessionColumns.mqttUser], devices: devices?.split(separator: " ").map(String.init) ?? [],
                simulated: simulated?.components(separatedBy: ", ") ?? [], sourceHash: row[SessionColumns.sourceHash]),
            fetchedAt: (row[SessionColumns.fetchedAt] as Int64?).map(Timestamp.init(nanosecondsSinceEpoch:)),
            name: row[SessionColumns.name], syncExcluded: row[SessionColumns.syncExcluded] ?? false)
    }
}

extension StoredSession: Encodable {
    enum CodingKeys: String, CodingKey {
        case id, name, mode, nodes, gps, network, devices, simulated
        case startedAt = "started_at", endedAt = "ended_at", fetchedAt = "fetched_at", syncExcluded = "sync_excluded"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(mode.rawValue, forKey: .mode)
        try c.encode(RFC3339.string(startedAt), forKey: .startedAt)
        try c.encode(endedAt.map { RFC3339.string($0) }, forKey: .endedAt)
        try c.encode(fetchedAt.map { RFC3339.string($0) }, forKey: .fetchedAt)
        try c.encode(description.nodes, forKey: .nodes)
        try c.encode(description.gps, forKey: .gps)
        try c.encode(description.network, forKey: .network)
        try c.encode(description.devices, forKey: .devices)
        try c.encode(description.simulated, forKey: .simulated)
        try c.encode(syncExcluded, forKey: .syncExcluded)
    }
}

extension StoreSessions {
    public func startSession(
        mode: CollectionMode, at time: Timestamp = .now(), _ description: SessionDescription = SessionDescription(), version: String? = nil
    ) throws -> Int64 {
        try write { db in try Store.insertSession(mode: mode, at: time, description, version: version, db) }
    }

    public func endSession(_ id: Int64, at time: Timestamp = .now()) throws {
        try write { db in
            try db.execute(sql: "UPDATE sessions SET ended_at = ? WHERE id = ?", arguments: [time.nanosecondsSinceEpoch, id])
        }
    }

    public func session(_ id: Int64) throws -> StoredSession? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM sessions WHERE id = ?", arguments: [id]).map(Store.session(from:))
        }
    }

    /// The sessions that started or ended at `since` or later, oldest first.
    public func sessions(since: Timestamp) throws -> [StoredSession] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM sessions WHERE started_at >= ?1 OR ended_at >= ?1 OR ended_at IS NULL ORDER BY id",
                arguments: [since.nanosecondsSinceEpoch]
            ).map(Store.session(from:))
        }
    }
}
