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
        [version1(roles), version2(roles), version3(roles), version4(roles), version5(roles), version6(roles), version7(roles), version8(roles)]
    }

    /// A raw table as the first version made it: the columns MTTCore declares (`CommunityTable`)
    /// that it had.
    static func firstCreation(_ table: CommunityTable) -> String {
        "CREATE TABLE \(table.name) (\(table.columns.filter { $0.since == 1 }.map(\.definition).joined(separator: ", ")), PRIMARY KEY (\(table.primaryKey.joined(separator: ", "))));"
    }

    /// What a database whose schema is `version`, newer than this mtt's, is refused with.
    static func newer(_ version: Int) -> String {
        "the community database's schema is version \(version), newer than this mtt knows (\(latest)): update mtt"
    }

    static var latest: Int { migrations(Roles(mapper: "", map: "", mapperSQL: "", mapSQL: "")).count }

    private static func version1(_ r: Roles) -> String {
        """
            CREATE EXTENSION IF NOT EXISTS postgis;
            DO $$ BEGIN
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = \(quote(r.mapper))) THEN CREATE ROLE \(r.mapperSQL) NOLOGIN; END IF;
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = \(quote(r.map))) THEN CREATE ROLE \(r.mapSQL) NOLOGIN; END IF;
            END $$;

            CREATE TABLE mtt.mapper_accounts (
                name name PRIMARY KEY,
                added_at timestamptz NOT NULL DEFAULT now()
            );
            \(CommunityTable.raw.map(Self.firstCreation).joined(separator: "\n"))
            \(CommunityTable.raw.map(Self.geometryIndex).joined(separator: "\n"))
            -- Where each gateway antenna last said it is.
            CREATE TABLE mtt.gateway_positions (
                network text NOT NULL, gateway text NOT NULL, antenna integer NOT NULL,
                geom geometry(Point, 4326) NOT NULL, reported_at timestamptz NOT NULL,
                PRIMARY KEY (network, gateway, antenna)
            );
            CREATE INDEX gateway_positions_geom ON mtt.gateway_positions USING gist (geom);

            \(CommunityCoverageSQL.functions)
            \(CommunityCoverageSQL.tables)
            \(CommunityCoverageSQL.triggerFunctions(version: 1))
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
            \(CommunityTable.raw.map { ownRowsOnly($0, r) }.joined(separator: "\n"))
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
            \(CommunityCoverageSQL.triggerFunctions(version: 2))
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
            \(CommunityCoverageSQL.triggerFunctions(version: 3))
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

    /// The raw tables kept a month a partition (issue 48): a year of a country's uploads is
    /// hundreds of millions of rows nobody reads again once counted, and a month detached is
    /// dumped and dropped while the aggregates keep what it counted (docs/community.md,
    /// "Archiving a month"). Each table is made anew, partitioned by its time, and its rows are
    /// copied in before its triggers exist: the aggregates are not counted again, they stay as
    /// they are. A reception takes its sample's time.
    ///
    /// The months are made as rows arrive: each upload first calls `mtt.add_months` with the
    /// months of its rows, which makes a month's partitions where they are missing (a mapper may not make
    /// tables; the function runs as its owner, and only within the times the checks allow). A row
    /// of a month not made yet (an INSERT of one's own that did not call it) lands in the table's
    /// default partition and moves to its month when the month is made. A month archived is not
    /// made again: its rows would be counted twice.
    ///
    /// And a mapper may read the schema's version: an upload says plainly that the database is
    /// older or newer than this mtt, not what a missing column makes of it.
    private static func version4(_ r: Roles) -> String {
        let before = "mtt_before_months"
        let tables = CommunityTable.partitioned
        func month(_ expression: String) -> String { "date_trunc('month', \(expression) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'" }
        func create(_ t: CommunityTable) -> String {
            let by = t.partitionedBy!
            let parts = t.columns.map(\.definition) + ["PRIMARY KEY (\((t.primaryKey + [by]).joined(separator: ", ")))"]
                + t.checks.map { "CONSTRAINT \($0.name) CHECK (\($0.condition))" }
            return """
                CREATE TABLE \(t.name) (\(parts.joined(separator: ", "))) PARTITION BY RANGE (\(by));
                CREATE TABLE \(t.name)_default PARTITION OF \(t.name) DEFAULT;
                """
        }
        func copy(_ t: CommunityTable) -> String {
            let names = t.columns.map(\.name)
            let from = t.name == CommunityTable.receptions.name
                ? "SELECT \(names.map { $0 == "time" ? "s.time" : "r.\($0)" }.joined(separator: ", ")) FROM \(before).receptions r "
                    + "JOIN \(before).samples s ON s.db = r.db AND s.mapper = r.mapper AND s.id = r.sample_id"
                : "SELECT \(names.joined(separator: ", ")) FROM \(before).\(t.unqualifiedName)"
            return """
                INSERT INTO \(t.name) (\(names.joined(separator: ", "))) \(from);
                DO $$ BEGIN
                    IF (SELECT count(*) FROM \(t.name)) <> (SELECT count(*) FROM \(before).\(t.unqualifiedName)) THEN
                        RAISE EXCEPTION '\(t.name): the rows kept by month are not the rows there were; nothing is changed';
                    END IF;
                END $$;
                """
        }
        /// Makes one table's partition of the month from `starts` to `ends`, taking its rows out of the default partition.
        func addMonth(_ t: CommunityTable) -> String {
            let by = t.partitionedBy!, name = t.unqualifiedName
            return """
                IF to_regclass('\(t.name)' || suffix) IS NULL THEN
                    EXECUTE format('CREATE TABLE mtt.%I (LIKE \(t.name) INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', '\(name)' || suffix);
                    EXECUTE format('WITH moved AS (DELETE FROM \(t.name)_default WHERE \(by) >= %L AND \(by) < %L RETURNING *) INSERT INTO mtt.%I SELECT * FROM moved',
                                   starts, ends, '\(name)' || suffix);
                    EXECUTE format('ALTER TABLE \(t.name) ATTACH PARTITION mtt.%I FOR VALUES FROM (%L) TO (%L)', '\(name)' || suffix, starts, ends);
                END IF;
                """
        }
        return """
            CREATE SCHEMA \(before);
            \(tables.map { "ALTER TABLE \($0.name) SET SCHEMA \(before);" }.joined(separator: "\n"))
            \(tables.map(create).joined(separator: "\n"))

            CREATE TABLE mtt.archived_months (month date PRIMARY KEY, archived_at timestamptz NOT NULL DEFAULT now());
            -- The month of each time made where it is not (UTC months, named _YYYY_MM), within the
            -- times the checks allow.
            CREATE FUNCTION mtt.add_months(times timestamptz[]) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
                SET search_path = mtt, public AS $$
            DECLARE
                m timestamp;
                starts timestamptz;
                ends timestamptz;
                suffix text;
            BEGIN
                FOR m IN SELECT DISTINCT \(month("t")) AT TIME ZONE 'UTC' FROM unnest(times) AS t
                         WHERE t BETWEEN '\(RFC3339.string(PhysicalLimits.earliest))' AND now() + interval '\(Int(PhysicalLimits.aheadOfNow)) seconds' ORDER BY 1 LOOP
                    -- Asked first: an archived month's tables may be back, restored from its dump.
                    IF EXISTS (SELECT 1 FROM mtt.archived_months a WHERE a.month = m::date) THEN
                        RAISE EXCEPTION 'records of % arrive after the community archived that month: they are not taken, as they would be counted twice', to_char(m, 'YYYY-MM')
                            USING ERRCODE = 'check_violation';
                    END IF;
                    suffix := to_char(m, '"_"YYYY_MM');
                    IF \(tables.map { "to_regclass('\($0.name)' || suffix) IS NULL" }.joined(separator: " OR ")) THEN
                        -- Two uploads making the same month: one waits, then finds it made. A
                        -- table's lock, not an advisory one: taking it reads the catalog's news, so
                        -- the one that waited sees the other's tables (after an advisory lock it did
                        -- not, and made them again).
                        LOCK TABLE mtt.archived_months IN EXCLUSIVE MODE;
                        starts := m AT TIME ZONE 'UTC';
                        ends := (m + interval '1 month') AT TIME ZONE 'UTC';
                        \(tables.map(addMonth).joined(separator: "\n"))
                    END IF;
                END LOOP;
            END
            $$;
            REVOKE ALL ON FUNCTION mtt.add_months(timestamptz[]) FROM PUBLIC;
            GRANT EXECUTE ON FUNCTION mtt.add_months(timestamptz[]) TO \(r.mapperSQL);
            -- The owner's first step of archiving a month: its partitions detached (then dumped and
            -- dropped, docs/community.md), and the month not made again.
            CREATE FUNCTION mtt.detach_month(first_day date) RETURNS SETOF text LANGUAGE plpgsql SET search_path = mtt, public AS $$
            DECLARE
                suffix text := to_char(first_day, '"_"YYYY_MM');
            BEGIN
                IF first_day <> date_trunc('month', first_day)::date OR first_day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date THEN
                    RAISE EXCEPTION '% is not the first day of a month before this one', first_day;
                END IF;
                INSERT INTO mtt.archived_months (month) VALUES (first_day);
                \(tables.map { t in """
                    IF to_regclass('\(t.name)' || suffix) IS NOT NULL THEN
                        EXECUTE format('ALTER TABLE \(t.name) DETACH PARTITION mtt.%I', '\(t.unqualifiedName)' || suffix);
                        RETURN NEXT '\(t.name)' || suffix;
                    END IF;
                    """ }.joined(separator: "\n"))
            END
            $$;
            REVOKE ALL ON FUNCTION mtt.detach_month(date) FROM PUBLIC;

            SELECT mtt.add_months(array_agg(m)) FROM (
                \(tables.filter { $0.name != CommunityTable.receptions.name }.map { "SELECT DISTINCT \(month($0.partitionedBy!)) AS m FROM \(before).\($0.unqualifiedName)" }.joined(separator: " UNION "))
            ) months;
            \(tables.map(copy).joined(separator: "\n"))
            \(tables.map { "DROP TABLE \(before).\($0.unqualifiedName);" }.joined(separator: "\n"))
            DROP SCHEMA \(before);

            \(tables.map(geometryIndex).joined(separator: "\n"))
            \(tables.map { ownRowsOnly($0, r) }.joined(separator: "\n"))
            \(CommunityCoverageSQL.triggerFunctions(version: 4))
            \(CommunityCoverageSQL.triggers)
            \(CommunityCoverageSQL.mapperTotalsTrigger("attempts"))
            \(CommunityCoverageSQL.mapperTotalsTrigger("samples"))
            GRANT SELECT ON mtt.schema_version TO \(r.mapperSQL), \(r.mapSQL);
            """
    }

    /// One mapper's upload on two connections (issue 48): each insert counted into one of a few
    /// rows of the mapper's totals, chosen by the connection, not into one row both would wait
    /// for until the other's transaction ends; `mtt.mappers` sums them.
    private static func version5(_ r: Roles) -> String {
        """
        ALTER TABLE mtt.mapper_totals ADD COLUMN slot smallint NOT NULL DEFAULT 0;
        ALTER TABLE mtt.mapper_totals DROP CONSTRAINT mapper_totals_pkey, ADD PRIMARY KEY (mapper, slot);
        \(CommunityCoverageSQL.mapperTotalsFunctions(slots: 8))
        CREATE OR REPLACE VIEW mtt.mappers AS
            SELECT m.name AS mapper, m.added_at, COALESCE(t.sessions, 0)::bigint AS sessions, COALESCE(t.attempts, 0)::bigint AS attempts,
                   COALESCE(t.samples, 0)::bigint AS samples, COALESCE(t.heard, 0)::bigint AS heard, t.last_record
            FROM mtt.mapper_accounts m LEFT JOIN (
                SELECT mapper, sum(sessions) AS sessions, sum(attempts) AS attempts, sum(samples) AS samples, sum(heard) AS heard,
                       max(last_record) AS last_record
                FROM mtt.mapper_totals GROUP BY mapper) t ON t.mapper = m.name;
        """
    }

    /// The cells' totals kept at zoom 14 too (`CommunityCoverageSQL.coarseTotals`), filled from
    /// the zoom-19 totals and kept by the receptions' trigger from now on: a map of a country
    /// zoomed out reads thousands of rows, not a million. `mtt.cells_z14` shows them (QGIS's
    /// layer for a country).
    private static func version6(_ r: Roles) -> String {
        let z = CommunityCoverageSQL.coarseZoom, shift = MapTile.cellZoom - z
        return """
            \(CommunityCoverageSQL.coarseTotals)
            \(CommunityCoverageSQL.triggerFunctions(version: 6))
            CREATE VIEW mtt.cells_z\(z) AS
                SELECT x, y, ST_Envelope(ST_Collect(mtt.tile_polygon(x << \(shift), y << \(shift)),
                                                    mtt.tile_polygon(((x + 1) << \(shift)) - 1, ((y + 1) << \(shift)) - 1)))::geometry(Polygon, 4326) AS geom,
                       (\(CommunityCoverageSQL.buckets.joined(separator: " + ")))::bigint AS receptions,
                       \(CommunityCoverageSQL.buckets.joined(separator: ", ")), best, gateways::bigint AS gateways, first_at, last_at
                FROM mtt.coverage_totals_z\(z);
            GRANT SELECT ON mtt.cells_z\(z) TO \(r.mapperSQL), \(r.mapSQL);
            """
    }

    /// Each gateway antenna's cells and totals kept as rows arrive (`CommunityCoverageSQL
    /// .antennaTotals`): the gateway list and the silent gateways the map asks for with every view
    /// read one row an antenna, not a country's cell rows.
    private static func version7(_ r: Roles) -> String {
        """
        \(CommunityCoverageSQL.antennaTotals)
        \(CommunityCoverageSQL.triggerFunctions(version: 7))
        CREATE VIEW mtt.antennas AS SELECT network, gateway, antenna, cells, receptions, best, first_at, last_at FROM mtt.coverage_antennas;
        GRANT SELECT ON mtt.antennas TO \(r.mapperSQL), \(r.mapSQL);
        """
    }

    /// The map without the gateways silent for days, kept (`CommunityCoverageSQL.latelyTotals`):
    /// with any gateway silent, every view of the map summed its cell rows. A mapper's sync ends
    /// by refreshing them (`mtt.refresh_lately()`, which a mapper may call, not change). And the
    /// triggers compile nothing (`triggerFunctions`).
    private static func version8(_ r: Roles) -> String {
        let z = CommunityCoverageSQL.coarseZoom
        return """
            \(CommunityCoverageSQL.triggerFunctions(version: 8))
            \(CommunityCoverageSQL.latelyTotals)
            REVOKE ALL ON FUNCTION mtt.refresh_lately() FROM PUBLIC;
            GRANT EXECUTE ON FUNCTION mtt.refresh_lately() TO \(r.mapperSQL);
            GRANT SELECT ON mtt.silent_gateways, mtt.coverage_totals_lately, mtt.coverage_totals_lately_z\(z), mtt.lately_refreshed
                TO \(r.mapperSQL), \(r.mapSQL);
            """
    }

    /// Security in the database: a mapper inserts rows under its own name only, reads only its own
    /// raw rows, changes and deletes nothing.
    private static func ownRowsOnly(_ table: CommunityTable, _ r: Roles) -> String {
        """
        ALTER TABLE \(table.name) ENABLE ROW LEVEL SECURITY;
        CREATE POLICY own_rows_in ON \(table.name) FOR INSERT TO \(r.mapperSQL) WITH CHECK (mapper = current_user);
        CREATE POLICY own_rows_out ON \(table.name) FOR SELECT TO \(r.mapperSQL) USING (mapper = current_user);
        GRANT SELECT, INSERT ON \(table.name) TO \(r.mapperSQL);
        """
    }

    /// Where a table has a place, QGIS and the map's area queries want it indexed.
    private static func geometryIndex(_ table: CommunityTable) -> String {
        guard table.columns.contains(where: { $0.name == "geom" }) else { return "" }
        return "CREATE INDEX \(table.unqualifiedName)_geom ON \(table.name) USING gist (geom);"
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
