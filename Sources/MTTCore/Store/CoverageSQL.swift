import GRDB

/// The coverage aggregates' tables, the statements that add a transaction's samples to them
/// (`CoverageAccumulator`), the attempts' triggers, and the statements that rebuild them from the
/// raw records through the same rules as SQL functions (`CoverageFunctions`): a rebuild produces
/// the tables kept as records were stored, value for value (the tests hold them to it).
///
/// Cells and the per-cell attempt counts are kept per session, so a session's own coverage, its
/// deletion and "what the last session added" need no raw records; a gateway's reach and summary
/// span sessions, and are rebuilt for the gateways a deletion touched. A gateway's summary is read
/// from its cells and its reach (the farthest reception is its farthest beam's).
enum CoverageSQL {
    static let buckets = SignalBucket.allCases.map { "b_\($0.name)" }

    /// A cell row's bucket columns summed (`SUM(c.b_high), …`), or added up (`c.b_high + …`).
    static func bucketSums(_ table: String) -> String { buckets.map { "SUM(\(table).\($0))" }.joined(separator: ", ") }
    static func bucketTotal(_ table: String) -> String { buckets.map { "\(table).\($0)" }.joined(separator: " + ") }

    /// A reception's (`r`) signal as TTN Mapper grades it (`SignalBucket.signal`).
    static let signal = "r.rssi + MIN(COALESCE(r.snr, 0), 0)"

    /// Whether anyone could say if an attempt (`a`) of its session was heard: the session ran with
    /// a network source, or a fetch read the network's side.
    static let networkKnown = "(SELECT network IS NOT NULL OR fetched_at IS NOT NULL FROM sessions WHERE id = a.session_id)"

    /// A cell row's place, session and gateway antenna, and its counts: a gateway's cells now
    /// and before it moved are the same rows.
    private static let cellKey = """
        x INTEGER NOT NULL, y INTEGER NOT NULL, session_id INTEGER NOT NULL, network TEXT NOT NULL, gateway TEXT NOT NULL,
        antenna INTEGER NOT NULL, sf INTEGER NOT NULL,
        """
    private static let cellCounts = """
        \(buckets.map { "\($0) INTEGER NOT NULL" }.joined(separator: ", ")), best REAL NOT NULL, first_at INTEGER NOT NULL, last_at INTEGER NOT NULL,
        """

    static let tables = """
        CREATE TABLE coverage_cells (
            \(cellKey)
            \(cellCounts)
            PRIMARY KEY (x, y, session_id, network, gateway, antenna, sf)
        ) WITHOUT ROWID;
        CREATE INDEX coverage_cells_by_session ON coverage_cells(session_id);
        CREATE INDEX coverage_cells_by_gateway ON coverage_cells(gateway);
        CREATE TABLE coverage_attempts (
            x INTEGER NOT NULL,
            y INTEGER NOT NULL,
            session_id INTEGER NOT NULL,
            sf INTEGER NOT NULL,
            attempts INTEGER NOT NULL,
            heard INTEGER NOT NULL,
            first_at INTEGER NOT NULL,
            last_at INTEGER NOT NULL,
            PRIMARY KEY (x, y, session_id, sf)
        ) WITHOUT ROWID;
        CREATE INDEX coverage_attempts_by_session ON coverage_attempts(session_id);
        CREATE TABLE coverage_left_out (
            session_id INTEGER NOT NULL,
            gateway TEXT NOT NULL,
            reason TEXT NOT NULL,
            receptions INTEGER NOT NULL,
            PRIMARY KEY (session_id, gateway, reason)
        ) WITHOUT ROWID;
        CREATE TABLE coverage_reach (
            network TEXT NOT NULL,
            gateway TEXT NOT NULL,
            antenna INTEGER NOT NULL,
            level INTEGER NOT NULL,
            bearing INTEGER NOT NULL,
            samples INTEGER NOT NULL,
            distance_max REAL NOT NULL,
            distance_2nd REAL NOT NULL,
            max_lat REAL NOT NULL,
            max_lon REAL NOT NULL,
            max_at INTEGER NOT NULL,
            PRIMARY KEY (network, gateway, antenna, level, bearing)
        ) WITHOUT ROWID;
        """

