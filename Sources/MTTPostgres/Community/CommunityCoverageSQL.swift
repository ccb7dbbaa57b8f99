import MTTCore

/// The coverage rules of MTTCore as SQL functions and triggers, so the community database keeps
/// the same cells, buckets, attempts and reach as every mapper's SQLite: the constants (zoom,
/// bucket edges, levels, the 200 km rule, the earth's radius) come from MTTCore's own types, and
/// the formulas are theirs, written once more in SQL (`MapTile`, `SignalBucket`, `ReachLevel`,
/// `CoverageRules`, `GeoPoint.distance`/`bearing`). The tests hold the two to the same cells.
enum CommunityCoverageSQL {
    static let buckets = SignalBucket.allCases.map { "b_\($0.name)" }

    static var functions: String {
        let n = 1 << MapTile.cellZoom
        let levels = ReachLevel.allCases.compactMap { level in level.threshold.map { "WHEN s > \($0.plainText) THEN \(level.rawValue)" } }
        return """
            CREATE OR REPLACE FUNCTION mtt.tile_x(lon double precision) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT LEAST(GREATEST(floor((lon + 180) / 360 * \(n))::integer, 0), \(n - 1))
            $$;
            CREATE OR REPLACE FUNCTION mtt.tile_y(lat double precision) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT LEAST(GREATEST(floor((1 - ln(tan(radians(LEAST(GREATEST(lat, -\(MapTile.maximumLatitude)), \(MapTile.maximumLatitude))))
                    + 1 / cos(radians(LEAST(GREATEST(lat, -\(MapTile.maximumLatitude)), \(MapTile.maximumLatitude))))) / pi()) / 2 * \(n))::integer, 0), \(n - 1))
            $$;
            -- A zoom-19 tile's outline, for QGIS.
            CREATE OR REPLACE FUNCTION mtt.tile_polygon(x integer, y integer) RETURNS geometry LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT ST_MakeEnvelope(x / \(Double(n)) * 360 - 180, degrees(atan(sinh(pi() * (1 - 2 * (y + 1) / \(Double(n)))))),
                                       (x + 1) / \(Double(n)) * 360 - 180, degrees(atan(sinh(pi() * (1 - 2 * y / \(Double(n)))))), 4326)
            $$;
            CREATE OR REPLACE FUNCTION mtt.bucket(s double precision) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT CASE WHEN s > -95 THEN \(SignalBucket.high.rawValue) WHEN s <= -145 THEN \(SignalBucket.low.rawValue)
                            ELSE LEAST(GREATEST(floor((-95 - s) / 5)::integer + 1, 1), 10) END
            $$;
            CREATE OR REPLACE FUNCTION mtt.reach_level(s double precision) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT CASE \(levels.joined(separator: " ")) ELSE \(ReachLevel.any.rawValue) END
            $$;
            -- Haversine over the same sphere as GeoPoint.distance, in metres; NULL for a gateway that
            -- keeps its position to itself. (Clamped to 1 by h / GREATEST(1, h), not LEAST(1, h):
            -- LEAST skips a NULL, and made every such gateway 20,015 km away, "farther than 200 km".
            -- Written twice rather than in a subquery: a function with a FROM is not inlined.)
            CREATE OR REPLACE FUNCTION mtt.distance(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
            RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT 2 * \(GeoPoint.earthRadius) * asin(\(haversine) / GREATEST(1, \(haversine)))
            $$;
            -- The initial bearing, as GeoPoint.bearing: azimuth in degrees (-180…180], then whole
            -- degrees 0…359. Two functions, each inlined where its arguments are plain columns (one
            -- function over both was not, and ran as a call per reception).
            CREATE OR REPLACE FUNCTION mtt.azimuth(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
            RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT degrees(atan2(sin(radians(lon2 - lon1)) * cos(radians(lat2)),
                       cos(radians(lat1)) * sin(radians(lat2)) - sin(radians(lat1)) * cos(radians(lat2)) * cos(radians(lon2 - lon1))))
            $$;
            CREATE OR REPLACE FUNCTION mtt.whole_degrees(t double precision) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT CASE WHEN t < 0 THEN CASE WHEN t + 360 >= 360 THEN 0 ELSE floor(t + 360)::integer END
                            WHEN t >= 360 THEN 0 ELSE floor(t)::integer END
            $$;
            CREATE OR REPLACE FUNCTION mtt.bearing(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
            RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT mtt.whole_degrees(mtt.azimuth(lat1, lon1, lat2, lon2))
            $$;
            -- Why a reception does not count (CoverageRules.leftOut), or NULL; d is the distance to the
            -- gateway's position, NULL when it keeps it to itself.
            CREATE OR REPLACE FUNCTION mtt.left_out(lat double precision, lon double precision, rssi double precision, d double precision)
            RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT CASE
                    WHEN lat IS NULL OR lon IS NULL OR abs(lat) > 85 OR (lat = 0 AND lon = 0) THEN \(lit(.position))
                    WHEN rssi IS NULL THEN \(lit(.noSignal))
                    WHEN d IS NULL THEN NULL
                    WHEN d = 0 THEN \(lit(.atTheGateway))
                    WHEN d > \(CoverageRules.farthestReception.plainText) THEN \(lit(.tooFar))
                END
            $$;
            """
    }

