import MTTCore

/// The community database's schema `mtt`, as versioned migrations: each runs in one transaction
/// with its version, and a database whose schema is newer than this mtt knows is refused.
///
/// Every raw table carries `db` (the mapper's database UUID) first in its key: the column a Citus
/// cluster distributes the raw tables by (docs/community.md), so one mapper's upload lands on one
/// node. `mapper` is the role that inserted the row (its default, and row-level security holds
/// every insert to it), and is in every key (version 3): a mapper who knows another's database
/// UUID can neither take that mapper's ids nor attach receptions to that mapper's samples.
enum CommunitySchema {
    /// The group roles of one community database: every mapper's role is in `mapper`, every map
    /// reader's in `map`. Roles are the cluster's, so each database has its own pair.
    struct Roles {
        var mapper: String
        var map: String
        /// Quoted for SQL.
        var mapperSQL: String
        var mapSQL: String
    }

    /// Migration n is `migrations[n - 1]`.
    static func migrations(_ roles: Roles) -> [String] {
        [version1(roles), version2(roles), version3(roles)]
    }

    /// A raw table as MTTCore declares it (`CommunityTable`), which the postgis target uploads into.
    static func creation(_ table: CommunityTable) -> String {
        "CREATE TABLE \(table.name) (\(table.columns.map(\.definition).joined(separator: ", ")), PRIMARY KEY (\(table.primaryKey.joined(separator: ", "))));"
    }

    static var latest: Int { migrations(Roles(mapper: "", map: "", mapperSQL: "", mapSQL: "")).count }