    /// Each zoom-19 cell over all sessions, gateways and SFs, with how many gateways heard there:
    /// what a map view without filters reads. A city mapped with 1,000,000 samples has 291,149
    /// cell rows (per session, gateway and SF) for 24,746 cells; summing those for a view took
    /// 350 ms, these 30 (Benchmarks: "/api/cells"). Made from `coverage_cells` alone.
    static let totalsTable = """
        CREATE TABLE coverage_totals (
            x INTEGER NOT NULL,
            y INTEGER NOT NULL,
            \(buckets.map { "\($0) INTEGER NOT NULL" }.joined(separator: ",\n    ")),
            best REAL NOT NULL,
            gateways INTEGER NOT NULL,
            first_at INTEGER NOT NULL,
            last_at INTEGER NOT NULL,
            PRIMARY KEY (x, y)
        ) WITHOUT ROWID;
        """

    /// Every cell's totals made from its rows, into an emptied table (a rebuild, a deletion); as
    /// records are stored, `addTotals` adds to them instead.
    static func makeTotals(where condition: String = "1") -> String {
        """
        INSERT INTO coverage_totals (x, y, \(buckets.joined(separator: ", ")), best, gateways, first_at, last_at)
        SELECT x, y, \(buckets.map { "SUM(\($0))" }.joined(separator: ", ")), MAX(best), COUNT(DISTINCT gateway), MIN(first_at), MAX(last_at)
        FROM coverage_cells WHERE \(condition) GROUP BY x, y
        """
    }

    /// Each gateway's places (`GatewayMove`): its first (`since` 0) and one per move, read from its
    /// receptions; and the cells it had before each move (`moved_at`), kept as history and out of
    /// every view of the coverage it has now.
    static let movesTables = """
        CREATE TABLE gateway_places (
            network TEXT NOT NULL,
            gateway TEXT NOT NULL,
            since INTEGER NOT NULL,
            lat REAL NOT NULL,
            lon REAL NOT NULL,
            PRIMARY KEY (network, gateway, since)
        ) WITHOUT ROWID;
        -- Where a gateway is now, asked by its name alone.
        CREATE INDEX gateway_places_by_gateway ON gateway_places(gateway, since);
        CREATE TABLE coverage_cells_moved (
            \(cellKey)
            moved_at INTEGER NOT NULL,
            \(cellCounts)
            PRIMARY KEY (x, y, session_id, network, gateway, antenna, sf, moved_at)
        ) WITHOUT ROWID;
        CREATE INDEX coverage_cells_moved_by_gateway ON coverage_cells_moved(gateway);
        """

    /// The move that ended the place a reception row (`s`, `r`, `u`) was heard in, NULL while it
    /// is the gateway's current place.
    static let movedAt = """
        (SELECT MIN(p.since) FROM gateway_places p WHERE p.network = COALESCE(u.network_id, '') AND p.gateway = r.gateway_id AND p.since > s.time)
        """

    /// The positions a gateway's places are read from, in time order: its placed receptions that
    /// count (the left-out rule's SQL function).
    static func gatewayPositions(where condition: String) -> String {
        """
        SELECT COALESCE(u.network_id, '') AS network, r.gateway_id AS gateway, s.time AS time, r.lat AS lat, r.lon AS lon
        FROM samples s JOIN receptions r ON r.uplink_id = s.uplink_id JOIN uplinks u ON u.id = s.uplink_id
        WHERE s.uplink_id IS NOT NULL AND s.lat IS NOT NULL AND s.lon IS NOT NULL AND r.lat IS NOT NULL AND r.lon IS NOT NULL
          AND mtt_left_out(s.lat, s.lon, r.rssi, r.lat, r.lon) IS NULL AND \(condition)
        ORDER BY 1, 2, 3, s.id, r.id
        """
    }

    /// Each gateway that moved, with when it last did.
    static let lastMoves = "SELECT network, gateway, MAX(since) FROM gateway_places WHERE since > 0 GROUP BY network, gateway"

    static let currentPlace = "SELECT since, lat, lon FROM gateway_places WHERE network = ? AND gateway = ? ORDER BY since DESC LIMIT 1"
    static let addPlace = "INSERT OR IGNORE INTO gateway_places (network, gateway, since, lat, lon) VALUES (?, ?, ?, ?, ?)"