    /// sqrt of the haversine of the two points' angle.
    private static let haversine = "sqrt(sin(radians(lat2 - lat1) / 2) ^ 2 + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lon2 - lon1) / 2) ^ 2)"

    private static func lit(_ reason: CoverageRules.LeftOut) -> String { "'\(reason.rawValue)'" }

    /// Each zoom-19 cell's totals over gateways, antennas and SFs, and the gateways that heard in
    /// it (which count its gateways). The first migration makes them in a database created now;
    /// the second makes them where an earlier mtt's first migration did not, and fills them again
    /// from the cells (`rebuildTotals`).
    static var totalsTables: String {
        """
        CREATE TABLE IF NOT EXISTS mtt.coverage_totals (
            x integer NOT NULL, y integer NOT NULL, \(buckets.map { "\($0) integer NOT NULL DEFAULT 0" }.joined(separator: ", ")),
            best double precision NOT NULL, gateways integer NOT NULL, first_at timestamptz NOT NULL, last_at timestamptz NOT NULL,
            PRIMARY KEY (x, y)
        );
        CREATE TABLE IF NOT EXISTS mtt.coverage_cell_gateways (
            x integer NOT NULL, y integer NOT NULL, gateway text NOT NULL, PRIMARY KEY (x, y, gateway)
        );
        """
    }

    /// The zoom of the coarser totals (schema version 6): a 256-pixel tile's cells at map zoom 9.
    static let coarseZoom = 14

    /// Each zoom-14 cell's totals (some 1.2 km a side), as the zoom-19 cells' add up: what the map
    /// reads zoomed out, where summing a country's zoom-19 cells took most of a second a view.
    /// `gateways` is the most any of its zoom-19 cells has, as the map's sum over cells gives it.
    static var coarseTotals: String {
        let shift = MapTile.cellZoom - coarseZoom
        return """
            CREATE TABLE mtt.coverage_totals_z\(coarseZoom) (
                x integer NOT NULL, y integer NOT NULL, \(buckets.map { "\($0) integer NOT NULL DEFAULT 0" }.joined(separator: ", ")),
                best double precision NOT NULL, gateways integer NOT NULL, first_at timestamptz NOT NULL, last_at timestamptz NOT NULL,
                PRIMARY KEY (x, y)
            );
            INSERT INTO mtt.coverage_totals_z\(coarseZoom) (x, y, \(buckets.joined(separator: ", ")), best, gateways, first_at, last_at)
            SELECT x >> \(shift), y >> \(shift), \(buckets.map { "sum(\($0))" }.joined(separator: ", ")), max(best), max(gateways), min(first_at), max(last_at)
            FROM mtt.coverage_totals GROUP BY 1, 2;
            """
    }

    /// Each gateway antenna's cells and totals (schema version 7), filled from the cells: what the
    /// gateway list and the silent gateways read, where counting each antenna's distinct cells over
    /// a country's 8.7 million cell rows took 13.6 s a request.
    static var antennaTotals: String {
        """
        CREATE TABLE mtt.coverage_antenna_cells (
            x integer NOT NULL, y integer NOT NULL, network text NOT NULL, gateway text NOT NULL, antenna integer NOT NULL,
            PRIMARY KEY (x, y, network, gateway, antenna)
        );
        INSERT INTO mtt.coverage_antenna_cells SELECT DISTINCT x, y, network, gateway, antenna FROM mtt.coverage_cells;
        CREATE TABLE mtt.coverage_antennas (
            network text NOT NULL, gateway text NOT NULL, antenna integer NOT NULL, cells bigint NOT NULL, receptions bigint NOT NULL,
            best double precision NOT NULL, first_at timestamptz NOT NULL, last_at timestamptz NOT NULL,
            PRIMARY KEY (network, gateway, antenna)
        );
        INSERT INTO mtt.coverage_antennas
        SELECT network, gateway, antenna, count(DISTINCT (x, y)), sum(\(buckets.joined(separator: " + "))), max(best), min(first_at), max(last_at)
        FROM mtt.coverage_cells GROUP BY 1, 2, 3;
        """
    }