    private static func version1(_ r: Roles) -> String {
        let raw = CommunityTable.raw.map(\.unqualifiedName)
        return """
            CREATE EXTENSION IF NOT EXISTS postgis;
            DO $$ BEGIN
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = \(quote(r.mapper))) THEN CREATE ROLE \(r.mapperSQL) NOLOGIN; END IF;
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = \(quote(r.map))) THEN CREATE ROLE \(r.mapSQL) NOLOGIN; END IF;
            END $$;

            CREATE TABLE mtt.mapper_accounts (
                name name PRIMARY KEY,
                added_at timestamptz NOT NULL DEFAULT now()
            );
            \(CommunityTable.raw.map(Self.creation).joined(separator: "\n"))
            CREATE INDEX attempts_geom ON mtt.attempts USING gist (geom);
            CREATE INDEX samples_geom ON mtt.samples USING gist (geom);
            CREATE INDEX tracks_geom ON mtt.tracks USING gist (geom);
            -- Where each gateway antenna last said it is.
            CREATE TABLE mtt.gateway_positions (
                network text NOT NULL, gateway text NOT NULL, antenna integer NOT NULL,
                geom geometry(Point, 4326) NOT NULL, reported_at timestamptz NOT NULL,
                PRIMARY KEY (network, gateway, antenna)
            );
            CREATE INDEX gateway_positions_geom ON mtt.gateway_positions USING gist (geom);

            \(CommunityCoverageSQL.functions)
            \(CommunityCoverageSQL.tables)
            \(CommunityCoverageSQL.triggerFunctions)
            \(CommunityCoverageSQL.triggers)

            -- What QGIS and the map read: everybody's coverage, nobody's drive.
            \(cellsView)
            CREATE VIEW mtt.gateway_cells AS
                SELECT x, y, network, gateway, antenna, mtt.tile_polygon(x, y)::geometry(Polygon, 4326) AS geom,
                       \(CommunityCoverageSQL.buckets.map { "sum(\($0))::integer AS \($0)" }.joined(separator: ", ")),
                       max(best) AS best, min(first_at) AS first_at, max(last_at) AS last_at
                FROM mtt.coverage_cells GROUP BY x, y, network, gateway, antenna;
            CREATE VIEW mtt.unheard_cells AS
                SELECT a.x, a.y, mtt.tile_polygon(a.x, a.y)::geometry(Polygon, 4326) AS geom, sum(a.attempts)::integer AS attempts, bool_or(a.network_known) AS network_known
                FROM mtt.coverage_attempts a
                WHERE NOT EXISTS (SELECT 1 FROM mtt.coverage_cells c WHERE c.x = a.x AND c.y = a.y)
                GROUP BY a.x, a.y;
            CREATE VIEW mtt.gateways AS
                SELECT g.network, g.gateway, g.antenna, g.geom, g.reported_at,
                       (SELECT count(*) FROM (SELECT DISTINCT x, y FROM mtt.coverage_cells c
                        WHERE c.network = g.network AND c.gateway = g.gateway AND c.antenna = g.antenna) t) AS cells
                FROM mtt.gateway_positions g;
            CREATE VIEW mtt.reach_beams AS
                SELECT network, gateway, antenna, level, bearing, samples, distance_max, distance_2nd, max_geom AS geom, max_at
                FROM mtt.coverage_reach;
            -- Each antenna's reach per level it reaches, as TTN Mapper's radar (GatewayReach.polygon):
            -- on each of the 360 bearings the level's farthest reception, where it has none the next
            -- stronger level's, else the gateway itself; level 0 is above -100 dBm, \(ReachLevel.any.rawValue) any signal.
            CREATE VIEW mtt.reach AS
                WITH reached AS (
                    SELECT DISTINCT r.network, r.gateway, r.antenna, l.level
                    FROM mtt.coverage_reach r CROSS JOIN generate_series(0, \(ReachLevel.any.rawValue)) AS l(level) WHERE r.level <= l.level),
                distances AS (
                    SELECT a.network, a.gateway, a.antenna, a.level, b.bearing,
                           COALESCE((SELECT r.distance_max FROM mtt.coverage_reach r
                                     WHERE r.network = a.network AND r.gateway = a.gateway AND r.antenna = a.antenna
                                       AND r.bearing = b.bearing AND r.level <= a.level ORDER BY r.level DESC LIMIT 1), 0) AS d
                    FROM reached a CROSS JOIN generate_series(0, 359) AS b(bearing)),
                points AS (
                    SELECT d.network, d.gateway, d.antenna, d.level, d.bearing,
                           CASE WHEN d.d > 0 THEN ST_Project(g.geom::geography, d.d, radians(d.bearing))::geometry ELSE g.geom END AS point
                    FROM distances d JOIN mtt.gateway_positions g ON g.network = d.network AND g.gateway = d.gateway AND g.antenna = d.antenna),
                rings AS (
                    SELECT network, gateway, antenna, level, ST_MakeLine(array_agg(point ORDER BY bearing DESC)) AS line
                    FROM points GROUP BY network, gateway, antenna, level)
                SELECT network, gateway, antenna, level,
                       ST_MakePolygon(ST_AddPoint(line, ST_StartPoint(line)))::geometry(Polygon, 4326) AS geom
                FROM rings;
            CREATE VIEW mtt.mappers AS
                SELECT m.name AS mapper, m.added_at,
                       (SELECT count(*) FROM mtt.sessions s WHERE s.mapper = m.name) AS sessions,
                       (SELECT count(*) FROM mtt.attempts a WHERE a.mapper = m.name) AS attempts,
                       (SELECT count(*) FROM mtt.samples s WHERE s.mapper = m.name) AS samples
                FROM mtt.mapper_accounts m;

            -- Security in the database: a mapper inserts rows under its own name only, reads only its
            -- own raw rows, changes and deletes nothing; the map reads only the views.
            \(raw.map { table in """
                ALTER TABLE mtt.\(table) ENABLE ROW LEVEL SECURITY;
                CREATE POLICY own_rows_in ON mtt.\(table) FOR INSERT TO \(r.mapperSQL) WITH CHECK (mapper = current_user);
                CREATE POLICY own_rows_out ON mtt.\(table) FOR SELECT TO \(r.mapperSQL) USING (mapper = current_user);
                GRANT SELECT, INSERT ON mtt.\(table) TO \(r.mapperSQL);
                """ }.joined(separator: "\n"))
            GRANT USAGE ON SCHEMA mtt TO \(r.mapperSQL), \(r.mapSQL);
            GRANT SELECT ON mtt.mapper_accounts TO \(r.mapperSQL);
            GRANT SELECT ON mtt.cells, mtt.gateway_cells, mtt.unheard_cells, mtt.gateways, mtt.reach, mtt.reach_beams, mtt.mappers
                TO \(r.mapperSQL), \(r.mapSQL);
            """
    }

