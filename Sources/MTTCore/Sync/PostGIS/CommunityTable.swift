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
        /// What a value must be (`PhysicalLimits`), as an SQL condition on the column; nil when
        /// anything of its type will do.
        public let check: String?
        /// The schema version that added it: the first migration makes the tables as they were.
        public let since: Int

        init(_ name: String, _ type: String, _ constraint: String = "", check: Check? = nil, since: Int = 1) {
            self.name = name
            self.type = type
            self.constraint = constraint
            self.check = check?.sql(name)
            self.since = since
        }

        /// The database's own copy of mtt's range rules: a mapper's INSERT that breaks one is
        /// refused, whoever sends it (NaN and ±Infinity are outside every range in PostgreSQL).
        enum Check {
            case within(ClosedRange<Double>)
            case whole(ClosedRange<Int>)
            case place
            case time

            func sql(_ column: String) -> String {
                switch self {
                case .within(let range): "\(column) BETWEEN \(range.lowerBound.plainText) AND \(range.upperBound.plainText)"
                case .whole(let range): "\(column) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
                case .place:
                    "ST_X(\(column)) BETWEEN \(PhysicalLimits.longitude.lowerBound.plainText) AND \(PhysicalLimits.longitude.upperBound.plainText)"
                        + " AND ST_Y(\(column)) BETWEEN \(PhysicalLimits.latitude.lowerBound.plainText) AND \(PhysicalLimits.latitude.upperBound.plainText)"
                // now() in a check: a row is judged when it arrives (a restore of old rows passes).
                case .time:
                    "\(column) BETWEEN '\(RFC3339.string(PhysicalLimits.earliest))' AND now() + interval '\(Int(PhysicalLimits.aheadOfNow)) seconds'"
                }
            }
        }

        /// As CREATE TABLE has it.
        public var definition: String { constraint.isEmpty ? "\(name) \(type)" : "\(name) \(type) \(constraint)" }

        /// The role that inserted the row: the database fills it, and row-level security holds it.
        static let mapper = Column("mapper", "name", "NOT NULL DEFAULT current_user")
        static let point = "geometry(Point, 4326)"
    }

    /// `mtt.NAME`.
    public let name: String
    /// NAME, without the schema: what PostgreSQL names its constraints after.
    public var unqualifiedName: String { String(name.dropFirst("mtt.".count)) }
    public let columns: [Column]
    public let primaryKey: [String]
    /// The time its rows are kept by, one partition a month (schema version 4): a month of raw
    /// rows can be detached and archived while the aggregates keep what they counted. PostgreSQL
    /// holds a partitioned table's keys to each partition, so the column is in its key there.
    public let partitionedBy: String?

    init(name: String, columns: [Column], primaryKey: [String], partitionedBy: String? = nil) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.partitionedBy = partitionedBy
    }

    /// What an upload sends, in the columns' order: every column the database does not fill, a
    /// point as its longitude and latitude.
    public var uploaded: [DatabaseBatch.Statement.Value] {
        columns.filter { $0.name != Column.mapper.name }.flatMap { column -> [DatabaseBatch.Statement.Value] in
            guard column.type == Column.point else { return [.init(column.name, column.type)] }
            let prefix = column.name == "geom" ? "" : String(column.name.dropLast("geom".count))
            return [.init(prefix + "lon", "float8"), .init(prefix + "lat", "float8")]
        }
    }

    /// Its columns' checks, each named `TABLE_COLUMN_range`.
    public var checks: [(name: String, condition: String)] {
        columns.compactMap { c in c.check.map { ("\(unqualifiedName)_\(c.name)_range", $0) } }
    }

    /// The raw tables, in the order they are created.
    public static let raw: [CommunityTable] = [.sessions, .attempts, .samples, .receptions, .tracks]
    /// Those kept a month a partition.
    public static var partitioned: [CommunityTable] { raw.filter { $0.partitionedBy != nil } }

    public static let sessions = CommunityTable(name: "mtt.sessions", columns: [
        .init("db", "uuid", "NOT NULL"), .init("id", "bigint", "NOT NULL"), .mapper,
        .init("mode", "text", "NOT NULL"), .init("started_at", "timestamptz", "NOT NULL", check: .time), .init("ended_at", "timestamptz"), .init("name", "text"),
    ], primaryKey: ["db", "mapper", "id"])

    public static let attempts = CommunityTable(name: "mtt.attempts", columns: [
        .init("db", "uuid", "NOT NULL"), .init("id", "bigint", "NOT NULL"), .mapper, .init("session_id", "bigint", "NOT NULL"),
        .init("sent_at", "timestamptz", "NOT NULL", check: .time), .init("state", "text", "NOT NULL"), .init("heard", "boolean", "NOT NULL"),
        .init("network_known", "boolean", "NOT NULL"),
        .init("node", "text"), .init("dev_eui", "text"), .init("f_cnt", "bigint"), .init("sf", "integer", check: .whole(PhysicalLimits.spreadingFactor)), .init("geom", Column.point, "NOT NULL", check: .place),
    ], primaryKey: ["db", "mapper", "id"], partitionedBy: "sent_at")

    public static let samples = CommunityTable(name: "mtt.samples", columns: [
        .init("db", "uuid", "NOT NULL"), .init("id", "bigint", "NOT NULL"), .mapper, .init("session_id", "bigint", "NOT NULL"),
        .init("time", "timestamptz", "NOT NULL", check: .time), .init("method", "text", "NOT NULL"), .init("geom", Column.point, "NOT NULL", check: .place),
        .init("network", "text", "NOT NULL DEFAULT ''"), .init("device_id", "text"), .init("dev_eui", "text"), .init("f_cnt", "bigint"),
        .init("sf", "integer", check: .whole(PhysicalLimits.spreadingFactor)), .init("frequency", "bigint"),
    ], primaryKey: ["db", "mapper", "id"], partitionedBy: "time")

    /// No foreign key to samples: its check per row cost more than the row; the aggregates'
    /// trigger joins each reception to its sample and refuses an orphan. `time` is its sample's:
    /// it keeps a reception in its sample's month, and finds the sample in that month's partition.
    public static let receptions = CommunityTable(name: "mtt.receptions", columns: [
        .init("db", "uuid", "NOT NULL"), .init("sample_id", "bigint", "NOT NULL"), .init("time", "timestamptz", "NOT NULL", since: 4),
        .init("n", "integer", "NOT NULL"), .mapper,
        .init("gateway", "text", "NOT NULL"), .init("gateway_eui", "text"), .init("antenna", "integer", "NOT NULL DEFAULT 0"),
        .init("rssi", "double precision", check: .within(PhysicalLimits.rssi)), .init("snr", "double precision", check: .within(PhysicalLimits.snr)),
        .init("gateway_geom", Column.point, check: .place),
    ], primaryKey: ["db", "mapper", "sample_id", "n"], partitionedBy: "time")

    public static let tracks = CommunityTable(name: "mtt.tracks", columns: [
        .init("db", "uuid", "NOT NULL"), .init("id", "bigint", "NOT NULL"), .mapper, .init("session_id", "bigint", "NOT NULL"),
        .init("time", "timestamptz", "NOT NULL", check: .time), .init("geom", Column.point, "NOT NULL", check: .place), .init("eph", "double precision"),
        .init("satellites", "integer"),
    ], primaryKey: ["db", "mapper", "id"], partitionedBy: "time")
}
