import GRDB

/// The coverage a transaction's samples add, summed in memory and written when the transaction
/// ends (`Store.batch`), before it commits: one upsert per cell and per beam touched instead of
/// one statement per reception. A listener burst of 500 samples on a drive touches a few hundred
/// cells and beams; a trigger per sample made storing a placed sample three times as slow
/// (Benchmarks: "store 10,000 placed samples").
///
/// The rules are the ones the rebuild applies in SQL (`CoverageSQL`, through `CoverageFunctions`):
/// the tests hold the two to the same tables.
///
/// Why coverage is kept two ways, samples here and attempts by triggers (`CoverageSQL.triggers`):
/// samples come hundreds to a transaction, always through `Store.batch`, where summing in memory
/// is what makes them cheap; an attempt's outcome changes one row at a time along many paths (a
/// live confirmation, the join to its uplink, a fetch, an import, a crashed run resolved at the
/// next start), and a trigger counts every one of them without each writer having to remember
/// to, at a cost that does not show for one row. The rebuild is the one definition both answer to.
final class CoverageAccumulator {
    /// What coverage needs of a stored uplink: its network, SF and receptions.
    struct UplinkFacts {
        struct Reception {
            var gateway: String
            var antenna: Int
            var rssi: Double?
            var snr: Double?
            var location: GeoPoint?
        }

        var network: String
        var spreadingFactor: Int
        var receptions: [Reception]

        init(network: String, spreadingFactor: Int, receptions: [Reception]) {
            self.network = network
            self.spreadingFactor = spreadingFactor
            self.receptions = receptions
        }

        init(_ uplink: Uplink) {
            self.init(
                network: uplink.networkID ?? "", spreadingFactor: uplink.spreadingFactor ?? 0,
                receptions: uplink.receptions.map { .init(gateway: $0.gatewayID, antenna: $0.antennaIndex ?? 0, rssi: $0.rssi, snr: $0.snr, location: $0.location) })
        }
    }

    private struct CellKey: Hashable {
        var x: Int, y: Int, session: Int64, network: String, gateway: String, antenna: Int, sf: Int
    }

    private struct Cell {
        var buckets = [Int](repeating: 0, count: SignalBucket.allCases.count)
        var best = -Double.infinity
        var first = Int64.max
        var last = Int64.min

        mutating func add(_ other: Cell) {
            for (i, n) in other.buckets.enumerated() { buckets[i] += n }
            best = max(best, other.best)
            first = min(first, other.first)
            last = max(last, other.last)
        }
    }

    private struct BeamKey: Hashable {
        var network: String, gateway: String, antenna: Int, level: Int, bearing: Int
    }

    private struct Beam {
        var samples = 0
        var farthest = 0.0
        var second = 0.0
        var at = GeoPoint(latitude: 0, longitude: 0)
        var time: Int64 = 0
    }

    private struct LeftOutKey: Hashable {
        var session: Int64, gateway: String, reason: String
    }

    /// Uplinks stored in this transaction, so their samples need not read them back (kept as they
    /// are: most of a listener burst's uplinks get their samples in a later transaction).
    private var uplinks: [Int64: Uplink] = [:]
    private var cells: [CellKey: Cell] = [:]
    private var beams: [BeamKey: Beam] = [:]
    private var beamOrder: [BeamKey] = []
    private var leftOut: [LeftOutKey: Int] = [:]
    /// Each gateway's current place (`GatewayMove`), read once a transaction; nil for one that
    /// never said where it is.
    private var places: [GatewayKey: GatewayMove.Place?] = [:]
    /// First places seen in this transaction, written with its cells.
    private var newPlaces: [GatewayKey: GatewayMove.Place] = [:]
    /// Gateways with a reception this place cannot hold (a move, or a reception older than the
    /// last move): their places and coverage are read again from the receptions when the
    /// transaction's coverage is written, and their receptions are not counted here.
    private var regrouped: Set<String> = []

