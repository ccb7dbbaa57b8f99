import GRDB

extension Store {

    /// Makes every cell's totals again from the cell rows: after a rebuild, or a deletion (a
    /// deleted session's cells may have no rows left).
    static func rebuildCoverageTotals(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM coverage_totals")
        try db.execute(sql: CoverageSQL.makeTotals())
    }

    /// Rebuilds the cells, attempt counts and left-out counts of `sessions`, and the places and
    /// reach of `gateways`; nil is all of them. A gateway whose places changed (a deleted session
    /// held its move) has its cells made again in every session.
    static func rebuildCoverage(sessions: Set<Int64>?, gateways: Set<String>?, _ db: Database) throws {
        // A database still being migrated to the schema that keeps them has no places.
        let keepsPlaces = try db.tableExists("gateway_places")
        if keepsPlaces {
            if sessions == nil && gateways == nil {
                // Read again for every gateway: those no reception names any more are deleted.
                try readGatewayPlaces(of: nil, db)
            } else if let gateways {
                try regroupCoverage(of: try readGatewayPlaces(of: gateways, db), db)
            }
        }
        if sessions == nil || !(sessions?.isEmpty ?? true) {
            let inSessions = sessions.map { "IN (\($0.sorted().map(String.init).joined(separator: ",")))" }
            for table in ["coverage_cells", "coverage_left_out", "coverage_attempts"] + (keepsPlaces ? ["coverage_cells_moved"] : []) {
                try db.execute(sql: "DELETE FROM \(table)" + (inSessions.map { " WHERE session_id \($0)" } ?? ""))
            }
            try withReceptionRows(where: inSessions.map { "s.session_id \($0)" } ?? "1", arguments: [], db) { rows in
                try db.execute(sql: CoverageSQL.rebuildCells(from: rows))
                if keepsPlaces { try db.execute(sql: CoverageSQL.rebuildMovedCells(from: rows)) }
                try db.execute(sql: CoverageSQL.rebuildLeftOut(from: rows))
                if sessions == nil && gateways == nil {
                    try db.execute(sql: "DELETE FROM coverage_reach")
                    try db.execute(sql: CoverageSQL.rebuildReach(from: rows))
                }
            }
            try db.execute(sql: CoverageSQL.insertAttemptsGrouped(where: inSessions.map { "a.session_id \($0)" } ?? "1"))
            // A database still being migrated to the schema that keeps them has none.
            if try db.tableExists("estimated_attempts") {
                try db.execute(sql: CoverageSQL.insertEstimatedGrouped(where: inSessions.map { "e.session_id \($0)" } ?? "1"))
            }
            if try db.tableExists("coverage_linkchecks") {
                try db.execute(sql: "DELETE FROM coverage_linkchecks" + (inSessions.map { " WHERE session_id \($0)" } ?? ""))
                try db.execute(sql: CoverageSQL.insertLinkChecksGrouped(where: inSessions.map { "a.session_id \($0)" } ?? "1"))
            }
            if sessions == nil && gateways == nil { return }
        }
        guard let gateways, !gateways.isEmpty else { return }
        let names = gateways.sorted()
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ",")
        try db.execute(sql: "DELETE FROM coverage_reach WHERE gateway IN (\(placeholders))", arguments: StatementArguments(names))
        try withReceptionRows(where: "r.gateway_id IN (\(placeholders))", arguments: names, db) { rows in
            try db.execute(sql: CoverageSQL.rebuildReach(from: rows))
        }
    }

    /// Gives `body` a temporary table of the reception rows `condition` selects, read once for
    /// all the aggregates made from them.
    static func withReceptionRows(where condition: String, arguments: [String], _ db: Database, _ body: (String) throws -> Void) throws {
        let movedAt = try db.tableExists("gateway_places") ? CoverageSQL.movedAt : "NULL"
        try db.execute(sql: "DROP TABLE IF EXISTS temp.coverage_rows")
        try db.execute(sql: """
            CREATE TEMP TABLE coverage_rows AS
            SELECT \(CoverageSQL.receptionColumns), \(movedAt) AS moved_at
            FROM samples s JOIN receptions r ON r.uplink_id = s.uplink_id JOIN uplinks u ON u.id = s.uplink_id
            WHERE s.uplink_id IS NOT NULL AND s.lat IS NOT NULL AND s.lon IS NOT NULL AND \(condition)
            """, arguments: StatementArguments(arguments))
        defer { try? db.execute(sql: "DROP TABLE IF EXISTS temp.coverage_rows") }
        try body("temp.coverage_rows")
    }
}