    /// The tables a rebuild must reproduce, each with the columns it is compared and ordered by.
    static let aggregateTables: [(name: String, key: String)] = [
        ("coverage_cells", "x, y, session_id, network, gateway, antenna, sf"),
        ("coverage_cells_moved", "x, y, session_id, network, gateway, antenna, sf, moved_at"),
        ("gateway_places", "network, gateway, since"),
        ("coverage_totals", "x, y"),
        ("coverage_attempts", "x, y, session_id, sf"),
        ("coverage_linkchecks", "x, y, session_id, sf"),
        ("coverage_left_out", "session_id, gateway, reason"),
        ("coverage_reach", "network, gateway, antenna, level, bearing"),
    ]

    /// One row per reception of a placed sample's uplink (`s` the sample, `r` the reception, `u`
    /// the uplink): what a rebuild makes every aggregate of.
    static let receptionColumns = """
        s.session_id AS session_id, s.id AS sample_id, r.id AS reception_id, s.time AS time, s.lat AS lat, s.lon AS lon,
        COALESCE(u.network_id, '') AS network, r.gateway_id AS gateway, COALESCE(r.antenna_index, 0) AS antenna,
        COALESCE(u.spreading_factor, 0) AS sf, \(signal) AS signal,
        r.lat AS gateway_lat, r.lon AS gateway_lon, mtt_left_out(s.lat, s.lon, r.rssi, r.lat, r.lon) AS left_out
        """

    // MARK: A rebuild: from many reception rows at once

    /// Cells, summed from reception rows.
    static func rebuildCells(from rows: String) -> String {
        """
        INSERT INTO coverage_cells (x, y, session_id, network, gateway, antenna, sf, \(buckets.joined(separator: ", ")), best, first_at, last_at)
        SELECT mtt_tile_x(lon), mtt_tile_y(lat), session_id, network, gateway, antenna, sf,
               \(SignalBucket.allCases.map { "SUM(mtt_bucket(signal) = \($0.rawValue))" }.joined(separator: ", ")), MAX(signal), MIN(time), MAX(time)
        FROM \(rows) WHERE left_out IS NULL AND moved_at IS NULL
        GROUP BY 1, 2, 3, 4, 5, 6, 7
        """
    }

    /// Cells of the places gateways moved from, summed from reception rows.
    static func rebuildMovedCells(from rows: String) -> String {
        """
        INSERT INTO coverage_cells_moved (x, y, session_id, network, gateway, antenna, sf, moved_at, \(buckets.joined(separator: ", ")), best, first_at, last_at)
        SELECT mtt_tile_x(lon), mtt_tile_y(lat), session_id, network, gateway, antenna, sf, moved_at,
               \(SignalBucket.allCases.map { "SUM(mtt_bucket(signal) = \($0.rawValue))" }.joined(separator: ", ")), MAX(signal), MIN(time), MAX(time)
        FROM \(rows) WHERE left_out IS NULL AND moved_at IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
        """
    }

    static func rebuildLeftOut(from rows: String) -> String {
        """
        INSERT INTO coverage_left_out (session_id, gateway, reason, receptions)
        SELECT session_id, gateway, left_out, COUNT(*) FROM \(rows) WHERE left_out IS NOT NULL GROUP BY 1, 2, 3
        """
    }

    /// Reach from reception rows of gateways that say where they are: per bearing and level the
    /// largest and second-largest distance (a multiset's: two equal largest make both), and where
    /// and when the largest was heard (the first stored of equally far ones).
    static func rebuildReach(from rows: String) -> String {
        """
        INSERT INTO coverage_reach (network, gateway, antenna, level, bearing, samples, distance_max, distance_2nd, max_lat, max_lon, max_at)
        SELECT network, gateway, antenna, level, bearing, COUNT(*), MAX(d), COALESCE(MAX(CASE WHEN rank = 2 THEN d END), 0),
               MAX(CASE WHEN rank = 1 THEN lat END), MAX(CASE WHEN rank = 1 THEN lon END), MAX(CASE WHEN rank = 1 THEN time END)
        FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY network, gateway, antenna, level, bearing ORDER BY d DESC, sample_id, reception_id) AS rank
              FROM (SELECT network, gateway, antenna, mtt_reach_level(signal) AS level,
                           mtt_bearing(gateway_lat, gateway_lon, lat, lon) AS bearing, mtt_distance(gateway_lat, gateway_lon, lat, lon) AS d,
                           lat, lon, time, sample_id, reception_id
                    FROM \(rows) WHERE left_out IS NULL AND moved_at IS NULL AND gateway_lat IS NOT NULL AND gateway_lon IS NOT NULL))
        GROUP BY 1, 2, 3, 4, 5
        """
    }