    /// The cells' totals without the gateways silent for `SilentGateways.defaultDays` (schema
    /// version 8): what the map shows by default, kept as PostgreSQL materialized views, made again
    /// by `mtt.refresh_lately()` at the end of each mapper's sync. Summing a country's cell rows
    /// for it took 834 ms a view at 1.2 million samples (287 of 561 gateways silent), its views
    /// 2.7 ms. `silent_gateways` is the set they were made without, by the rule of
    /// `SilentGateways` (each gateway's newest reception over its antennas, strictly before the
    /// newest of all less the days), each row with that newest: the community map's silent
    /// gateways, so that its default view, its faded cells and its gateway list are all as of the
    /// same refresh (a map that waits for no sum, while mappers' syncs go on, is worth minutes of
    /// age; `mtt community status` and the page say the time).
    static var latelyTotals: String {
        let coarse = coarseZoom, shift = MapTile.cellZoom - coarseZoom
        let seconds = Int(SilentGateways.defaultDays * 86_400)
        return """
            CREATE MATERIALIZED VIEW mtt.silent_gateways AS
                WITH g AS (SELECT gateway, max(last_at) AS last_at FROM mtt.coverage_antennas GROUP BY gateway)
                SELECT gateway, last_at, (SELECT max(last_at) FROM g) AS newest FROM g
                WHERE last_at < (SELECT max(last_at) FROM g) - interval '\(seconds) seconds';
            CREATE UNIQUE INDEX silent_gateways_key ON mtt.silent_gateways (gateway);
            CREATE MATERIALIZED VIEW mtt.coverage_totals_lately AS
                SELECT x, y, \(buckets.map { "sum(\($0))::integer AS \($0)" }.joined(separator: ", ")), max(best) AS best,
                       count(DISTINCT gateway)::integer AS gateways, min(first_at) AS first_at, max(last_at) AS last_at
                FROM mtt.coverage_cells WHERE gateway NOT IN (SELECT gateway FROM mtt.silent_gateways) GROUP BY x, y;
            CREATE UNIQUE INDEX coverage_totals_lately_key ON mtt.coverage_totals_lately (x, y);
            CREATE MATERIALIZED VIEW mtt.coverage_totals_lately_z\(coarse) AS
                SELECT x >> \(shift) AS x, y >> \(shift) AS y, \(buckets.map { "sum(\($0))::integer AS \($0)" }.joined(separator: ", ")),
                       max(best) AS best, max(gateways) AS gateways, min(first_at) AS first_at, max(last_at) AS last_at
                FROM mtt.coverage_totals_lately GROUP BY 1, 2;
            CREATE UNIQUE INDEX coverage_totals_lately_z\(coarse)_key ON mtt.coverage_totals_lately_z\(coarse) (x, y);
            CREATE TABLE mtt.lately_refreshed (
                only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), as_of timestamptz NOT NULL, seconds double precision NOT NULL
            );
            INSERT INTO mtt.lately_refreshed (as_of, seconds) VALUES (now(), 0);
            -- Syncs ending at once wait for one another here, and one whose records the running
            -- refresh already read (it began after this call did) waits for it and is done: fifty
            -- mappers finishing together cost two refreshes, not fifty. CONCURRENTLY: the map reads
            -- the views as they were meanwhile, on the primary and on its standbys.
            CREATE FUNCTION mtt.refresh_lately() RETURNS timestamptz LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $$
            DECLARE
                asked timestamptz := clock_timestamp();
                started timestamptz;
            BEGIN
                PERFORM pg_advisory_xact_lock(hashtext('mtt refresh lately'));
                SELECT as_of INTO started FROM mtt.lately_refreshed;
                IF started >= asked THEN RETURN started; END IF;
                started := clock_timestamp();
                REFRESH MATERIALIZED VIEW CONCURRENTLY mtt.silent_gateways;
                REFRESH MATERIALIZED VIEW CONCURRENTLY mtt.coverage_totals_lately;
                REFRESH MATERIALIZED VIEW CONCURRENTLY mtt.coverage_totals_lately_z\(coarse);
                UPDATE mtt.lately_refreshed SET as_of = started, seconds = extract(epoch FROM clock_timestamp() - started);
                RETURN started;
            END $$;
            """
    }

