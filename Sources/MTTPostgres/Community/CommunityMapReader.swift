import MTTCore
import Synchronization

/// The community map's reads (`mtt serve --db postgresql://…`): the same cells, gateway rows,
/// reach and gateways as a local store gives, from the community database's views, as the map's
/// role (which may read the views and nothing else), in a read-only session.
///
/// A few connections, each one query at a time (libpq's way), a read going to the one with the
/// fewest waiting: with one, twenty viewers at once waited for each other's reads while the server
/// had cores idle. A connection the server dropped is made again on the next read.
public final class CommunityMapReader: CommunityCoverageReader {
    private let url: String
    /// Seconds a read may take, waiting for locks included, before the server cancels it and the
    /// map answers 503: behind another session's lock, requests hung 40 s and more.
    private let timeout: Double
    /// The connections (nil until first needed, or after the server dropped one) and the reads on each.
    private struct Pool {
        var connections: [PostgresConnection?]
        var reading: [Int]
    }
    private let pool: Mutex<Pool>
    /// Whether the database keeps the zoom-14 totals (schema version 6): a map of an older one
    /// sums its zoom-19 cells, as before.
    private let keepsCoarseCells: Bool
    /// Whether it keeps each antenna's totals (version 7).
    private let keepsAntennas: Bool
    /// Whether it keeps the totals without the silent gateways (version 8).
    private let keepsLately: Bool

    /// Connects and checks that this role may read the map's views: a wrong password, no server,
    /// no schema or a role without the right each stop here, in one line.
    public init(url: String, timeout: Double = 10, connections: Int = 4) throws(PostgresError) {
        self.url = url
        self.timeout = timeout
        let first = try Self.connect(url, timeout: timeout)
        let count = max(1, connections)
        pool = Mutex(Pool(connections: [first] + Array(repeating: nil, count: count - 1), reading: Array(repeating: 0, count: count)))
        do throws(PostgresError) {
            try first.execute("SELECT 1 FROM mtt.coverage_rows LIMIT 0; SELECT 1 FROM mtt.attempt_rows LIMIT 0; SELECT 1 FROM mtt.mappers LIMIT 0")
        } catch where error.state == "42P01" || error.state == "3F000" {
            throw PostgresError("this database has no community map (the views of schema mtt, version 2): run mtt community init on it", state: error.state)
        } catch where error.state == "42501" {
            throw PostgresError("role \(first.endpoint.user) may not read the community map (\(error.message)): mtt community grant-map makes a role that may", state: error.state)
        }
        let kept = try first.execute("""
            SELECT to_regclass('mtt.cells_z\(CommunityCoverageSQL.coarseZoom)') IS NOT NULL, to_regclass('mtt.antennas') IS NOT NULL,
                   to_regclass('mtt.lately_refreshed') IS NOT NULL
            """).rows.first
        keepsCoarseCells = kept?[0] == "t"
        keepsAntennas = kept?[1] == "t"
        keepsLately = kept?[2] == "t"
    }

    private static func connect(_ url: String, timeout: Double) throws(PostgresError) -> PostgresConnection {
        let c = try PostgresConnection(url)
        // Whatever role the URL names, this session writes nothing. And compiles nothing: the kept
        // map's query is estimated by its summing part (which does not run when the kept map
        // fits), which set off PostgreSQL's JIT: 37 ms of compiling in an 83 ms answer.
        try c.execute("SET default_transaction_read_only = on; SET jit = off")
        try c.limitStatements(to: timeout)
        return c
    }

    /// Runs a read on the connection with the fewest reads waiting, making it again once when the
    /// server had dropped it.
    private func rows(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
        let (slot, current) = pool.withLock { pool in
            let slot = pool.reading.indices.min { pool.reading[$0] < pool.reading[$1] } ?? 0
            pool.reading[slot] += 1
            return (slot, pool.connections[slot])
        }
        defer { pool.withLock { $0.reading[slot] -= 1 } }
        if let current, current.isOpen {
            do throws(PostgresError) {
                return try current.execute(sql, parameters).rows
            } catch where current.isOpen {
                throw error
            } catch {
                // Dropped during the read (a restarted server): once more on a new connection.
            }
        }
        let fresh = try Self.connect(url, timeout: timeout)
        pool.withLock { $0.connections[slot] = fresh }
        return try fresh.execute(sql, parameters).rows
    }

    // MARK: Coverage