extension Store {

    /// Each gateway antenna of the selection: its cells, receptions, position (estimated when it
    /// publishes none) and farthest reception.
    static func coverageGateways(_ filter: CoverageFilter, _ db: Database) throws -> [CoverageSummary.Gateway] {
        let cells = coverageCondition(filter, table: "c", gateway: true)
        var gateways: [CoverageSummary.Gateway] = []
        // The farthest reception is the farthest beam's; the position, the one the gateway reported last.
        for row in try Row.fetchAll(db, sql: """
            SELECT c.network, c.gateway, c.antenna, COUNT(DISTINCT c.x * 1048576 + c.y) AS cells, SUM(\(CoverageSQL.bucketTotal("c"))) AS receptions,
                   MAX(c.best) AS best, MIN(c.first_at) AS first_at, MAX(c.last_at) AS last_at
            FROM coverage_cells c WHERE \(cells.sql)
            GROUP BY c.network, c.gateway, c.antenna
            ORDER BY cells DESC, c.gateway
            """, arguments: StatementArguments(cells.arguments)) {
            let gateway: String = row[CoverageQueryColumns.gateway]
            let far = try Row.fetchOne(db, sql: """
                SELECT distance_max, bearing, max_lat, max_lon, max_at FROM coverage_reach WHERE network = ? AND gateway = ? AND antenna = ?
                ORDER BY distance_max DESC, max_at, level, bearing LIMIT 1
                """, arguments: [row[CoverageQueryColumns.network], gateway, row[CoverageQueryColumns.antenna]])
            var position = try reportedPosition(of: gateway, db)
            let estimated = position == nil
            if position == nil { position = try estimatedPosition(of: gateway, db) }
            gateways.append(.init(
                network: row[CoverageQueryColumns.network], gateway: gateway, antenna: row[CoverageQueryColumns.antenna], cells: row[CoverageQueryColumns.cells], receptions: row[CoverageQueryColumns.receptions],
                best: row[CoverageQueryColumns.best], firstHeard: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.firstAt]),
                lastHeard: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.lastAt]), position: position, estimated: estimated && position != nil,
                farthest: far.map { .init(
                    metres: $0[CoverageQueryColumns.distanceMax], bearing: $0[CoverageQueryColumns.bearing], at: GeoPoint(latitude: $0[CoverageQueryColumns.maxLat], longitude: $0[CoverageQueryColumns.maxLon]),
                    time: Timestamp(nanosecondsSinceEpoch: $0[CoverageQueryColumns.maxAt])) }))
        }
        return gateways
    }

    /// Where a gateway said it is, the last time it did; for one that moved (`GatewayMove`), the
    /// place it moved to last, whatever a reception from before the move stored later says.
    static func reportedPosition(of gateway: String, _ db: Database) throws -> GeoPoint? {
        if let moved = try Row.fetchOne(db, sql: "SELECT lat, lon FROM gateway_places WHERE gateway = ? AND since > 0 ORDER BY since DESC LIMIT 1", arguments: [gateway]) {
            return GeoPoint(latitude: moved[0], longitude: moved[1])
        }
        return try Row.fetchOne(db, sql: """
            SELECT lat, lon FROM receptions WHERE gateway_id = ? AND lat IS NOT NULL AND lon IS NOT NULL ORDER BY id DESC LIMIT 1
            """, arguments: [gateway]).map { GeoPoint(latitude: $0[CoverageQueryColumns.lat], longitude: $0[CoverageQueryColumns.lon]) }
    }

    /// A gateway that publishes no position: where its strongest receptions were heard from.
    static func estimatedPosition(of gateway: String, _ db: Database) throws -> GeoPoint? {
        let rows = try Row.fetchAll(db, sql: """
            SELECT s.lat, s.lon, \(CoverageSQL.signal) AS signal
            FROM receptions r JOIN samples s ON s.uplink_id = r.uplink_id
            WHERE r.gateway_id = ? AND r.rssi IS NOT NULL AND s.lat IS NOT NULL AND s.lon IS NOT NULL
            ORDER BY signal DESC LIMIT \(GatewayPosition.receptions)
            """, arguments: [gateway])
        return GatewayPosition.estimate(rows.map { (GeoPoint(latitude: $0[CoverageQueryColumns.lat], longitude: $0[CoverageQueryColumns.lon]), $0[CoverageQueryColumns.signal]) })
    }

    /// The filter as a condition on an aggregate table (`c` cells or `a` attempts, which have no gateway).
    static func coverageCondition(_ filter: CoverageFilter, table t: String, gateway: Bool) -> (sql: String, arguments: [DatabaseValue]) {
        var sql = "\(t).last_at >= ? AND \(t).first_at <= ?"
        var arguments: [DatabaseValue] = [
            (filter.window.since?.nanosecondsSinceEpoch ?? Int64.min).databaseValue, (filter.window.until?.nanosecondsSinceEpoch ?? Int64.max).databaseValue,
        ]
        if let session = filter.window.session { sql += " AND \(t).session_id = ?"; arguments.append(session.databaseValue) }
        if let sf = filter.spreadingFactor { sql += " AND \(t).sf = ?"; arguments.append(sf.databaseValue) }
        if gateway, let name = filter.gateway { sql += " AND \(t).gateway = ?"; arguments.append(name.databaseValue) }
        if gateway, !filter.hiddenGateways.isEmpty {
            sql += " AND \(t).gateway NOT IN (\(Array(repeating: "?", count: filter.hiddenGateways.count).joined(separator: ", ")))"
            arguments += filter.hiddenGateways.sorted().map(\.databaseValue)
        }
        return (sql, arguments)
    }
}