    // MARK: What a transaction's samples add (CoverageAccumulator), one row per cell, beam or reason

    /// Adds a cell's counts: x, y, session, network, gateway, antenna, SF, the 12 buckets, best, first, last.
    static let addCell = """
        INSERT INTO coverage_cells (x, y, session_id, network, gateway, antenna, sf, \(buckets.joined(separator: ", ")), best, first_at, last_at)
        VALUES (\(Array(repeating: "?", count: 10 + buckets.count).joined(separator: ", ")))
        ON CONFLICT (x, y, session_id, network, gateway, antenna, sf) DO UPDATE SET
            \(buckets.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", ")),
            best = MAX(best, excluded.best), first_at = MIN(first_at, excluded.first_at), last_at = MAX(last_at, excluded.last_at)
        """

    /// Adds a transaction's counts to a cell's totals: x, y, the 12 buckets, best, the cell's
    /// gateways (counted again after its rows were added: a count of distinct names does not add
    /// up), first, last.
    static let addTotals = """
        INSERT INTO coverage_totals (x, y, \(buckets.joined(separator: ", ")), best, gateways, first_at, last_at)
        VALUES (\(Array(repeating: "?", count: 6 + buckets.count).joined(separator: ", ")))
        ON CONFLICT (x, y) DO UPDATE SET
            \(buckets.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", ")),
            best = MAX(best, excluded.best), gateways = excluded.gateways,
            first_at = MIN(first_at, excluded.first_at), last_at = MAX(last_at, excluded.last_at)
        """

    /// The gateways of a cell's rows, one per row (`RowInsert.countDifferentTexts`): a
    /// `COUNT(DISTINCT gateway)` builds a temporary B-tree each time it runs.
    static let cellGateways = "SELECT gateway FROM coverage_cells WHERE x = ? AND y = ?"

    /// Merges a beam's samples, farthest and second-farthest (and where and when the farthest was)
    /// into what is stored: the second-farthest of both is the larger of the smaller farthest and
    /// the other second; an equally far new one leaves the stored farthest in place.
    static let addBeam = """
        INSERT INTO coverage_reach (network, gateway, antenna, level, bearing, samples, distance_max, distance_2nd, max_lat, max_lon, max_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (network, gateway, antenna, level, bearing) DO UPDATE SET
            samples = samples + excluded.samples,
            distance_2nd = CASE WHEN excluded.distance_max > distance_max THEN MAX(distance_max, excluded.distance_2nd)
                                ELSE MAX(distance_2nd, excluded.distance_max) END,
            max_lat = CASE WHEN excluded.distance_max > distance_max THEN excluded.max_lat ELSE max_lat END,
            max_lon = CASE WHEN excluded.distance_max > distance_max THEN excluded.max_lon ELSE max_lon END,
            max_at = CASE WHEN excluded.distance_max > distance_max THEN excluded.max_at ELSE max_at END,
            distance_max = MAX(distance_max, excluded.distance_max)
        """

    static let addLeftOut = """
        INSERT INTO coverage_left_out (session_id, gateway, reason, receptions) VALUES (?, ?, ?, ?)
        ON CONFLICT (session_id, gateway, reason) DO UPDATE SET receptions = receptions + excluded.receptions
        """

    /// Attempts the node confirmed, counted where they were sent; `heard` once matched to an uplink.
    static func insertAttemptsGrouped(where condition: String) -> String {
        """
        INSERT INTO coverage_attempts (x, y, session_id, sf, attempts, heard, first_at, last_at)
        SELECT mtt_tile_x(f.lon), mtt_tile_y(f.lat), a.session_id, COALESCE(a.spreading_factor, 0), COUNT(*), SUM(a.uplink_id IS NOT NULL),
               MIN(f.time), MAX(f.time)
        FROM attempts a JOIN fixes f ON f.id = a.fix_id
        WHERE a.state = 'confirmed' AND mtt_position_counts(f.lat, f.lon) AND \(condition)
        GROUP BY 1, 2, 3, 4
        """
    }