    public func coverageCells(_ filter: CoverageFilter, zoom: Int, within range: TileRange?) throws -> [CoverageCell] {
        precondition((0...MapTile.cellZoom).contains(zoom))
        let shift = MapTile.cellZoom - zoom
        let sums = CommunityCoverageSQL.buckets.map { "sum(\($0))::bigint" }.joined(separator: ", ")
        var cells: [MapTile: CoverageCell] = [:]
        // Each cell's totals, at zoom 14 where the view is that coarse, else zoom 19: kept for all
        // gateways and SFs (mtt.cells, mtt.cells_z14), kept without the silent gateways
        // (`withoutSilent`), else summed from the rows the filter selects.
        let coarse = CommunityCoverageSQL.coarseZoom
        let unfiltered = filter == CoverageFilter()
        var noneHidden = filter
        noneHidden.hiddenGateways = []
        let withoutSilent = keepsLately && !unfiltered && noneHidden == CoverageFilter()
        let coordinates = keepsCoarseCells && (unfiltered || withoutSilent) && zoom <= coarse ? coarse : MapTile.cellZoom
        var heard = Condition(filter, range, gateway: true, coordinateZoom: coordinates)
        let summed = { (condition: Condition) in
            """
            SELECT x, y, \(CommunityCoverageSQL.buckets.map { "sum(\($0)) AS \($0)" }.joined(separator: ", ")), max(best) AS best,
                   count(DISTINCT gateway) AS gateways, min(first_at) AS first_at, max(last_at) AS last_at
            FROM mtt.coverage_rows WHERE \(condition.sql) GROUP BY x, y
            """
        }
        let perCell: String
        if withoutSilent {
            // The kept totals if they were made without the very gateways hidden here (the map's
            // silent gateways are the ones they were made without, read again every 30 s: a
            // refresh since then, or another number of days, makes them others), else the rows
            // summed. In one statement, so both parts read the same moment of the database.
            let kept = Condition(CoverageFilter(), range, gateway: false, coordinateZoom: coordinates)
            heard = Condition(filter, range, gateway: true, after: kept.parameters)
            let hidden = heard.parameter(DatabaseBatch.Statement.arrayLiteral(filter.hiddenGateways.sorted().map { Optional($0) }))
            let up = MapTile.cellZoom - coordinates
            let table = coordinates == coarse ? "mtt.coverage_totals_lately_z\(coarse)" : "mtt.coverage_totals_lately"
            perCell = """
                WITH made AS (SELECT COALESCE(array_agg(gateway), '{}') AS without FROM mtt.silent_gateways),
                     fits AS (SELECT without @> \(hidden)::text[] AND without <@ \(hidden)::text[] AS yes FROM made)
                SELECT x, y, \(CommunityCoverageSQL.buckets.joined(separator: ", ")), best, gateways, first_at, last_at
                FROM \(table) WHERE \(kept.sql) AND (SELECT yes FROM fits)
                UNION ALL
                SELECT x >> \(up), y >> \(up), \(CommunityCoverageSQL.buckets.map { "sum(\($0))" }.joined(separator: ", ")), max(best),
                       max(gateways), min(first_at), max(last_at)
                FROM (\(summed(heard))) z19 WHERE NOT (SELECT yes FROM fits) GROUP BY 1, 2
                """
        } else if !unfiltered {
            perCell = summed(heard)
        } else {
            perCell = coordinates == coarse ? "SELECT * FROM mtt.cells_z\(coarse) WHERE \(heard.sql)" : "SELECT * FROM mtt.cells WHERE \(heard.sql)"
        }
        for row in try rows("""
            WITH per_cell AS (\(perCell))
            SELECT x >> \(coordinates - zoom), y >> \(coordinates - zoom), \(sums), max(best), max(gateways), \(Self.micros("min(first_at)")), \(Self.micros("max(last_at)"))
            FROM per_cell GROUP BY 1, 2
            """, heard.parameters) {
            let values = Values(row)
            let tile = MapTile(zoom: zoom, x: values.int(0), y: values.int(1))
            let buckets = (0..<SignalBucket.allCases.count).map { values.int(2 + $0) }
            let n = 2 + buckets.count
            cells[tile] = CoverageCell(
                tile: tile, buckets: buckets, best: values.double(n), gateways: values.int(n + 1), attempts: 0, heardAttempts: 0,
                firstAt: values.time(n + 2), lastAt: values.time(n + 3), state: .heard)
        }
        heard = Condition(filter, range, gateway: false)
        for row in try rows("""
            SELECT x >> \(shift), y >> \(shift), sum(attempts), sum(heard), bool_or(network_known), \(Self.micros("min(first_at)")), \(Self.micros("max(last_at)"))
            FROM mtt.attempt_rows WHERE \(heard.sql) GROUP BY 1, 2
            """, heard.parameters) {
            let values = Values(row)
            // Estimated frames stay on the machine that heard the tracker: never uploaded.
            CoverageCell.add(
                attempts: values.int(2), heard: values.int(3), estimated: 0, networkKnown: values.bool(4), firstAt: values.time(5), lastAt: values.time(6),
                in: MapTile(zoom: zoom, x: values.int(0), y: values.int(1)), to: &cells)
        }
        return CoverageCell.inRows(cells)
    }