    /// The totals made again from the cells.
    static var rebuildTotals: String {
        """
        DELETE FROM mtt.coverage_cell_gateways;
        INSERT INTO mtt.coverage_cell_gateways (x, y, gateway) SELECT DISTINCT x, y, gateway FROM mtt.coverage_cells;
        DELETE FROM mtt.coverage_totals;
        INSERT INTO mtt.coverage_totals (x, y, \(buckets.joined(separator: ", ")), best, gateways, first_at, last_at)
        SELECT x, y, \(buckets.map { "sum(\($0))" }.joined(separator: ", ")), max(best), count(DISTINCT gateway), min(first_at), max(last_at)
        FROM mtt.coverage_cells GROUP BY x, y;
        """
    }

    /// Receptions per bucket among a group of `rows`.
    private static var bucketCounts: String {
        SignalBucket.allCases.map { "count(*) FILTER (WHERE bucket = \($0.rawValue))" }.joined(separator: ", ")
    }

    /// The aggregates, over every mapper: what the map and QGIS read.
    static var tables: String {
        """
        CREATE TABLE mtt.coverage_cells (
            x integer NOT NULL, y integer NOT NULL, network text NOT NULL, gateway text NOT NULL, antenna integer NOT NULL, sf integer NOT NULL,
            \(buckets.map { "\($0) integer NOT NULL DEFAULT 0" }.joined(separator: ", ")),
            best double precision NOT NULL, first_at timestamptz NOT NULL, last_at timestamptz NOT NULL,
            PRIMARY KEY (x, y, network, gateway, antenna, sf)
        );
        CREATE INDEX coverage_cells_by_gateway ON mtt.coverage_cells (gateway);
        CREATE TABLE mtt.coverage_attempts (
            x integer NOT NULL, y integer NOT NULL, sf integer NOT NULL, attempts integer NOT NULL, heard integer NOT NULL,
            network_known boolean NOT NULL, first_at timestamptz NOT NULL, last_at timestamptz NOT NULL,
            PRIMARY KEY (x, y, sf)
        );
        CREATE TABLE mtt.coverage_left_out (
            gateway text NOT NULL, reason text NOT NULL, receptions integer NOT NULL, PRIMARY KEY (gateway, reason)
        );
        CREATE TABLE mtt.coverage_reach (
            network text NOT NULL, gateway text NOT NULL, antenna integer NOT NULL, level integer NOT NULL, bearing integer NOT NULL,
            samples integer NOT NULL, distance_max double precision NOT NULL, distance_2nd double precision NOT NULL,
            max_geom geometry(Point, 4326) NOT NULL, max_at timestamptz NOT NULL,
            PRIMARY KEY (network, gateway, antenna, level, bearing)
        );
        \(totalsTables)
        \(gatewayReports)
        """
    }

    /// Each mapper's newest report of where each gateway antenna is: the votes that place it
    /// (`mtt.gateway_positions`).
    static var gatewayReports: String {
        """
        CREATE TABLE IF NOT EXISTS mtt.gateway_reports (
            network text NOT NULL, gateway text NOT NULL, antenna integer NOT NULL, mapper name NOT NULL,
            geom geometry(Point, 4326) NOT NULL, first_at timestamptz NOT NULL, reported_at timestamptz NOT NULL,
            PRIMARY KEY (network, gateway, antenna, mapper)
        );
        """
    }