extension Store {

    /// A row of `CoverageSQL.linkCheckSums`, read.
    static func linkCheckCount(_ row: Row) -> LinkCheckCount {
        LinkCheckCount(
            checked: row[CoverageQueryColumns.checked], answered: row[CoverageQueryColumns.answered],
            gateways: row[CoverageQueryColumns.gateways], margin: row[CoverageQueryColumns.margin])
    }

    /// A tile range as a condition on an aggregate's zoom-19 x and y: an index range on x, then y.
    static func tileBounds(_ range: TileRange?, table t: String) -> (String, [DatabaseValue]) {
        guard let range else { return ("", []) }
        let k = MapTile.cellZoom - range.zoom
        return (" AND \(t).x BETWEEN ? AND ? AND \(t).y BETWEEN ? AND ?", [
            range.minX << k, ((range.maxX + 1) << k) - 1, range.minY << k, ((range.maxY + 1) << k) - 1,
        ].map(\.databaseValue))
    }
}

extension StoreCoverage {
    /// Recomputes every coverage aggregate from the raw records (`mtt coverage --rebuild`): the
    /// tables kept as records were stored must come out the same.
    public func rebuildCoverage() throws {
        try write { db in
            try Store.rebuildCoverage(sessions: nil, gateways: nil, db)
            try Store.rebuildCoverageTotals(db)
        }
    }

    /// The aggregate tables, each as its rows in key order with every column as text: what a
    /// rebuild is compared by.
    public func coverageTables() throws -> [String: [[String]]] {
        try read { db in
            var tables: [String: [[String]]] = [:]
            for table in CoverageSQL.aggregateTables {
                tables[table.name] = try Row.fetchAll(db, sql: "SELECT * FROM \(table.name) ORDER BY \(table.key)").map { row in
                    row.databaseValues.map(\.description)
                }
            }
            return tables
        }
    }

    /// Where a gateway said it is, the last time it did; nil when it never did.
    public func reportedPosition(of gateway: String) throws -> GeoPoint? {
        try read { db in try Store.reportedPosition(of: gateway, db) }
    }

