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
            CREATE FUNCTION mtt.tile_x(lon double precision) RETURNS integer LANGUAGE sql IMMUTABLE STRICT AS $$
                SELECT LEAST(GREATEST(floor((lon + 180) / 360 * \(n))::integer, 0), \(n - 1))
            $$;
            CREATE FUNCTION mtt.tile_y(lat double precision) RETURNS integer LANGUAGE sql IMMUTABLE STRICT AS $$
                SELECT LEAST(GREATEST(floor((1 - ln(tan(r) + 1 / cos(r)) / pi()) / 2 * \(n))::integer, 0), \(n - 1))
                FROM (SELECT radians(LEAST(GREATEST(lat, -\(MapTile.maximumLatitude)), \(MapTile.maximumLatitude))) AS r) t
            $$;
            -- A zoom-19 tile's outline, for QGIS.
            CREATE FUNCTION mtt.tile_polygon(x integer, y integer) RETURNS geometry LANGUAGE sql IMMUTABLE STRICT AS $$
                SELECT ST_MakeEnvelope(x / \(Double(n)) * 360 - 180, degrees(atan(sinh(pi() * (1 - 2 * (y + 1) / \(Double(n)))))),
                                       (x + 1) / \(Double(n)) * 360 - 180, degrees(atan(sinh(pi() * (1 - 2 * y / \(Double(n)))))), 4326)
            $$;
            CREATE FUNCTION mtt.bucket(s double precision) RETURNS integer LANGUAGE sql IMMUTABLE STRICT AS $$
                SELECT CASE WHEN s > -95 THEN \(SignalBucket.high.rawValue) WHEN s <= -145 THEN \(SignalBucket.low.rawValue)
                            ELSE LEAST(GREATEST(floor((-95 - s) / 5)::integer + 1, 1), 10) END
            $$;
            CREATE FUNCTION mtt.reach_level(s double precision) RETURNS integer LANGUAGE sql IMMUTABLE STRICT AS $$
                SELECT CASE \(levels.joined(separator: " ")) ELSE \(ReachLevel.any.rawValue) END
            $$;
            -- Haversine over the same sphere as GeoPoint.distance, in metres.
            CREATE FUNCTION mtt.distance(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
            RETURNS double precision LANGUAGE sql IMMUTABLE STRICT AS $$
                SELECT 2 * \(GeoPoint.earthRadius) * asin(LEAST(1, sqrt(
                    sin(radians(lat2 - lat1) / 2) ^ 2 + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lon2 - lon1) / 2) ^ 2)))
            $$;
            -- The initial bearing in whole degrees, 0…359, as GeoPoint.bearing rounded down.
            CREATE FUNCTION mtt.bearing(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
            RETURNS integer LANGUAGE sql IMMUTABLE STRICT AS $$
                SELECT CASE WHEN b >= 360 THEN 0 ELSE floor(b)::integer END FROM (
                    SELECT CASE WHEN t < 0 THEN t + 360 ELSE t END AS b FROM (
                        SELECT degrees(atan2(sin(radians(lon2 - lon1)) * cos(radians(lat2)),
                               cos(radians(lat1)) * sin(radians(lat2)) - sin(radians(lat1)) * cos(radians(lat2)) * cos(radians(lon2 - lon1)))) AS t) a) b
            $$;
            -- Why a reception does not count (CoverageRules.leftOut), or NULL.
            CREATE FUNCTION mtt.left_out(lat double precision, lon double precision, rssi double precision, glat double precision, glon double precision)
            RETURNS text LANGUAGE sql IMMUTABLE AS $$
                SELECT CASE
                    WHEN lat IS NULL OR lon IS NULL OR abs(lat) > 85 OR (lat = 0 AND lon = 0) THEN \(lit(.position))
                    WHEN rssi IS NULL THEN \(lit(.noSignal))
                    WHEN glat IS NULL OR glon IS NULL THEN NULL
                    WHEN mtt.distance(lat, lon, glat, glon) = 0 THEN \(lit(.atTheGateway))
                    WHEN mtt.distance(lat, lon, glat, glon) > \(CoverageRules.farthestReception.plainText) THEN \(lit(.tooFar))
                END
            $$;
            """
    }

    private static func lit(_ reason: CoverageRules.LeftOut) -> String { "'\(reason.rawValue)'" }

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
        """
    }

    /// Each inserted reception and confirmed attempt changes the aggregates in its own
    /// transaction; a row inserted twice (`ON CONFLICT DO NOTHING`) fires nothing, so nothing is
    /// counted twice. The functions run as their owner: mappers can write no aggregate themselves.
    static var triggers: String {
        """
        CREATE FUNCTION mtt.count_reception() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = mtt, public AS $$
        DECLARE
            s mtt.samples;
            lat double precision; lon double precision; glat double precision; glon double precision;
            signal double precision; reason text; d double precision;
        BEGIN
            SELECT * INTO s FROM mtt.samples WHERE db = NEW.db AND id = NEW.sample_id;
            IF NOT FOUND THEN RAISE EXCEPTION 'reception of sample % of database % before its sample', NEW.sample_id, NEW.db; END IF;
            lat := ST_Y(s.geom); lon := ST_X(s.geom);
            glat := ST_Y(NEW.gateway_geom); glon := ST_X(NEW.gateway_geom);
            IF glat IS NOT NULL THEN
                INSERT INTO mtt.gateway_positions AS g (network, gateway, antenna, geom, reported_at) VALUES (s.network, NEW.gateway, NEW.antenna, NEW.gateway_geom, s.time)
                ON CONFLICT (network, gateway, antenna) DO UPDATE SET geom = excluded.geom, reported_at = excluded.reported_at
                WHERE excluded.reported_at >= g.reported_at;
            END IF;
            reason := mtt.left_out(lat, lon, NEW.rssi, glat, glon);
            IF reason IS NOT NULL THEN
                INSERT INTO mtt.coverage_left_out (gateway, reason, receptions) VALUES (NEW.gateway, reason, 1)
                ON CONFLICT (gateway, reason) DO UPDATE SET receptions = mtt.coverage_left_out.receptions + 1;
                RETURN NULL;
            END IF;
            signal := NEW.rssi + LEAST(COALESCE(NEW.snr, 0), 0);
            INSERT INTO mtt.coverage_cells AS c (x, y, network, gateway, antenna, sf, \(buckets.joined(separator: ", ")), best, first_at, last_at)
            VALUES (mtt.tile_x(lon), mtt.tile_y(lat), s.network, NEW.gateway, NEW.antenna, COALESCE(s.sf, 0),
                    \(SignalBucket.allCases.map { "(mtt.bucket(signal) = \($0.rawValue))::integer" }.joined(separator: ", ")), signal, s.time, s.time)
            ON CONFLICT (x, y, network, gateway, antenna, sf) DO UPDATE SET
                \(buckets.map { "\($0) = c.\($0) + excluded.\($0)" }.joined(separator: ", ")),
                best = GREATEST(c.best, excluded.best), first_at = LEAST(c.first_at, excluded.first_at), last_at = GREATEST(c.last_at, excluded.last_at);
            IF glat IS NOT NULL THEN
                d := mtt.distance(glat, glon, lat, lon);
                INSERT INTO mtt.coverage_reach AS r (network, gateway, antenna, level, bearing, samples, distance_max, distance_2nd, max_geom, max_at)
                VALUES (s.network, NEW.gateway, NEW.antenna, mtt.reach_level(signal), mtt.bearing(glat, glon, lat, lon), 1, d, 0, s.geom, s.time)
                ON CONFLICT (network, gateway, antenna, level, bearing) DO UPDATE SET
                    samples = r.samples + 1,
                    distance_2nd = CASE WHEN excluded.distance_max > r.distance_max THEN r.distance_max ELSE GREATEST(r.distance_2nd, excluded.distance_max) END,
                    max_geom = CASE WHEN excluded.distance_max > r.distance_max THEN excluded.max_geom ELSE r.max_geom END,
                    max_at = CASE WHEN excluded.distance_max > r.distance_max THEN excluded.max_at ELSE r.max_at END,
                    distance_max = GREATEST(r.distance_max, excluded.distance_max);
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER count_reception AFTER INSERT ON mtt.receptions FOR EACH ROW EXECUTE FUNCTION mtt.count_reception();

        CREATE FUNCTION mtt.count_attempt() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = mtt, public AS $$
        BEGIN
            IF NEW.state <> 'confirmed' OR abs(ST_Y(NEW.geom)) > 85 OR (ST_Y(NEW.geom) = 0 AND ST_X(NEW.geom) = 0) THEN RETURN NULL; END IF;
            INSERT INTO mtt.coverage_attempts AS a (x, y, sf, attempts, heard, network_known, first_at, last_at)
            VALUES (mtt.tile_x(ST_X(NEW.geom)), mtt.tile_y(ST_Y(NEW.geom)), COALESCE(NEW.sf, 0), 1, NEW.heard::integer, NEW.network_known, NEW.sent_at, NEW.sent_at)
            ON CONFLICT (x, y, sf) DO UPDATE SET
                attempts = a.attempts + 1, heard = a.heard + excluded.heard, network_known = a.network_known OR excluded.network_known,
                first_at = LEAST(a.first_at, excluded.first_at), last_at = GREATEST(a.last_at, excluded.last_at);
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER count_attempt AFTER INSERT ON mtt.attempts FOR EACH ROW EXECUTE FUNCTION mtt.count_attempt();
        """
    }
}