    /// Each INSERT of receptions or attempts changes the aggregates in its own transaction, for
    /// all its rows at once: statement-level triggers over the rows the statement really
    /// inserted (a transition table: rows a repeat skipped with `ON CONFLICT DO NOTHING` are not
    /// in it, so nothing is counted twice), summed per cell, beam and gateway as mtt's own
    /// accumulator sums a transaction. A trigger per row cost 1,300 records/s. The functions run
    /// as their owner: mappers can write no aggregate themselves.
    ///
    /// Each upsert takes its rows in key order, so uploads at once (several mappers) lock the
    /// aggregates' rows in the same order and never deadlock on them.
    ///
    /// The plans: each step over the statement's rows is materialized, so the formulas see plain
    /// columns and PostgreSQL inlines them (over expressions it called each as a function, a row
    /// at a time); and a reception finds its sample by the primary key, never by reading the
    /// samples: the statistics of tables being filled lag behind them (autovacuum analyzes them
    /// later), and the plan made on them hashed the whole table for every batch: 60 % of an
    /// upload's time, growing with the table.
    ///
    /// As each schema `version` has them: from version 4 the raw tables are kept a month a
    /// partition, a reception carries its sample's time, and the lookup by it reads that month's
    /// partition only; from version 6 the cells' totals are kept at zoom 14 as well
    /// (`coarseTotals`); from version 7 each antenna's (`antennaTotals`); from version 8 they
    /// compile nothing: once the tables hold a million samples, the planner's estimate of each
    /// batch's statement passed PostgreSQL's JIT threshold, and compiling its 218 expressions took
    /// 275 ms of the statement's 345 (a mapper's upload into 1.2 M samples: 1,472 records/s); and
    /// each total that counts what another part of the statement added (a cell's new gateways, a
    /// zoom-14 cell's most gateways, an antenna's new cells) adds it up with the rows in one
    /// grouping, not a join: the nested loops the settings above force ran those joins once per
    /// reception over the other part (1,470 × 380 rows), 250 ms of a 448 ms statement.
    static func triggerFunctions(version: Int) -> String {
        let sameMonth = version >= 4 ? " AND s.time = r.time" : ""
        let compiled = version >= 8 ? " SET jit = off" : ""
        let shift = MapTile.cellZoom - coarseZoom
        let coarse = version < 6 ? "" : """
            ,
            -- The same at zoom 14, what a map zoomed out reads: sums added, and the most gateways
            -- any of its cells has now (which only grows).
            coarse AS (
                INSERT INTO mtt.coverage_totals_z\(coarseZoom) AS t (x, y, \(buckets.joined(separator: ", ")), best, gateways, first_at, last_at)
                \(version >= 8 ? """
                SELECT x >> \(shift), y >> \(shift), \(bucketCounts), max(signal), COALESCE(max(gateways), 0), min(time), max(time)
                FROM (SELECT x, y, bucket, signal, time, NULL::integer AS gateways FROM rows WHERE why IS NULL
                      UNION ALL SELECT x, y, NULL, NULL, NULL, gateways FROM totals) u
                GROUP BY 1, 2 ORDER BY 1, 2
                """ : """
                SELECT r.x >> \(shift), r.y >> \(shift), \(bucketCounts), max(signal), COALESCE(max(g.gateways), 0), min(time), max(time)
                FROM rows r LEFT JOIN totals g ON g.x = r.x AND g.y = r.y
                WHERE why IS NULL GROUP BY 1, 2 ORDER BY 1, 2
                """)
                ON CONFLICT (x, y) DO UPDATE SET
                    \(buckets.map { "\($0) = t.\($0) + excluded.\($0)" }.joined(separator: ", ")), gateways = GREATEST(t.gateways, excluded.gateways),
                    best = GREATEST(t.best, excluded.best), first_at = LEAST(t.first_at, excluded.first_at), last_at = GREATEST(t.last_at, excluded.last_at))
            """
        let antennas = version < 7 ? "" : """
            ,
            -- Each antenna's cells and totals, what the gateway list and the silent gateways read
            -- (version 7): a cell counted once an antenna is first heard in it.
            antenna_cells AS (
                INSERT INTO mtt.coverage_antenna_cells (x, y, network, gateway, antenna)
                SELECT DISTINCT x, y, network, gateway, antenna FROM rows WHERE why IS NULL ORDER BY 1, 2, 3, 4, 5
                ON CONFLICT DO NOTHING RETURNING network, gateway, antenna),
            antennas AS (
                INSERT INTO mtt.coverage_antennas AS a (network, gateway, antenna, cells, receptions, best, first_at, last_at)
                \(version >= 8 ? """
                SELECT network, gateway, antenna, count(*) FILTER (WHERE new_cell), count(*) FILTER (WHERE NOT new_cell), max(signal), min(time), max(time)
                FROM (SELECT network, gateway, antenna, signal, time, false AS new_cell FROM rows WHERE why IS NULL
                      UNION ALL SELECT network, gateway, antenna, NULL, NULL, true FROM antenna_cells) u
                GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                """ : """
                SELECT r.network, r.gateway, r.antenna, COALESCE(max(n.cells), 0), count(*), max(signal), min(time), max(time)
                FROM rows r LEFT JOIN (SELECT network, gateway, antenna, count(*) AS cells FROM antenna_cells GROUP BY 1, 2, 3) n
                     ON n.network = r.network AND n.gateway = r.gateway AND n.antenna = r.antenna
                WHERE why IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                """)
                ON CONFLICT (network, gateway, antenna) DO UPDATE SET
                    cells = a.cells + excluded.cells, receptions = a.receptions + excluded.receptions, best = GREATEST(a.best, excluded.best),
                    first_at = LEAST(a.first_at, excluded.first_at), last_at = GREATEST(a.last_at, excluded.last_at))
            """
        return """
        CREATE OR REPLACE FUNCTION mtt.count_receptions() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = mtt, public SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off\(compiled) AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM new_rows r WHERE NOT EXISTS (SELECT 1 FROM mtt.samples s WHERE s.db = r.db AND s.mapper = r.mapper AND s.id = r.sample_id\(sameMonth))) THEN
                RAISE EXCEPTION 'receptions of samples that are not stored' USING ERRCODE = 'foreign_key_violation';
            END IF;
            -- One statement (no temporary table, which a mapper's session could have shadowed).
            WITH located AS MATERIALIZED (
                SELECT r.sample_id, r.n, r.mapper, s.network, r.gateway, r.antenna, COALESCE(s.sf, 0) AS sf, s.time, s.geom,
                       ST_Y(s.geom) AS lat, ST_X(s.geom) AS lon, ST_Y(r.gateway_geom) AS glat, ST_X(r.gateway_geom) AS glon,
                       r.rssi, r.rssi + LEAST(COALESCE(r.snr, 0), 0) AS signal
                FROM new_rows r JOIN mtt.samples s ON s.db = r.db AND s.mapper = r.mapper AND s.id = r.sample_id\(sameMonth)),
            -- Each rule and formula once per reception.
            measured AS MATERIALIZED (
                SELECT *, mtt.distance(glat, glon, lat, lon) AS d, mtt.azimuth(glat, glon, lat, lon) AS azimuth FROM located),
            rows AS MATERIALIZED (
                SELECT *, mtt.left_out(lat, lon, rssi, d) AS why, mtt.bucket(signal) AS bucket, mtt.tile_x(lon) AS x, mtt.tile_y(lat) AS y
                FROM measured),
            -- Where each gateway antenna said it is, as this mapper heard it last (its vote below);
            -- since when this mapper says so by the database's clock, which no mapper can set.
            reports AS (
                INSERT INTO mtt.gateway_reports AS g (network, gateway, antenna, mapper, geom, first_at, reported_at)
                SELECT DISTINCT ON (network, gateway, antenna, mapper) network, gateway, antenna, mapper,
                       ST_SetSRID(ST_MakePoint(glon, glat), 4326), now(), time
                FROM rows WHERE glat IS NOT NULL ORDER BY network, gateway, antenna, mapper, time DESC
                ON CONFLICT (network, gateway, antenna, mapper) DO UPDATE SET
                    first_at = CASE WHEN ST_Equals(g.geom, excluded.geom) THEN g.first_at ELSE excluded.first_at END,
                    geom = excluded.geom, reported_at = excluded.reported_at
                WHERE excluded.reported_at >= g.reported_at),
            left_out AS (
                INSERT INTO mtt.coverage_left_out AS o (gateway, reason, receptions)
                SELECT gateway, why, count(*) FROM rows WHERE why IS NOT NULL GROUP BY gateway, why ORDER BY 1, 2
                ON CONFLICT (gateway, reason) DO UPDATE SET receptions = o.receptions + excluded.receptions),
            cells AS (
                INSERT INTO mtt.coverage_cells AS c (x, y, network, gateway, antenna, sf, \(buckets.joined(separator: ", ")), best, first_at, last_at)
                SELECT x, y, network, gateway, antenna, sf, \(bucketCounts), max(signal), min(time), max(time)
                FROM rows WHERE why IS NULL GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
                ON CONFLICT (x, y, network, gateway, antenna, sf) DO UPDATE SET
                    \(buckets.map { "\($0) = c.\($0) + excluded.\($0)" }.joined(separator: ", ")),
                    best = GREATEST(c.best, excluded.best), first_at = LEAST(c.first_at, excluded.first_at), last_at = GREATEST(c.last_at, excluded.last_at)),
            -- Each cell's totals over gateways and SFs, what a map without a filter reads: the sums
            -- added, the gateways counted by the gateways new to the cell.
            new_gateways AS (
                INSERT INTO mtt.coverage_cell_gateways (x, y, gateway)
                SELECT DISTINCT x, y, gateway FROM rows WHERE why IS NULL ORDER BY 1, 2, 3
                ON CONFLICT DO NOTHING RETURNING x, y),
            totals AS (
                INSERT INTO mtt.coverage_totals AS t (x, y, \(buckets.joined(separator: ", ")), best, gateways, first_at, last_at)
                \(version >= 8 ? """
                SELECT x, y, \(bucketCounts), max(signal), count(*) FILTER (WHERE new_gateway), min(time), max(time)
                FROM (SELECT x, y, bucket, signal, time, false AS new_gateway FROM rows WHERE why IS NULL
                      UNION ALL SELECT x, y, NULL, NULL, NULL, true FROM new_gateways) u
                GROUP BY x, y ORDER BY 1, 2
                """ : """
                SELECT r.x, r.y, \(bucketCounts), max(signal), COALESCE(max(g.n), 0), min(time), max(time)
                FROM rows r LEFT JOIN (SELECT x, y, count(*) AS n FROM new_gateways GROUP BY x, y) g ON g.x = r.x AND g.y = r.y
                WHERE why IS NULL GROUP BY r.x, r.y ORDER BY 1, 2
                """)
                ON CONFLICT (x, y) DO UPDATE SET
                    \(buckets.map { "\($0) = t.\($0) + excluded.\($0)" }.joined(separator: ", ")), gateways = t.gateways + excluded.gateways,
                    best = GREATEST(t.best, excluded.best), first_at = LEAST(t.first_at, excluded.first_at), last_at = GREATEST(t.last_at, excluded.last_at)
                RETURNING x, y, gateways)\(coarse)\(antennas)
            -- Per beam the farthest and second-farthest of the statement (the first stored of equally
            -- far ones stays the farthest), merged with what is kept as mtt's addBeam merges them.
            INSERT INTO mtt.coverage_reach AS r (network, gateway, antenna, level, bearing, samples, distance_max, distance_2nd, max_geom, max_at)
            SELECT network, gateway, antenna, level, bearing, count(*), max(d), COALESCE(max(d) FILTER (WHERE rank = 2), 0),
                   (array_agg(geom) FILTER (WHERE rank = 1))[1], max(time) FILTER (WHERE rank = 1)
            FROM (SELECT *, row_number() OVER (PARTITION BY network, gateway, antenna, level, bearing ORDER BY d DESC, sample_id, n) AS rank
                  FROM (SELECT network, gateway, antenna, mtt.reach_level(signal) AS level, mtt.whole_degrees(azimuth) AS bearing,
                               d, geom, time, sample_id, n
                        FROM rows WHERE why IS NULL AND glat IS NOT NULL) beams) ranked
            GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
            ON CONFLICT (network, gateway, antenna, level, bearing) DO UPDATE SET
                samples = r.samples + excluded.samples,
                distance_2nd = CASE WHEN excluded.distance_max > r.distance_max THEN GREATEST(r.distance_max, excluded.distance_2nd)
                                    ELSE GREATEST(r.distance_2nd, excluded.distance_max) END,
                max_geom = CASE WHEN excluded.distance_max > r.distance_max THEN excluded.max_geom ELSE r.max_geom END,
                max_at = CASE WHEN excluded.distance_max > r.distance_max THEN excluded.max_at ELSE r.max_at END,
                distance_max = GREATEST(r.distance_max, excluded.distance_max);
            -- Where each antenna is: the position the most mappers report (each mapper's newest
            -- report is one vote), a tie going to the position that came first. One mapper cannot
            -- move a gateway others placed; a gateway really moved is moved once more mappers
            -- have heard it at its new place than still report the old. (A second statement: the
            -- one above cannot see the reports it writes.)
            WITH touched AS (
                SELECT DISTINCT s.network, r.gateway, r.antenna
                FROM new_rows r JOIN mtt.samples s ON s.db = r.db AND s.mapper = r.mapper AND s.id = r.sample_id\(sameMonth)
                WHERE r.gateway_geom IS NOT NULL),
            votes AS (
                SELECT g.network, g.gateway, g.antenna, ST_X(g.geom) AS lon, ST_Y(g.geom) AS lat,
                       count(*) AS mappers, min(g.first_at) AS first_at, max(g.reported_at) AS reported_at
                FROM mtt.gateway_reports g JOIN touched t ON t.network = g.network AND t.gateway = g.gateway AND t.antenna = g.antenna
                GROUP BY 1, 2, 3, 4, 5)
            INSERT INTO mtt.gateway_positions AS p (network, gateway, antenna, geom, reported_at)
            SELECT DISTINCT ON (network, gateway, antenna) network, gateway, antenna, ST_SetSRID(ST_MakePoint(lon, lat), 4326), reported_at
            FROM votes ORDER BY network, gateway, antenna, mappers DESC, first_at, lon, lat
            ON CONFLICT (network, gateway, antenna) DO UPDATE SET geom = excluded.geom, reported_at = excluded.reported_at;
            RETURN NULL;
        END
        $$;

        CREATE OR REPLACE FUNCTION mtt.count_attempts() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = mtt, public\(compiled) AS $$
        BEGIN
            INSERT INTO mtt.coverage_attempts AS a (x, y, sf, attempts, heard, network_known, first_at, last_at)
            SELECT mtt.tile_x(ST_X(geom)), mtt.tile_y(ST_Y(geom)), COALESCE(sf, 0), count(*), count(*) FILTER (WHERE heard),
                   bool_or(network_known), min(sent_at), max(sent_at)
            FROM new_rows
            WHERE state = 'confirmed' AND abs(ST_Y(geom)) <= 85 AND NOT (ST_Y(geom) = 0 AND ST_X(geom) = 0)
            GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            ON CONFLICT (x, y, sf) DO UPDATE SET
                attempts = a.attempts + excluded.attempts, heard = a.heard + excluded.heard,
                network_known = a.network_known OR excluded.network_known,
                first_at = LEAST(a.first_at, excluded.first_at), last_at = GREATEST(a.last_at, excluded.last_at);
            RETURN NULL;
        END
        $$;
        """
    }