    /// `mtt coverage`: the area and each gateway antenna, read from the aggregates.
    public func coverageSummary(_ filter: CoverageFilter) throws -> CoverageSummary {
        try read { db in
            var summary = CoverageSummary()
            let cells = Store.coverageCondition(filter, table: "c", gateway: true)
            let sampled = Store.coverageCondition(filter, table: "c", gateway: false)
            let tried = Store.coverageCondition(filter, table: "a", gateway: false)
            let known = CoverageSQL.networkKnown
            func sets(_ extra: String) -> String {
                """
                WITH heard AS (SELECT DISTINCT x, y FROM coverage_cells c WHERE \(cells.sql) \(extra.replacingOccurrences(of: "T.", with: "c."))),
                     tried AS (SELECT x, y, MAX(\(known)) AS known FROM coverage_attempts a WHERE \(tried.sql) \(extra.replacingOccurrences(of: "T.", with: "a.")) GROUP BY x, y),
                     mapped AS (SELECT x, y FROM coverage_cells c WHERE \(sampled.sql) \(extra.replacingOccurrences(of: "T.", with: "c.")) UNION SELECT x, y FROM tried),
                     checked AS (SELECT x, y, SUM(answered) AS answered FROM coverage_linkchecks a WHERE \(tried.sql) \(extra.replacingOccurrences(of: "T.", with: "a.")) GROUP BY x, y)
                """
            }
            let arguments = StatementArguments(cells.arguments + tried.arguments + sampled.arguments + tried.arguments)
            // A link check answered is heard (by LinkCheck); one unanswered makes "not known" not heard.
            if let row = try Row.fetchOne(db, sql: sets("") + """
                SELECT (SELECT COUNT(*) FROM mapped) AS mapped, (SELECT COUNT(*) FROM heard) AS heard,
                       (SELECT COUNT(*) FROM tried WHERE (known OR (x, y) IN (SELECT x, y FROM checked)) AND (x, y) NOT IN heard
                                                     AND (x, y) NOT IN (SELECT x, y FROM checked WHERE answered > 0)) AS not_heard,
                       (SELECT COUNT(*) FROM tried WHERE NOT known AND (x, y) NOT IN heard AND (x, y) NOT IN (SELECT x, y FROM checked)) AS unknown,
                       (SELECT COUNT(*) FROM checked WHERE answered > 0 AND (x, y) NOT IN heard) AS answered
                """, arguments: arguments) {
                summary.area = .init(
                    mapped: row[CoverageQueryColumns.mapped], heard: row[CoverageQueryColumns.heard], mappedNotHeard: row[CoverageQueryColumns.notHeard],
                    unknown: row[CoverageQueryColumns.unknown], heardByLinkCheck: row[CoverageQueryColumns.answered])
            }
            // The newest session of the selection against those before it.
            let sessionsSeen = try Int64.fetchAll(db, sql: """
                SELECT DISTINCT session_id FROM coverage_cells c WHERE \(sampled.sql)
                UNION SELECT DISTINCT session_id FROM coverage_attempts a WHERE \(tried.sql) ORDER BY 1
                """, arguments: StatementArguments(sampled.arguments + tried.arguments))
            if sessionsSeen.count > 1, let latest = sessionsSeen.last {
                let newer = try Row.fetchOne(db, sql: sets("AND T.session_id = \(latest)") + """
                    , older_heard AS (SELECT DISTINCT x, y FROM coverage_cells c WHERE \(cells.sql) AND c.session_id < \(latest)),
                      older_mapped AS (SELECT x, y FROM coverage_cells c WHERE \(sampled.sql) AND c.session_id < \(latest)
                                       UNION SELECT x, y FROM coverage_attempts a WHERE \(tried.sql) AND a.session_id < \(latest))
                    SELECT (SELECT COUNT(*) FROM (SELECT x, y FROM mapped EXCEPT SELECT x, y FROM older_mapped)) AS mapped,
                           (SELECT COUNT(*) FROM (SELECT x, y FROM heard EXCEPT SELECT x, y FROM older_heard)) AS heard
                    """, arguments: arguments + StatementArguments(cells.arguments + sampled.arguments + tried.arguments))
                if let newer { summary.latest = .init(session: latest, newlyMapped: newer[CoverageQueryColumns.mapped], newlyHeard: newer[CoverageQueryColumns.heard]) }
            }
            summary.gateways = try Store.coverageGateways(filter, db)
            var leftOutCondition = "1"
            var leftOutArguments: [DatabaseValue] = []
            if let session = filter.window.session { leftOutCondition += " AND session_id = ?"; leftOutArguments.append(session.databaseValue) }
            if let gateway = filter.gateway { leftOutCondition += " AND gateway = ?"; leftOutArguments.append(gateway.databaseValue) }
            for row in try Row.fetchAll(db, sql: "SELECT reason, SUM(receptions) AS n FROM coverage_left_out WHERE \(leftOutCondition) GROUP BY reason",
                                        arguments: StatementArguments(leftOutArguments)) {
                summary.leftOut[row[CoverageQueryColumns.reason]] = row[CoverageQueryColumns.n]
            }
            return summary
        }
    }

