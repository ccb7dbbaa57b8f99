import GRDB

extension Store {

    /// Reads the places of `gateways` (nil: of every gateway) from their receptions again and
    /// writes them (`GatewayMove`); returns the gateways whose places changed.
    @discardableResult
    static func readGatewayPlaces(of gateways: Set<String>?, _ db: Database) throws -> Set<String> {
        let names = gateways?.sorted() ?? []
        if gateways != nil && names.isEmpty { return [] }
        let condition = gateways == nil ? "1" : "r.gateway_id IN (\(databaseQuestionMarks(count: names.count)))"
        var read: [GatewayKey: [GatewayMove.Place]] = [:]
        var positions: [(time: Int64, at: GeoPoint)] = []
        var current: GatewayKey?
        func close() {
            if let current { read[current] = GatewayMove.places(from: positions) }
            positions.removeAll(keepingCapacity: true)
        }
        let rows = try Row.fetchCursor(db, sql: CoverageSQL.gatewayPositions(where: condition), arguments: StatementArguments(names))
        while let row = try rows.next() {
            let key = GatewayKey(network: row[0], gateway: row[1])
            if key != current {
                close()
                current = key
            }
            positions.append((row[2], GeoPoint(latitude: row[3], longitude: row[4])))
        }
        close()
        let stored = try storedGatewayPlaces(of: condition == "1" ? nil : names, db)
        var changed: Set<String> = []
        for key in Set(read.keys).union(stored.keys) where read[key] != stored[key] {
            changed.insert(key.gateway)
            try db.execute(sql: "DELETE FROM gateway_places WHERE network = ? AND gateway = ?", arguments: [key.network, key.gateway])
            for place in read[key] ?? [] {
                try db.execute(sql: CoverageSQL.addPlace, arguments: [key.network, key.gateway, place.since, place.at.latitude, place.at.longitude])
            }
        }
        return changed
    }

    static func currentPlace(of key: GatewayKey, _ db: Database) throws -> GatewayMove.Place? {
        try Row.fetchOne(db.cachedStatement(sql: CoverageSQL.currentPlace), arguments: [key.network, key.gateway]).map { row in
            GatewayMove.Place(since: row[0], at: GeoPoint(latitude: row[1], longitude: row[2]))
        }
    }

    private static func storedGatewayPlaces(of names: [String]?, _ db: Database) throws -> [GatewayKey: [GatewayMove.Place]] {
        var stored: [GatewayKey: [GatewayMove.Place]] = [:]
        let condition = names.map { "WHERE gateway IN (\(databaseQuestionMarks(count: $0.count)))" } ?? ""
        for row in try Row.fetchAll(db, sql: "SELECT network, gateway, since, lat, lon FROM gateway_places \(condition) ORDER BY network, gateway, since",
                                    arguments: StatementArguments(names ?? [])) {
            stored[GatewayKey(network: row[0], gateway: row[1]), default: []].append(GatewayMove.Place(since: row[2], at: GeoPoint(latitude: row[3], longitude: row[4])))
        }
        return stored
    }

    /// Makes the cells (current and moved) and the reach of `gateways` again from their
    /// receptions, in every session, and the totals of every cell they had or have: after their
    /// places changed, or a reception older than a gateway's move came in.
    static func regroupCoverage(of gateways: Set<String>, _ db: Database) throws {
        guard !gateways.isEmpty else { return }
        let names = gateways.sorted()
        let inNames = "IN (\(databaseQuestionMarks(count: names.count)))"
        let arguments = StatementArguments(names)
        try db.execute(sql: "DROP TABLE IF EXISTS temp.regrouped_cells")
        try db.execute(sql: "CREATE TEMP TABLE regrouped_cells AS SELECT DISTINCT x, y FROM coverage_cells WHERE gateway \(inNames)", arguments: arguments)
        defer { try? db.execute(sql: "DROP TABLE IF EXISTS temp.regrouped_cells") }
        for table in ["coverage_cells", "coverage_cells_moved", "coverage_reach"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE gateway \(inNames)", arguments: arguments)
        }
        try withReceptionRows(where: "r.gateway_id \(inNames)", arguments: names, db) { rows in
            try db.execute(sql: CoverageSQL.rebuildCells(from: rows))
            try db.execute(sql: CoverageSQL.rebuildMovedCells(from: rows))
            try db.execute(sql: CoverageSQL.rebuildReach(from: rows))
        }
        try db.execute(sql: "INSERT INTO temp.regrouped_cells SELECT DISTINCT x, y FROM coverage_cells WHERE gateway \(inNames)", arguments: arguments)
        try db.execute(sql: "DELETE FROM coverage_totals WHERE (x, y) IN (SELECT x, y FROM temp.regrouped_cells)")
        try db.execute(sql: CoverageSQL.makeTotals(where: "(x, y) IN (SELECT x, y FROM temp.regrouped_cells)"))
    }

    static func gatewayMoves(of gateway: String?, _ db: Database) throws -> [GatewayMove] {
        try storedGatewayPlaces(of: gateway.map { [$0] }, db).sorted { ($0.key.gateway, $0.key.network) < ($1.key.gateway, $1.key.network) }.flatMap { key, places in
            zip(places, places.dropFirst()).map { from, to in
                GatewayMove(network: key.network, gateway: key.gateway, movedAt: Timestamp(nanosecondsSinceEpoch: to.since), from: from.at, to: to.at)
            }
        }
    }
}

/// A gateway as coverage keeps it apart: the same EUI on two networks is two gateways.
struct GatewayKey: Hashable {
    var network: String
    var gateway: String
}

extension StoreCoverage {
    /// Every move of `gateway` (nil: of every gateway), oldest first.
    public func gatewayMoves(of gateway: String? = nil) throws -> [GatewayMove] {
        try read { db in try Store.gatewayMoves(of: gateway, db) }
    }
}