    /// What the community map (`mtt serve --db postgresql://…`) reads, as views its role may read:
    /// the aggregates' rows per zoom-19 cell and spreading factor, and each mapper's totals, kept
    /// as rows arrive (counting a million samples for each status would take a second).
    ///
    /// And the functions as this mtt has them (each `CREATE OR REPLACE`, so a migration can bring
    /// them again): a database made by the first version had triggers that read every sample for
    /// each batch and called the formulas a row at a time.
    private static func version2(_ r: Roles) -> String {
        """
            \(CommunityCoverageSQL.functions)
            \(CommunityCoverageSQL.triggerFunctions)
            \(CommunityCoverageSQL.totalsTables)
            \(CommunityCoverageSQL.rebuildTotals)
            \(cellsView)
            CREATE VIEW mtt.coverage_rows AS
                SELECT x, y, network, gateway, antenna, sf, \(CommunityCoverageSQL.buckets.joined(separator: ", ")), best, first_at, last_at
                FROM mtt.coverage_cells;
            CREATE VIEW mtt.attempt_rows AS
                SELECT x, y, sf, attempts, heard, network_known, first_at, last_at FROM mtt.coverage_attempts;

            \(CommunityCoverageSQL.mapperTotals)

            CREATE OR REPLACE VIEW mtt.mappers AS
                SELECT m.name AS mapper, m.added_at, COALESCE(t.sessions, 0) AS sessions, COALESCE(t.attempts, 0) AS attempts,
                       COALESCE(t.samples, 0) AS samples, COALESCE(t.heard, 0) AS heard, t.last_record
                FROM mtt.mapper_accounts m LEFT JOIN mtt.mapper_totals t ON t.mapper = m.name;
            GRANT SELECT ON mtt.coverage_rows, mtt.attempt_rows TO \(r.mapperSQL), \(r.mapSQL);
            """
    }