    /// Each antenna's reach of gateways with a position (all gateways when `gateway` is nil).
    public func reach(gateway: String? = nil) throws -> [GatewayReach] {
        try read { db in
            let condition = gateway == nil ? "" : "AND g.gateway = ?"
            let arguments: StatementArguments = gateway.map { [$0] } ?? []
            var reaches: [GatewayReach] = []
            for g in try Row.fetchAll(db, sql: """
                SELECT DISTINCT g.network, g.gateway, g.antenna FROM coverage_reach g WHERE 1 \(condition)
                ORDER BY g.gateway, g.network, g.antenna
                """, arguments: arguments) {
                // Reach is only measured from receptions that carried the gateway's position.
                guard let position = try Store.reportedPosition(of: g[CoverageQueryColumns.gateway], db) else { continue }
                let beams = try Row.fetchAll(db, sql: """
                    SELECT level, bearing, samples, distance_max, distance_2nd FROM coverage_reach
                    WHERE network = ? AND gateway = ? AND antenna = ? ORDER BY level, bearing
                    """, arguments: [g[CoverageQueryColumns.network], g[CoverageQueryColumns.gateway], g[CoverageQueryColumns.antenna]]).map { row in
                    GatewayReach.Beam(
                        level: ReachLevel(rawValue: row[CoverageQueryColumns.level]) ?? .any, bearing: row[CoverageQueryColumns.bearing], samples: row[CoverageQueryColumns.samples],
                        farthest: row[CoverageQueryColumns.distanceMax], secondFarthest: row[CoverageQueryColumns.distance2nd])
                }
                reaches.append(GatewayReach(
                    network: g[CoverageQueryColumns.network], gateway: g[CoverageQueryColumns.gateway], antenna: g[CoverageQueryColumns.antenna],
                    position: position, beams: beams))
            }
            return reaches
        }
    }