    /// Estimated attempts (a tracker's frames nobody heard) counted where they were placed, in the
    /// cell's own column: after `insertAttemptsGrouped`, so a cell with both keeps one row.
    static func insertEstimatedGrouped(where condition: String) -> String {
        """
        INSERT INTO coverage_attempts (x, y, session_id, sf, attempts, heard, estimated, first_at, last_at)
        SELECT mtt_tile_x(e.lon), mtt_tile_y(e.lat), e.session_id, COALESCE(e.spreading_factor, 0), 0, 0, COUNT(*), MIN(e.sent_at), MAX(e.sent_at)
        FROM estimated_attempts e
        WHERE e.lat IS NOT NULL AND e.lon IS NOT NULL AND mtt_position_counts(e.lat, e.lon) AND \(condition)
        GROUP BY 1, 2, 3, 4
        ON CONFLICT (x, y, session_id, sf) DO UPDATE SET
            estimated = excluded.estimated, first_at = MIN(first_at, excluded.first_at), last_at = MAX(last_at, excluded.last_at)
        """
    }

    /// An estimated attempt changes its cell's count in the transaction that stores it, as a
    /// measured one does (the attempts' triggers).
    static let estimatedTrigger = """
        CREATE TRIGGER coverage_estimated_stored AFTER INSERT ON estimated_attempts
        WHEN NEW.lat IS NOT NULL AND NEW.lon IS NOT NULL
        BEGIN
            INSERT INTO coverage_attempts (x, y, session_id, sf, attempts, heard, estimated, first_at, last_at)
            SELECT mtt_tile_x(NEW.lon), mtt_tile_y(NEW.lat), NEW.session_id, COALESCE(NEW.spreading_factor, 0), 0, 0, 1, NEW.sent_at, NEW.sent_at
            WHERE mtt_position_counts(NEW.lat, NEW.lon)
            ON CONFLICT (x, y, session_id, sf) DO UPDATE SET
                estimated = estimated + 1, first_at = MIN(first_at, excluded.first_at), last_at = MAX(last_at, excluded.last_at);
        END;
        """

    /// Link checks per cell and SF (`--linkcheck`): attempts sent with one, how many were answered,
    /// the most gateways one answer counted and the best margin (NULL while none was answered).
    /// Apart from `coverage_attempts`: the network's uplinks and a modem's link checks are two
    /// witnesses, and neither is counted as the other.
    static let linkCheckTable = """
        CREATE TABLE coverage_linkchecks (
            x INTEGER NOT NULL,
            y INTEGER NOT NULL,
            session_id INTEGER NOT NULL,
            sf INTEGER NOT NULL,
            checked INTEGER NOT NULL,
            answered INTEGER NOT NULL,
            gateways INTEGER NOT NULL,
            margin INTEGER,
            first_at INTEGER NOT NULL,
            last_at INTEGER NOT NULL,
            PRIMARY KEY (x, y, session_id, sf)
        ) WITHOUT ROWID;
        CREATE INDEX coverage_linkchecks_by_session ON coverage_linkchecks(session_id);
        """

    /// A tile's link checks summed from `coverage_linkchecks` rows (`Store.linkCheckCount` reads them).
    static func linkCheckSums(_ t: String) -> String {
        "SUM(\(t).checked) AS checked, SUM(\(t).answered) AS answered, MAX(\(t).gateways) AS gateways, MAX(\(t).margin) AS margin"
    }

    /// The larger of two margins, either of which may be NULL (SQLite's MAX of a NULL is NULL).
    private static func largerMargin(_ a: String, _ b: String) -> String {
        "NULLIF(MAX(COALESCE(\(a), -1), COALESCE(\(b), -1)), -1)"
    }

    private static let mergeLinkChecks = """
        ON CONFLICT (x, y, session_id, sf) DO UPDATE SET
            checked = checked + excluded.checked, answered = answered + excluded.answered, gateways = MAX(gateways, excluded.gateways),
            margin = \(largerMargin("margin", "excluded.margin")), first_at = MIN(first_at, excluded.first_at), last_at = MAX(last_at, excluded.last_at)
        """

    private static func addLinkCheck(_ new: String) -> String {
        """
        INSERT INTO coverage_linkchecks (x, y, session_id, sf, checked, answered, gateways, margin, first_at, last_at)
        SELECT mtt_tile_x(lon), mtt_tile_y(lat), \(new).session_id, COALESCE(\(new).spreading_factor, 0), 1, \(new).linkcheck_gateways > 0,
               \(new).linkcheck_gateways, \(new).linkcheck_margin, time, time
        FROM fixes WHERE id = \(new).fix_id AND mtt_position_counts(lat, lon)
        \(mergeLinkChecks);
        """
    }