    public func forEachGatewayCell(
        _ filter: CoverageFilter, zoom: Int, within range: TileRange?, perSpreadingFactor: Bool, _ body: (GatewayCell) throws -> Void
    ) throws {
        precondition((0...MapTile.cellZoom).contains(zoom))
        let shift = MapTile.cellZoom - zoom
        let condition = Condition(filter, range, gateway: true)
        let sf = perSpreadingFactor ? "sf" : "NULL::integer"
        for row in try rows("""
            SELECT x >> \(shift) AS tx, y >> \(shift) AS ty, network, gateway, antenna, \(sf) AS s,
                   \(CommunityCoverageSQL.buckets.map { "sum(\($0))::bigint" }.joined(separator: ", ")),
                   max(best), \(Self.micros("min(first_at)")), \(Self.micros("max(last_at)"))
            FROM mtt.coverage_rows WHERE \(condition.sql)
            GROUP BY tx, ty, network, gateway, antenna, s ORDER BY ty, tx, gateway, network, antenna, s
            """, condition.parameters) {
            let values = Values(row)
            let n = 6 + SignalBucket.allCases.count
            try body(GatewayCell(
                tile: MapTile(zoom: zoom, x: values.int(0), y: values.int(1)), network: values.text(2), gateway: values.text(3),
                antenna: values.int(4), spreadingFactor: row[5].flatMap { Int($0) }, buckets: (6..<n).map(values.int),
                best: values.double(n), firstAt: values.time(n + 1), lastAt: values.time(n + 2)))
        }
    }

    /// Fitted to the cells (`CellObservations`): the map's role reads no receptions.
    public func predictionData(_ filter: CoverageFilter) throws -> [AntennaData] {
        var cells: [GatewayCell] = []
        try forEachGatewayCell(CoverageFilter(), zoom: MapTile.cellZoom, within: nil, perSpreadingFactor: true) { cells.append($0) }
        let unheard = try rows("""
            SELECT x, y, sf, sum(attempts - heard)::bigint FROM mtt.attempt_rows WHERE network_known AND attempts > heard GROUP BY x, y, sf
            """).map { row in
            let values = Values(row)
            return CellObservations.Unheard(tile: MapTile(zoom: MapTile.cellZoom, x: values.int(0), y: values.int(1)), spreadingFactor: values.int(2), count: values.int(3))
        }
        return CellObservations.antennaData(cells: cells, unheard: unheard, gateways: try coverageGateways(CoverageFilter()), only: filter.gateway)
    }

    /// As the database made them at its last refresh (`mtt.silent_gateways`), for the map's own
    /// number of days: the set the kept map was made without. Any other number, or a database
    /// that keeps none, from the antennas as they are now.
    public func silentGateways(days: Double) throws -> SilentGateways {
        guard keepsLately, days == SilentGateways.defaultDays else { return SilentGateways(try coverageGateways(CoverageFilter()), days: days) }
        var newest: Timestamp?
        var lastHeard: [String: Timestamp] = [:]
        for row in try rows("SELECT gateway, \(Self.micros("last_at")), \(Self.micros("newest")) FROM mtt.silent_gateways") {
            let values = Values(row)
            lastHeard[values.text(0)] = values.time(1)
            newest = values.time(2)
        }
        return SilentGateways(days: days, newest: newest, lastHeard: lastHeard)
    }

    public func reach(gateway: String?) throws -> [GatewayReach] {
        var reaches: [GatewayReach] = []
        for row in try rows("""
            SELECT b.network, b.gateway, b.antenna, ST_Y(g.geom), ST_X(g.geom), b.level, b.bearing, b.samples, b.distance_max, b.distance_2nd
            FROM mtt.reach_beams b JOIN mtt.gateways g ON g.network = b.network AND g.gateway = b.gateway AND g.antenna = b.antenna
            WHERE $1::text IS NULL OR b.gateway = $1
            ORDER BY b.gateway, b.network, b.antenna, b.level, b.bearing
            """, [gateway]) {
            let values = Values(row)
            let beam = GatewayReach.Beam(
                level: ReachLevel(rawValue: values.int(5)) ?? .any, bearing: values.int(6), samples: values.int(7),
                farthest: values.double(8), secondFarthest: values.double(9))
            if let last = reaches.last, last.network == values.text(0), last.gateway == values.text(1), last.antenna == values.int(2) {
                reaches[reaches.count - 1].beams.append(beam)
            } else {
                reaches.append(GatewayReach(
                    network: values.text(0), gateway: values.text(1), antenna: values.int(2),
                    position: GeoPoint(latitude: values.double(3), longitude: values.double(4)), beams: [beam]))
            }
        }
        return reaches
    }

