/// A table of the community database that mappers upload into, declared once: MTTPostgres creates
/// it from this (`CommunitySchema`), and the postgis target fills it (`PostGISDestination`).
public struct CommunityTable: Sendable {
    public struct Column: Sendable {
        public let name: String
        /// Its SQL type: a `geometry(Point, 4326)` is uploaded as its longitude and latitude
        /// (`lon`, `lat`; `gateway_lon`, `gateway_lat` for `gateway_geom`).
        public let type: String
        /// The rest of its definition: `NOT NULL`, a default.
        public let constraint: String

        init(_ name: String, _ type: String, _ constraint: String = "") {
            self.name = name
            self.type = type
            self.constraint = constraint
        }

        /// As CREATE TABLE has it.
        public var definition: String { constraint.isEmpty ? "\(name) \(type)" : "\(name) \(type) \(constraint)" }

        /// The role that inserted the row: the database fills it, and row-level security holds it.
        static let mapper = Column("mapper", "name", "NOT NULL DEFAULT current_user")
        static let point = "geometry(Point, 4326)"
    }

    /// `mtt.NAME`.
    public let name: String
    public let columns: [Column]
    public let primaryKey: [String]

    /// What an upload sends, in the columns' order: every column the database does not fill, a
    /// point as its longitude and latitude.
    public var uploaded: [DatabaseBatch.Statement.Value] {
        columns.filter { $0.name != Column.mapper.name }.flatMap { column -> [DatabaseBatch.Statement.Value] in
            guard column.type == Column.point else { return [.init(column.name, column.type)] }
            let prefix = column.name == "geom" ? "" : String(column.name.dropLast("geom".count))
            return [.init(prefix + "lon", "float8"), .init(prefix + "lat", "float8")]
        }
    }

    /// The raw tables, in the order they are created.
    public static let raw: [CommunityTable] = [.sessions, .attempts, .samples, .receptions, .tracks]

    public static let sessions = CommunityTable(name: "mtt.sessions", columns: [
        .init("db", "uuid", "NOT NULL"), .init("id", "bigint", "NOT NULL"), .mapper,
        .init("mode", "text", "NOT NULL"), .init("started_at", "timestamptz", "NOT NULL"), .init("ended_at", "timestamptz"), .init("name", "text"),
    ], primaryKey: ["db", "id"])

    public static let attempts = CommunityTable(name: "mtt.attempts", columns: [
        .init("db", "uuid", "NOT NULL"), .init("id", "bigint", "NOT NULL"), .mapper, .init("session_id", "bigint", "NOT NULL"),
        .init("sent_at", "timestamptz", "NOT NULL"), .init("state", "text", "NOT NULL"), .init("heard", "boolean", "NOT NULL"),
        .init("network_known", "boolean", "NOT NULL"),
        .init("node", "text"), .init("dev_eui", "text"), .init("f_cnt", "bigint"), .init("sf", "integer"), .init("geom", Column.point, "NOT NULL"),
    ], primaryKey: ["db", "id"])

    public static let samples = CommunityTable(name: "mtt.samples", columns: [
        .init("db", "uuid", "NOT NULL"), .init("id", "bigint", "NOT NULL"), .mapper, .init("session_id", "bigint", "NOT NULL"),
        .init("time", "timestamptz", "NOT NULL"), .init("method", "text", "NOT NULL"), .init("geom", Column.point, "NOT NULL"),
        .init("network", "text", "NOT NULL DEFAULT ''"), .init("device_id", "text"), .init("dev_eui", "text"), .init("f_cnt", "bigint"),
        .init("sf", "integer"), .init("frequency", "bigint"),
    ], primaryKey: ["db", "id"])

    /// No foreign key to samples: its check per row cost more than the row; the aggregates'
    /// trigger joins each reception to its sample and refuses an orphan.
    public static let receptions = CommunityTable(name: "mtt.receptions", columns: [
        .init("db", "uuid", "NOT NULL"), .init("sample_id", "bigint", "NOT NULL"), .init("n", "integer", "NOT NULL"), .mapper,
        .init("gateway", "text", "NOT NULL"), .init("gateway_eui", "text"), .init("antenna", "integer", "NOT NULL DEFAULT 0"),
        .init("rssi", "double precision"), .init("snr", "double precision"), .init("gateway_geom", Column.point),
    ], primaryKey: ["db", "sample_id", "n"])

    public static let tracks = CommunityTable(name: "mtt.tracks", columns: [
        .init("db", "uuid", "NOT NULL"), .init("id", "bigint", "NOT NULL"), .mapper, .init("session_id", "bigint", "NOT NULL"),
        .init("time", "timestamptz", "NOT NULL"), .init("geom", Column.point, "NOT NULL"), .init("eph", "double precision"),
        .init("satellites", "integer"),
    ], primaryKey: ["db", "id"])
}