    /// A confirmed attempt's link check counts in its cell in the transaction that stores it.
    static var linkCheckTriggers: String {
        """
        CREATE TRIGGER coverage_linkcheck_stored AFTER INSERT ON attempts
        WHEN NEW.state = 'confirmed' AND NEW.fix_id IS NOT NULL AND NEW.linkcheck_gateways IS NOT NULL
        BEGIN
            \(addLinkCheck("NEW"))
        END;
        CREATE TRIGGER coverage_linkcheck_confirmed AFTER UPDATE OF state ON attempts
        WHEN OLD.state != 'confirmed' AND NEW.state = 'confirmed' AND NEW.fix_id IS NOT NULL AND NEW.linkcheck_gateways IS NOT NULL
        BEGIN
            \(addLinkCheck("NEW"))
        END;
        """
    }

    /// Link checks counted where they were sent, from the attempts: a rebuild's.
    static func insertLinkChecksGrouped(where condition: String) -> String {
        """
        INSERT INTO coverage_linkchecks (x, y, session_id, sf, checked, answered, gateways, margin, first_at, last_at)
        SELECT mtt_tile_x(f.lon), mtt_tile_y(f.lat), a.session_id, COALESCE(a.spreading_factor, 0), COUNT(*), SUM(a.linkcheck_gateways > 0),
               MAX(a.linkcheck_gateways), MAX(a.linkcheck_margin), MIN(f.time), MAX(f.time)
        FROM attempts a JOIN fixes f ON f.id = a.fix_id
        WHERE a.state = 'confirmed' AND a.linkcheck_gateways IS NOT NULL AND mtt_position_counts(f.lat, f.lon) AND \(condition)
        GROUP BY 1, 2, 3, 4
        """
    }

    private static func addAttempt(_ new: String) -> String {
        """
        INSERT INTO coverage_attempts (x, y, session_id, sf, attempts, heard, first_at, last_at)
        SELECT mtt_tile_x(lon), mtt_tile_y(lat), \(new).session_id, COALESCE(\(new).spreading_factor, 0), 1, \(new).uplink_id IS NOT NULL, time, time
        FROM fixes WHERE id = \(new).fix_id AND mtt_position_counts(lat, lon)
        ON CONFLICT (x, y, session_id, sf) DO UPDATE SET
            attempts = attempts + 1, heard = heard + excluded.heard, first_at = MIN(first_at, excluded.first_at), last_at = MAX(last_at, excluded.last_at);
        """
    }

    /// The attempts' triggers: every way an attempt's outcome is stored (a live run, a fetch, an
    /// import) changes its cell's counts in its own transaction (an attempt at a time: a trigger
    /// costs nothing that counts). Samples are counted by `CoverageAccumulator` in the transaction
    /// that stores them; a session's deletion rebuilds what it touched (`Store.deleteSession`).
    static var triggers: String {
        """
        CREATE TRIGGER coverage_attempt_stored AFTER INSERT ON attempts
        WHEN NEW.state = 'confirmed' AND NEW.fix_id IS NOT NULL
        BEGIN
            \(addAttempt("NEW"))
        END;
        CREATE TRIGGER coverage_attempt_confirmed AFTER UPDATE OF state ON attempts
        WHEN OLD.state != 'confirmed' AND NEW.state = 'confirmed' AND NEW.fix_id IS NOT NULL
        BEGIN
            \(addAttempt("NEW"))
        END;
        CREATE TRIGGER coverage_attempt_heard AFTER UPDATE OF uplink_id ON attempts
        WHEN NEW.state = 'confirmed' AND NEW.fix_id IS NOT NULL AND OLD.uplink_id IS NULL AND NEW.uplink_id IS NOT NULL
        BEGIN
            UPDATE coverage_attempts SET heard = heard + 1
            WHERE session_id = NEW.session_id AND sf = COALESCE(NEW.spreading_factor, 0)
              AND x = (SELECT mtt_tile_x(lon) FROM fixes WHERE id = NEW.fix_id)
              AND y = (SELECT mtt_tile_y(lat) FROM fixes WHERE id = NEW.fix_id);
        END;
        """
    }
}