    /// Gateways as a local store lists them, but a gateway that publishes no position has none
    /// here: estimating it takes the samples, which the map's role may not read.
    public func coverageGateways(_ filter: CoverageFilter) throws -> [CoverageSummary.Gateway] {
        // Unfiltered, each antenna's totals as kept (version 7); else summed from the cells.
        let kept = keepsAntennas && filter == CoverageFilter()
        let condition = kept ? Condition(CoverageFilter(), nil, gateway: false) : Condition(filter, nil, gateway: true)
        let heard = kept ? "SELECT * FROM mtt.antennas" : """
            SELECT network, gateway, antenna, count(DISTINCT (x, y)) AS cells,
                   sum(\(CommunityCoverageSQL.buckets.joined(separator: " + "))) AS receptions, max(best) AS best,
                   min(first_at) AS first_at, max(last_at) AS last_at
            FROM mtt.coverage_rows WHERE \(condition.sql) GROUP BY network, gateway, antenna
            """
        return try rows("""
            WITH heard AS (\(heard))
            SELECT h.network, h.gateway, h.antenna, h.cells, h.receptions, h.best, \(Self.micros("h.first_at")), \(Self.micros("h.last_at")),
                   ST_Y(g.geom), ST_X(g.geom), f.distance_max, f.bearing, ST_Y(f.geom), ST_X(f.geom), \(Self.micros("f.max_at"))
            FROM heard h
            LEFT JOIN mtt.gateways g ON g.network = h.network AND g.gateway = h.gateway AND g.antenna = h.antenna
            LEFT JOIN LATERAL (
                SELECT distance_max, bearing, geom, max_at FROM mtt.reach_beams b
                WHERE b.network = h.network AND b.gateway = h.gateway AND b.antenna = h.antenna
                ORDER BY distance_max DESC, max_at, level, bearing LIMIT 1) f ON true
            ORDER BY h.cells DESC, h.gateway
            """, condition.parameters).map { row in
            let values = Values(row)
            let position = row[8] == nil ? nil : GeoPoint(latitude: values.double(8), longitude: values.double(9))
            return CoverageSummary.Gateway(
                network: values.text(0), gateway: values.text(1), antenna: values.int(2), cells: values.int(3), receptions: values.int(4),
                best: values.double(5), firstHeard: values.time(6), lastHeard: values.time(7), position: position, estimated: false,
                farthest: row[10] == nil ? nil : .init(
                    metres: values.double(10), bearing: values.double(11), at: GeoPoint(latitude: values.double(12), longitude: values.double(13)),
                    time: values.time(14)))
        }
    }

    public func communityStatus() throws -> CommunityStatus {
        let mappers = try rows("SELECT mapper, sessions, attempts, heard, samples, \(Self.micros("last_record")) FROM mtt.mappers ORDER BY mapper").map { row in
            let values = Values(row)
            return CommunityStatus.Mapper(
                name: values.text(0), sessions: values.int(1), attempts: values.int(2), heard: values.int(3), samples: values.int(4),
                lastRecord: row[5] == nil ? nil : values.time(5))
        }
        let area = Values(try rows("""
            WITH heard AS (SELECT DISTINCT x, y FROM mtt.coverage_rows),
                 mapped AS (SELECT x, y FROM heard UNION SELECT x, y FROM mtt.attempt_rows)
            SELECT (SELECT count(*) FROM mapped), (SELECT count(*) FROM heard),
                   (SELECT count(*) FROM (SELECT DISTINCT network, gateway FROM mtt.coverage_rows) g),
                   min(x), min(y), max(x), max(y) FROM mapped
            """).first ?? [])
        var bounds: [Double]?
        if area.row.count == 7, area.row[3] != nil {
            // The outer edges of the outermost cells: west, south, east, north.
            let northWest = MapTile(zoom: MapTile.cellZoom, x: area.int(3), y: area.int(4)).ring
            let southEast = MapTile(zoom: MapTile.cellZoom, x: area.int(5), y: area.int(6)).ring
            bounds = [
                northWest.map(\.longitude).min()!, southEast.map(\.latitude).min()!,
                southEast.map(\.longitude).max()!, northWest.map(\.latitude).max()!,
            ]
        }
        var status = CommunityStatus(mappers: mappers, cells: area.int(0), heardCells: area.int(1), gateways: area.int(2), bounds: bounds, replica: try replica())
        if keepsLately, let asOf = try rows("SELECT \(Self.micros("as_of")) FROM mtt.lately_refreshed").first {
            status.withoutSilentAsOf = RFC3339.string(Values(asOf).time(0), fractionDigits: 0)
        }
        return status
    }