    func stored(_ uplink: Uplink, id: Int64) {
        uplinks[id] = uplink
    }

    /// Counts a placed sample of a heard uplink, as the rebuild does.
    func add(session: Int64, uplink id: Int64, time: Int64, at place: GeoPoint, _ db: Database) throws {
        guard let facts = try uplinks[id].map(UplinkFacts.init) ?? Self.facts(of: id, db) else { return }
        let tile = MapTile(containing: place)
        for r in facts.receptions {
            if let reason = CoverageRules.leftOut(sample: place, rssi: r.rssi, gateway: r.location) {
                leftOut[LeftOutKey(session: session, gateway: r.gateway, reason: reason.rawValue), default: 0] += 1
                continue
            }
            guard let rssi = r.rssi, try holds(r, of: facts.network, at: time, db) else { continue }
            let signal = SignalBucket.signal(rssi: rssi, snr: r.snr)
            let key = CellKey(x: tile.x, y: tile.y, session: session, network: facts.network, gateway: r.gateway, antenna: r.antenna, sf: facts.spreadingFactor)
            var cell = cells[key] ?? Cell()
            cell.buckets[SignalBucket(signal: signal).rawValue] += 1
            cell.best = max(cell.best, signal)
            cell.first = min(cell.first, time)
            cell.last = max(cell.last, time)
            cells[key] = cell
            guard let gateway = r.location else { continue }
            let d = gateway.distance(to: place)
            let beamKey = BeamKey(
                network: facts.network, gateway: r.gateway, antenna: r.antenna, level: ReachLevel(signal: signal).rawValue,
                bearing: Int(gateway.bearing(to: place).rounded(.down)))
            var beam: Beam
            if let known = beams[beamKey] {
                beam = known
                if d > beam.farthest {
                    beam.second = beam.farthest
                    beam.farthest = d
                    beam.at = place
                    beam.time = time
                } else if d > beam.second {
                    beam.second = d
                }
            } else {
                beam = Beam(farthest: d, at: place, time: time)
                beamOrder.append(beamKey)
            }
            beam.samples += 1
            beams[beamKey] = beam
        }
    }

    /// Whether the gateway's current place holds reception `r` heard at `time`; a gateway heard
    /// for the first time with a position gets its first place.
    private func holds(_ r: UplinkFacts.Reception, of network: String, at time: Int64, _ db: Database) throws -> Bool {
        guard !regrouped.contains(r.gateway) else { return false }
        let key = GatewayKey(network: network, gateway: r.gateway)
        let place: GatewayMove.Place?
        if let known = places[key] {
            place = known
        } else {
            place = try Store.currentPlace(of: key, db)
            places[key] = .some(place)
        }
        guard let place else {
            if let location = r.location {
                let first = GatewayMove.Place(since: 0, at: location)
                places[key] = first
                newPlaces[key] = first
            }
            return true
        }
        guard place.holds(r.location, at: time) else {
            regrouped.insert(r.gateway)
            return false
        }
        return true
    }