    static var triggers: String {
        """
        CREATE TRIGGER count_receptions AFTER INSERT ON mtt.receptions REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION mtt.count_receptions();
        CREATE TRIGGER count_attempts AFTER INSERT ON mtt.attempts REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION mtt.count_attempts();
        """
    }

    /// Each mapper's sessions, attempts (and heard ones), samples and newest record, kept by
    /// statement triggers as the rows arrive (a row inserted twice is not in `new_rows` again),
    /// and made once from the rows already there.
    static var mapperTotals: String {
        """
        CREATE TABLE mtt.mapper_totals (
            mapper name PRIMARY KEY, sessions bigint NOT NULL DEFAULT 0, attempts bigint NOT NULL DEFAULT 0,
            heard bigint NOT NULL DEFAULT 0, samples bigint NOT NULL DEFAULT 0, last_record timestamptz
        );
        \(mapperTotalsFunctions(slots: nil))
        \(["sessions", "attempts", "samples"].map(mapperTotalsTrigger).joined(separator: "\n"))
        \(fillMapperTotals)
        """
    }

    /// The functions that count each insert into the mappers' totals: into one row per mapper, or
    /// (`slots`, schema version 5) into one of a few rows per mapper, chosen by the connection, so
    /// the two connections of one mapper's upload do not wait for each other's row; the mappers'
    /// view sums them.
    static func mapperTotalsFunctions(slots: Int?) -> String {
        func counting(_ table: String, _ columns: [(name: String, value: String)]) -> String {
            let updates = columns.map { c in
                c.name == "last_record" ? "last_record = GREATEST(t.last_record, excluded.last_record)" : "\(c.name) = t.\(c.name) + excluded.\(c.name)"
            }
            let (key, slot) = slots.map { ("mapper, slot", ", pg_backend_pid() % \($0)") } ?? ("mapper", "")
            return """
                CREATE OR REPLACE FUNCTION mtt.count_mapper_\(table)() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = mtt, public AS $$
                BEGIN
                    INSERT INTO mtt.mapper_totals AS t (\(key), \(columns.map(\.name).joined(separator: ", ")))
                    SELECT mapper\(slot), \(columns.map(\.value).joined(separator: ", ")) FROM new_rows GROUP BY mapper
                    ON CONFLICT (\(key)) DO UPDATE SET \(updates.joined(separator: ", "));
                    RETURN NULL;
                END
                $$;
                """
        }
        return """
            \(counting("sessions", [("sessions", "count(*)")]))
            \(counting("attempts", [("attempts", "count(*)"), ("heard", "count(*) FILTER (WHERE heard)"), ("last_record", "max(sent_at)")]))
            \(counting("samples", [("samples", "count(*)"), ("last_record", "max(time)")]))
            """
    }

    /// What counts `table`'s rows into each mapper's totals.
    static func mapperTotalsTrigger(_ table: String) -> String {
        """
        CREATE TRIGGER count_mapper_\(table) AFTER INSERT ON mtt.\(table) REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION mtt.count_mapper_\(table)();
        """
    }

    /// The mappers' totals counted from the rows there are.
    static var fillMapperTotals: String {
        """
        INSERT INTO mtt.mapper_totals (mapper, sessions, attempts, heard, samples, last_record)
        SELECT mapper, sum(sessions), sum(attempts), sum(heard), sum(samples), max(last_record) FROM (
            SELECT mapper, count(*) AS sessions, 0 AS attempts, 0 AS heard, 0 AS samples, NULL::timestamptz AS last_record
            FROM mtt.sessions GROUP BY mapper
            UNION ALL SELECT mapper, 0, count(*), count(*) FILTER (WHERE heard), 0, max(sent_at) FROM mtt.attempts GROUP BY mapper
            UNION ALL SELECT mapper, 0, 0, 0, count(*), max(time) FROM mtt.samples GROUP BY mapper) t
        GROUP BY mapper;
        """
    }
}