    /// On a standby, how far behind the primary its copy is, as the standby reports it; nil on
    /// the primary. Caught up once it has replayed all it received ("at most", not "equal": the
    /// receiver's position can be the start of the WAL segment it streams from, short of the last
    /// record replayed).
    public func replica() throws -> CommunityStatus.Replica? {
        let row = Values(try rows("""
            SELECT pg_is_in_recovery(),
                   CASE WHEN pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn() THEN 0
                        ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END,
                   \(Self.micros("pg_last_xact_replay_timestamp()"))
            """).first ?? [])
        guard row.row.count == 3, row.bool(0) else { return nil }
        return CommunityStatus.Replica(lagSeconds: row.row[1].flatMap(Double.init), replayedAt: row.row[2] == nil ? nil : row.time(2))
    }

    /// The standbys streaming from this server, as `pg_stat_replication` shows them to this role
    /// (their state and lag only to a superuser or a member of pg_monitor); empty on a standby.
    public func standbys() throws -> [(name: String, state: String?, replayLag: Double?)] {
        try rows("SELECT application_name, state, extract(epoch FROM replay_lag) FROM pg_stat_replication ORDER BY application_name").map { row in
            (row[0] ?? "", row[1], row[2].flatMap(Double.init))
        }
    }

    /// A timestamptz as microseconds since 1970 (PostgreSQL keeps microseconds).
    private static func micros(_ expression: String) -> String {
        "(extract(epoch FROM \(expression)) * 1000000)::bigint"
    }

    /// The filter and tile range as a condition on the aggregates' rows. A community map has no
    /// sessions and no time window: those the server refuses before asking.
    private struct Condition {
        var sql = "true"
        var parameters: [String?] = []

        /// `coordinateZoom`: the zoom of the rows' x and y. `after`: the parameters of the same
        /// statement before this condition's.
        init(_ filter: CoverageFilter, _ range: TileRange?, gateway: Bool, coordinateZoom: Int = MapTile.cellZoom, after: [String?] = []) {
            parameters = after
            if let range {
                let k = coordinateZoom - range.zoom
                add([range.minX << k, ((range.maxX + 1) << k) - 1]) { "x BETWEEN \($0[0]) AND \($0[1])" }
                add([range.minY << k, ((range.maxY + 1) << k) - 1]) { "y BETWEEN \($0[0]) AND \($0[1])" }
            }
            if let sf = filter.spreadingFactor { add([sf]) { "sf = \($0[0])" } }
            if gateway, let name = filter.gateway { add([name]) { "gateway = \($0[0])" } }
            if gateway, !filter.hiddenGateways.isEmpty {
                add(filter.hiddenGateways.sorted()) { "gateway NOT IN (\($0.joined(separator: ", ")))" }
            }
        }

        /// Adds a clause; it gets the placeholders (`$n`) of `values`.
        private mutating func add(_ values: [any CustomStringConvertible], _ clause: ([String]) -> String) {
            sql += " AND " + clause(values.map { parameter($0.description) })
        }

        /// A parameter of the statement; its placeholder.
        mutating func parameter(_ value: String?) -> String {
            parameters.append(value)
            return "$\(parameters.count)"
        }
    }

    /// A row's values, read as the types the query made them.
    private struct Values {
        let row: [String?]
        init(_ row: [String?]) { self.row = row }
        func text(_ i: Int) -> String { row[i] ?? "" }
        func int(_ i: Int) -> Int { row[i].flatMap { Int($0) } ?? 0 }
        func double(_ i: Int) -> Double { row[i].flatMap { Double($0) } ?? 0 }
        func bool(_ i: Int) -> Bool { row[i] == "t" }
        func time(_ i: Int) -> Timestamp { Timestamp(nanosecondsSinceEpoch: Int64(row[i] ?? "0").map { $0 * 1000 } ?? 0) }
    }
}