    /// The coverage map's tiles at `zoom` (0…19) within `range` (everywhere when nil): cells summed
    /// into tiles by x ≫ k, y ≫ k, never recomputed from samples.
    public func coverageCells(_ filter: CoverageFilter, zoom: Int = MapTile.cellZoom, within range: TileRange? = nil) throws -> [CoverageCell] {
        precondition((0...MapTile.cellZoom).contains(zoom))
        let shift = MapTile.cellZoom - zoom
        return try read { db in
            var cells: [MapTile: CoverageCell] = [:]
            let heard = Store.coverageCondition(filter, table: "c", gateway: true)
            let (inHeard, heardBounds) = Store.tileBounds(range, table: "c")
            // Each zoom-19 cell's totals: kept for all sessions, gateways and SFs, else summed from
            // the cell rows the filter selects.
            let totals = filter == CoverageFilter() ? "coverage_totals c WHERE 1\(inHeard)" : """
                (SELECT c.x, c.y, \(CoverageSQL.buckets.map { "SUM(c.\($0)) AS \($0)" }.joined(separator: ", ")), MAX(c.best) AS best,
                        COUNT(DISTINCT c.gateway) AS gateways, MIN(c.first_at) AS first_at, MAX(c.last_at) AS last_at
                 FROM coverage_cells c WHERE \(heard.sql)\(inHeard) GROUP BY c.x, c.y) c
                """
            // Cursors: a cursor's row finds a column by name in a table made once (a fetched copy
            // lowercases every column name on each lookup).
            let heardRows = try Row.fetchCursor(db, sql: """
                SELECT c.x >> \(shift) AS tx, c.y >> \(shift) AS ty, \(CoverageSQL.bucketSums("c")), MAX(c.best) AS best, MAX(c.gateways) AS gateways,
                       MIN(c.first_at) AS first_at, MAX(c.last_at) AS last_at
                FROM \(totals) GROUP BY tx, ty
                """, arguments: StatementArguments(filter == CoverageFilter() ? heardBounds : heard.arguments + heardBounds))
            while let row = try heardRows.next() {
                let tile = MapTile(zoom: zoom, x: row[CoverageQueryColumns.tx], y: row[CoverageQueryColumns.ty])
                cells[tile] = CoverageCell(
                    tile: tile, buckets: (0..<SignalBucket.allCases.count).map { row[2 + $0] }, best: row[CoverageQueryColumns.best], gateways: row[CoverageQueryColumns.gateways],
                    attempts: 0, heardAttempts: 0, firstAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.firstAt]),
                    lastAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.lastAt]), state: .heard)
            }
            let tried = Store.coverageCondition(filter, table: "a", gateway: false)
            let (inTried, triedBounds) = Store.tileBounds(range, table: "a")
            let triedRows = try Row.fetchCursor(db, sql: """
                SELECT a.x >> \(shift) AS tx, a.y >> \(shift) AS ty, SUM(a.attempts) AS attempts, SUM(a.heard) AS heard,
                       SUM(a.estimated) AS estimated, MAX(\(CoverageSQL.networkKnown)) AS known,
                       MIN(a.first_at) AS first_at, MAX(a.last_at) AS last_at
                FROM coverage_attempts a WHERE \(tried.sql)\(inTried) GROUP BY tx, ty
                """, arguments: StatementArguments(tried.arguments + triedBounds))
            while let row = try triedRows.next() {
                CoverageCell.add(
                    attempts: row[CoverageQueryColumns.attempts], heard: row[CoverageQueryColumns.heard],
                    estimated: row[CoverageQueryColumns.estimated], networkKnown: row[CoverageQueryColumns.known] as Bool? ?? false,
                    firstAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.firstAt]), lastAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.lastAt]),
                    in: MapTile(zoom: zoom, x: row[CoverageQueryColumns.tx], y: row[CoverageQueryColumns.ty]), to: &cells)
            }
            let checkedRows = try Row.fetchCursor(db, sql: """
                SELECT a.x >> \(shift) AS tx, a.y >> \(shift) AS ty, \(CoverageSQL.linkCheckSums("a")),
                       MIN(a.first_at) AS first_at, MAX(a.last_at) AS last_at
                FROM coverage_linkchecks a WHERE \(tried.sql)\(inTried) GROUP BY tx, ty
                """, arguments: StatementArguments(tried.arguments + triedBounds))
            while let row = try checkedRows.next() {
                CoverageCell.add(
                    linkChecks: Store.linkCheckCount(row), firstAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.firstAt]),
                    lastAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.lastAt]),
                    in: MapTile(zoom: zoom, x: row[CoverageQueryColumns.tx], y: row[CoverageQueryColumns.ty]), to: &cells)
            }
            return CoverageCell.inRows(cells)
        }
    }

    /// Gateway antennas as `mtt coverage` lists them, for the map and the exports.
    public func coverageGateways(_ filter: CoverageFilter) throws -> [CoverageSummary.Gateway] {
        try read { db in try Store.coverageGateways(filter, db) }
    }

    /// Every gateway antenna's cells, by cell: TTN Mapper's grid rows at zoom 19 (or, at a coarser
    /// `zoom`, each antenna's cells summed into tiles), within `range` when given, one row per
    /// spreading factor when `perSpreadingFactor`; read with a cursor.
    public func forEachGatewayCell(
        _ filter: CoverageFilter, zoom: Int = MapTile.cellZoom, within range: TileRange? = nil, perSpreadingFactor: Bool = false,
        _ body: (GatewayCell) throws -> Void
    ) throws {
        try forEachGatewayCell(filter, zoom: zoom, within: range, perSpreadingFactor: perSpreadingFactor, moved: false, body)
    }

    /// The zoom-19 cells of the places gateways moved from (`GatewayMove`), per antenna and move:
    /// their history, in no other view.
    public func forEachMovedCell(_ filter: CoverageFilter, _ body: (GatewayCell) throws -> Void) throws {
        try forEachGatewayCell(filter, zoom: MapTile.cellZoom, within: nil, perSpreadingFactor: false, moved: true, body)
    }

    private func forEachGatewayCell(
        _ filter: CoverageFilter, zoom: Int, within range: TileRange?, perSpreadingFactor: Bool, moved: Bool, _ body: (GatewayCell) throws -> Void
    ) throws {
        precondition((0...MapTile.cellZoom).contains(zoom))
        let shift = MapTile.cellZoom - zoom
        let condition = Store.coverageCondition(filter, table: "c", gateway: true)
        let (inRange, rangeArguments) = Store.tileBounds(range, table: "c")
        let sf = perSpreadingFactor ? "c.sf" : "NULL"
        let movedAt = moved ? "c.moved_at" : "NULL"
        try read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT c.x >> \(shift) AS tx, c.y >> \(shift) AS ty, c.network, c.gateway, c.antenna, \(sf) AS sf, \(CoverageSQL.bucketSums("c")),
                       MAX(c.best) AS best, MIN(c.first_at) AS first_at, MAX(c.last_at) AS last_at, \(movedAt) AS moved_at
                FROM \(moved ? "coverage_cells_moved" : "coverage_cells") c WHERE \(condition.sql)\(inRange)
                GROUP BY tx, ty, c.network, c.gateway, c.antenna, \(sf), \(movedAt) ORDER BY ty, tx, c.gateway, c.network, c.antenna, \(sf), \(movedAt)
                """, arguments: StatementArguments(condition.arguments + rangeArguments))
            while let row = try rows.next() {
                try body(GatewayCell(
                    tile: MapTile(zoom: zoom, x: row[CoverageQueryColumns.tx], y: row[CoverageQueryColumns.ty]), network: row[CoverageQueryColumns.network], gateway: row[CoverageQueryColumns.gateway],
                    antenna: row[CoverageQueryColumns.antenna], spreadingFactor: row[CoverageQueryColumns.sf], buckets: (0..<SignalBucket.allCases.count).map { row[6 + $0] },
                    best: row[CoverageQueryColumns.best], firstAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.firstAt]),
                    lastAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.lastAt]),
                    movedAt: (row[CoverageQueryColumns.movedAt] as Int64?).map(Timestamp.init(nanosecondsSinceEpoch:))))
            }
        }
    }

    /// Attempts per zoom-19 cell and spreading factor, over the sessions the filter selects, with
    /// whether the network's side of any of them is known: what a report's map needs to tell
    /// "mapped, not heard" from "unknown" at any zoom, offline.
    public func forEachAttemptCell(_ filter: CoverageFilter, _ body: (AttemptCell) throws -> Void) throws {
        let condition = Store.coverageCondition(filter, table: "a", gateway: false)
        try read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT a.x, a.y, a.sf, SUM(a.attempts) AS attempts, SUM(a.heard) AS heard, SUM(a.estimated) AS estimated,
                       MAX(\(CoverageSQL.networkKnown)) AS known,
                       MIN(a.first_at) AS first_at, MAX(a.last_at) AS last_at
                FROM coverage_attempts a WHERE \(condition.sql) GROUP BY a.x, a.y, a.sf ORDER BY a.y, a.x, a.sf
                """, arguments: StatementArguments(condition.arguments))
            while let row = try rows.next() {
                try body(AttemptCell(
                    tile: MapTile(zoom: MapTile.cellZoom, x: row[CoverageQueryColumns.x], y: row[CoverageQueryColumns.y]), spreadingFactor: row[CoverageQueryColumns.sf], attempts: row[CoverageQueryColumns.attempts],
                    heard: row[CoverageQueryColumns.heard], estimated: row[CoverageQueryColumns.estimated],
                    networkKnown: row[CoverageQueryColumns.known] as Bool? ?? false, firstAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.firstAt]), lastAt: Timestamp(nanosecondsSinceEpoch: row[CoverageQueryColumns.lastAt])))
            }
        }
    }
}