    /// Writes what the transaction added and forgets it. Rows are bound straight into the
    /// statements (`RowInsert`): gathering them as `StatementArguments` was two thirds of the cost.
    func flush(_ batch: Store.Batch) throws {
        let db = batch.db
        defer {
            uplinks.removeAll()
            cells.removeAll()
            beams.removeAll()
            beamOrder.removeAll()
            leftOut.removeAll()
            places.removeAll()
            newPlaces.removeAll()
            regrouped.removeAll()
        }
        if !newPlaces.isEmpty {
            let insert = try db.cachedStatement(sql: CoverageSQL.addPlace)
            for (k, place) in newPlaces {
                try insert.execute(arguments: [k.network, k.gateway, place.since, place.at.latitude, place.at.longitude])
            }
        }
        if !cells.isEmpty {
            let upsert = try db.cachedStatement(sql: CoverageSQL.addCell)
            var touched: [MapTile: Cell] = [:]
            for (k, c) in cells {
                var row = RowInsert(batch, statement: upsert)
                row.bind(k.x)
                row.bind(k.y)
                row.bind(k.session)
                row.bind(k.network)
                row.bind(k.gateway)
                row.bind(k.antenna)
                row.bind(k.sf)
                for n in c.buckets { row.bind(n) }
                row.bind(c.best)
                row.bind(c.first)
                row.bind(c.last)
                try row.run()
                touched[MapTile(zoom: MapTile.cellZoom, x: k.x, y: k.y), default: Cell()].add(c)
            }
            // The totals take the transaction's sums, as the cells do: summing a cell's rows again
            // cost three times as much on a drive, where nearly every sample is a new cell.
            let gateways = try db.cachedStatement(sql: CoverageSQL.cellGateways)
            let totals = try db.cachedStatement(sql: CoverageSQL.addTotals)
            for (tile, c) in touched {
                var cellGateways = RowInsert(batch, statement: gateways)
                cellGateways.bind(tile.x)
                cellGateways.bind(tile.y)
                let gatewayCount = try cellGateways.countDifferentTexts()
                var row = RowInsert(batch, statement: totals)
                row.bind(tile.x)
                row.bind(tile.y)
                for n in c.buckets { row.bind(n) }
                row.bind(c.best)
                row.bind(gatewayCount)
                row.bind(c.first)
                row.bind(c.last)
                try row.run()
            }
        }
        if !beams.isEmpty {
            let upsert = try db.cachedStatement(sql: CoverageSQL.addBeam)
            // In the order first touched: of equally far receptions the first stored stays the farthest.
            for k in beamOrder {
                guard let b = beams[k] else { continue }
                var row = RowInsert(batch, statement: upsert)
                row.bind(k.network)
                row.bind(k.gateway)
                row.bind(k.antenna)
                row.bind(k.level)
                row.bind(k.bearing)
                row.bind(b.samples)
                row.bind(b.farthest)
                row.bind(b.second)
                row.bind(b.at.latitude)
                row.bind(b.at.longitude)
                row.bind(b.time)
                try row.run()
            }
        }
        if !leftOut.isEmpty {
            let upsert = try db.cachedStatement(sql: CoverageSQL.addLeftOut)
            for (k, n) in leftOut {
                var row = RowInsert(batch, statement: upsert)
                row.bind(k.session)
                row.bind(k.gateway)
                row.bind(k.reason)
                row.bind(n)
                try row.run()
            }
        }
        if !regrouped.isEmpty {
            try Store.readGatewayPlaces(of: regrouped, db)
            try Store.regroupCoverage(of: regrouped, db)
        }
    }

    private static func facts(of uplink: Int64, _ db: Database) throws -> UplinkFacts? {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT u.network_id, u.spreading_factor, r.gateway_id, r.antenna_index, r.rssi, r.snr, r.lat, r.lon
            FROM uplinks u LEFT JOIN receptions r ON r.uplink_id = u.id WHERE u.id = ? ORDER BY r.id
            """), arguments: [uplink])
        guard let first = rows.first else { return nil }
        return UplinkFacts(
            network: first[UplinkColumns.networkID] ?? "", spreadingFactor: first[UplinkColumns.spreadingFactor] ?? 0,
            receptions: rows.compactMap { row in
                guard let gateway: String = row[ReceptionColumns.gatewayID] else { return nil }
                let lat: Double? = row[ReceptionColumns.lat], lon: Double? = row[ReceptionColumns.lon]
                return .init(gateway: gateway, antenna: row[ReceptionColumns.antennaIndex] ?? 0, rssi: row[ReceptionColumns.rssi], snr: row[ReceptionColumns.snr],
                             location: lat.flatMap { lat in lon.map { GeoPoint(latitude: lat, longitude: $0) } })
            })
    }
}