    /// The database defends itself (issue 47): every raw column that feeds an aggregate is checked
    /// against mtt's range rules (`CommunityTable.checks`), the keys hold the mapper, a gateway's
    /// position is voted on (`count_receptions`), the reach's beams are shown to the cell and the
    /// day, and the distance of a gateway without a position is NULL, not 20,015 km.
    ///
    /// A database that already holds rows the checks refuse is repaired: each such row moves to
    /// `mtt.refused_rows` with its reason (and the receptions of a refused sample with it), and
    /// every aggregate is counted again from the rows that stay (also what the NULL-safe distance
    /// changes: receptions from gateways without a position were all left out).
    private static func version3(_ r: Roles) -> String {
        let raw = CommunityTable.raw
        let counted = ["coverage_cells", "coverage_attempts", "coverage_left_out", "coverage_reach", "coverage_totals",
                       "coverage_cell_gateways", "gateway_positions", "gateway_reports"]
        func refuse(_ table: CommunityTable) -> String {
            let checks = table.checks
            guard !checks.isEmpty else { return "" }
            return """
                WITH refused AS (DELETE FROM \(table.name) WHERE \(checks.map { "(\($0.condition)) IS FALSE" }.joined(separator: " OR ")) RETURNING *)
                INSERT INTO mtt.refused_rows (table_name, mapper, reason, row)
                SELECT '\(table.name)', mapper, CASE \(checks.map { "WHEN (\($0.condition)) IS FALSE THEN '\($0.name)'" }.joined(separator: " ")) END, to_jsonb(refused)
                FROM refused;
                """
        }
        /// The rows taken out and put back in one statement, so the table's triggers count them again.
        func recount(_ table: CommunityTable) -> String {
            """
            CREATE TEMPORARY TABLE recounted ON COMMIT DROP AS SELECT * FROM \(table.name);
            DELETE FROM \(table.name);
            INSERT INTO \(table.name) SELECT * FROM recounted ORDER BY \(table.primaryKey.joined(separator: ", "));
            DROP TABLE recounted;
            """
        }
        return """
            \(CommunityCoverageSQL.functions)
            \(CommunityCoverageSQL.gatewayReports)
            \(CommunityCoverageSQL.triggerFunctions)
            \(raw.map { t in
                "ALTER TABLE \(t.name) DROP CONSTRAINT \(t.unqualifiedName)_pkey, ADD PRIMARY KEY (\(t.primaryKey.joined(separator: ", ")));"
            }.joined(separator: "\n"))
            \(raw.flatMap { t in t.checks.map { "ALTER TABLE \(t.name) ADD CONSTRAINT \($0.name) CHECK (\($0.condition)) NOT VALID;" } }.joined(separator: "\n"))

            -- What the checks refuse, kept for the owner to read (nobody else may).
            CREATE TABLE mtt.refused_rows (
                table_name text NOT NULL, mapper name NOT NULL, reason text NOT NULL, row jsonb NOT NULL,
                refused_at timestamptz NOT NULL DEFAULT now()
            );
            \(raw.map(refuse).joined(separator: "\n"))
            WITH orphans AS (
                DELETE FROM mtt.receptions r
                WHERE NOT EXISTS (SELECT 1 FROM mtt.samples s WHERE s.db = r.db AND s.mapper = r.mapper AND s.id = r.sample_id)
                RETURNING *)
            INSERT INTO mtt.refused_rows (table_name, mapper, reason, row) SELECT 'mtt.receptions', mapper, 'its sample is not stored', to_jsonb(orphans) FROM orphans;
            \(raw.flatMap { t in t.checks.map { "ALTER TABLE \(t.name) VALIDATE CONSTRAINT \($0.name);" } }.joined(separator: "\n"))

            TRUNCATE \(counted.map { "mtt.\($0)" }.joined(separator: ", "));
            \(recount(.receptions))
            \(recount(.attempts))
            DELETE FROM mtt.mapper_totals;
            \(CommunityCoverageSQL.fillMapperTotals)

            -- The farthest reception of each beam shown at its cell's centre and on its day: with
            -- its time, the exact place rebuilt parts of a mapper's drive. (The distance on a
            -- whole-degree bearing stays: it places a reception no closer than its cell does, to
            -- ±26 m across at 3 km, and draws the reach as each mapper's own map does.)
            CREATE OR REPLACE VIEW mtt.reach_beams AS
                SELECT network, gateway, antenna, level, bearing, samples, distance_max, distance_2nd,
                       ST_Centroid(mtt.tile_polygon(mtt.tile_x(ST_X(max_geom)), mtt.tile_y(ST_Y(max_geom))))::geometry(Point, 4326) AS geom,
                       date_trunc('day', max_at) AS max_at
                FROM mtt.coverage_reach;
            """
    }

    /// Every cell heard, from its totals: QGIS's layer and the unfiltered map.
    private static var cellsView: String {
        """
        CREATE OR REPLACE VIEW mtt.cells AS
            SELECT x, y, mtt.tile_polygon(x, y)::geometry(Polygon, 4326) AS geom,
                   (\(CommunityCoverageSQL.buckets.joined(separator: " + ")))::bigint AS receptions,
                   \(CommunityCoverageSQL.buckets.joined(separator: ", ")), best, gateways::bigint AS gateways, first_at, last_at
            FROM mtt.coverage_totals;
        """
    }

    private static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
