import GRDB

/// What the coverage prediction is fitted to: per antenna with a reported position, each reception
/// (where it was heard, and how well) and each mapped place in its reach it did not hear.
extension StoreCoverage {
    /// Reads the samples, attempts and estimated attempts of `filter`'s window (its gateway, when
    /// given, is the only antenna kept; its SF is not applied: every SF tells the path loss).
    public func predictionData(_ filter: CoverageFilter) throws -> [AntennaData] {
        try read { db in
            var window = "1", arguments: [DatabaseValue] = []
            if let since = filter.window.since { window += " AND T.time >= ?"; arguments.append(since.nanosecondsSinceEpoch.databaseValue) }
            if let until = filter.window.until { window += " AND T.time <= ?"; arguments.append(until.nanosecondsSinceEpoch.databaseValue) }
            if let session = filter.window.session { window += " AND T.session_id = ?"; arguments.append(session.databaseValue) }
            func scoped(_ table: String) -> String { window.replacingOccurrences(of: "T.", with: "\(table).") }

            // Each placed uplink once, with the antennas that heard it (those TTN Mapper's rules keep).
            // `complete`: the uplink lists every gateway that heard it (the network's own metadata,
            // live or fetched); an imported data set may keep the best gateway only, and then a
            // gateway missing from it says nothing. Antennas and networks are numbered as they
            // come: every antenna is then matched against every place by number (a key of two
            // texts hashed for each pair was 40 % of a predicted layer's instructions).
            var places: [Place] = []
            var antennaKeys: [AntennaKey] = [], antennaIndex: [AntennaKey: Int] = [:]
            var networks: [String: Int] = [:]
            var lastUplink: Int64?
            // The last move of each gateway that moved: a few rows, read once rather than sought
            // for every reception.
            var moved: [GatewayKey: Int64] = [:]
            for row in try Row.fetchAll(db, sql: CoverageSQL.lastMoves) {
                moved[GatewayKey(network: row[0], gateway: row[1])] = row[2]
            }
            var euis: [String: String] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT s.uplink_id AS uplink, s.lat, s.lon, COALESCE(u.network_id, '') AS network, COALESCE(u.spreading_factor, 12) AS sf,
                       (SELECT mode != 'imported' FROM sessions WHERE id = s.session_id) AS complete,
                       r.gateway_id AS gateway, r.gateway_eui AS eui, COALESCE(r.antenna_index, 0) AS antenna, \(CoverageSQL.signal) AS signal,
                       mtt_left_out(s.lat, s.lon, r.rssi, r.lat, r.lon) AS left_out, s.time AS time
                FROM samples s JOIN uplinks u ON u.id = s.uplink_id LEFT JOIN receptions r ON r.uplink_id = s.uplink_id
                WHERE s.uplink_id IS NOT NULL AND s.lat IS NOT NULL AND s.lon IS NOT NULL AND mtt_position_counts(s.lat, s.lon) AND \(scoped("s"))
                ORDER BY s.uplink_id
                """, arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                let uplink: Int64 = row[PredictionQueryColumns.uplink]
                let network: String = row[PredictionQueryColumns.network]
                if uplink != lastUplink {
                    lastUplink = uplink
                    let number = networks[network] ?? networks.count
                    networks[network] = number
                    places.append(Place(
                        point: GeoPoint(latitude: row[PredictionQueryColumns.lat], longitude: row[PredictionQueryColumns.lon]), network: number,
                        sf: row[PredictionQueryColumns.sf], complete: row[PredictionQueryColumns.complete]))
                }
                guard let gateway: String = row[PredictionQueryColumns.gateway], let signal: Double = row[PredictionQueryColumns.signal],
                      (row[PredictionQueryColumns.leftOut] as String?) == nil
                else { continue }
                if let eui: String = row[PredictionQueryColumns.eui] { euis[gateway] = eui }
                let key = AntennaKey(network: network, gateway: gateway, antenna: row[PredictionQueryColumns.antenna])
                let antenna = antennaIndex[key] ?? antennaKeys.count
                if antenna == antennaKeys.count {
                    antennaKeys.append(key)
                    antennaIndex[key] = antenna
                }
                // Heard from a place its gateway has since moved from (`GatewayMove`): neither
                // heard nor missed where the gateway stands now.
                let before = moved[GatewayKey(network: network, gateway: gateway)].map { (row[PredictionQueryColumns.time] as Int64) < $0 } ?? false
                places[places.count - 1].hear(antenna, signal: before ? nil : signal)
            }
            // Sent where nobody heard: attempts the network side of is known (or a link check went
            // unanswered), and trackers' frames missing from their counters.
            var unheard: [(point: GeoPoint, sf: Int)] = []
            for row in try Row.fetchAll(db, sql: """
                SELECT f.lat, f.lon, COALESCE(a.spreading_factor, 12) AS sf FROM attempts a JOIN fixes f ON f.id = a.fix_id
                WHERE a.state = 'confirmed' AND a.uplink_id IS NULL AND mtt_position_counts(f.lat, f.lon) AND \(scoped("f"))
                  AND ((\(CoverageSQL.networkKnown) AND COALESCE(a.linkcheck_gateways, 0) = 0) OR a.linkcheck_gateways = 0)
                UNION ALL
                SELECT e.lat, e.lon, COALESCE(e.spreading_factor, 12) FROM estimated_attempts e
                WHERE e.lat IS NOT NULL AND e.lon IS NOT NULL AND mtt_position_counts(e.lat, e.lon) AND \(window.replacingOccurrences(of: "T.time", with: "e.sent_at").replacingOccurrences(of: "T.", with: "e."))
                """, arguments: StatementArguments(arguments + arguments)) {
                unheard.append((GeoPoint(latitude: row[PredictionQueryColumns.lat], longitude: row[PredictionQueryColumns.lon]), row[PredictionQueryColumns.sf]))
            }

            var heard = [[AntennaObservation]](repeating: [], count: antennaKeys.count)
            for place in places {
                for (antenna, signal) in place.heardBy {
                    guard let signal, filter.gateway == nil || antennaKeys[antenna].gateway == filter.gateway else { continue }
                    heard[antenna].append(AntennaObservation(point: place.point, signal: signal, spreadingFactor: place.sf))
                }
            }
            var antennas: [AntennaData] = []
            for (antenna, receptions) in heard.enumerated() where !receptions.isEmpty {
                let key = antennaKeys[antenna]
                // A gateway that never said where it is stands where its strongest receptions were
                // heard from (as the map estimates it), and says so.
                let reported = try Store.reportedPosition(of: key.gateway, db)
                guard let position = try reported ?? Store.estimatedPosition(of: key.gateway, db) else {
                    antennas.append(AntennaData(key: key, eui: euis[key.gateway], position: nil, observations: receptions))
                    continue
                }
                let reach = receptions.map { position.distance(to: $0.point) / 1000 }.max() ?? 0
                let limit = AntennaModel.limit(reach: reach) * 1000
                let near = NearTest(position, metres: limit)
                var observations = receptions
                let network = networks[key.network]
                for place in places where place.complete && place.network == network && !place.heard(antenna) && near.holds(place.point) {
                    observations.append(AntennaObservation(point: place.point, signal: nil, spreadingFactor: place.sf))
                }
                for place in unheard where near.holds(place.point) {
                    observations.append(AntennaObservation(point: place.point, signal: nil, spreadingFactor: place.sf))
                }
                var data = AntennaData(key: key, eui: euis[key.gateway], position: position, observations: observations)
                data.positionEstimated = reported == nil
                antennas.append(data)
            }
            return antennas.sorted { $0.key < $1.key }
        }
    }
}

/// A placed uplink as the models read it: where, on which network and SF, and which antennas
/// heard it (their numbers, with the signal; nil for one heard from a place its gateway has since
/// moved from). A few antennas hear each: a list, not a dictionary.
private struct Place {
    var point: GeoPoint
    var network: Int
    var sf: Int
    var complete: Bool
    var heardBy: [(antenna: Int, signal: Double?)] = []

    mutating func hear(_ antenna: Int, signal: Double?) {
        if let i = heardBy.firstIndex(where: { $0.antenna == antenna }) {
            // The best of an antenna's receptions of one uplink (its two radios, a repeat).
            if let signal { heardBy[i].signal = max(heardBy[i].signal ?? -.infinity, signal) }
        } else {
            heardBy.append((antenna, signal))
        }
    }

    func heard(_ antenna: Int) -> Bool { heardBy.contains { $0.antenna == antenna } }
}

/// One antenna's data for a model: where its gateway says it is (nil when it never said), and what
/// it was seen to do.
public struct AntennaData: Sendable {
    public var key: AntennaKey
    /// The gateway's EUI, when the network said it.
    public var eui: String?
    public var position: GeoPoint?
    /// The gateway reports no position: `position` is estimated from its strongest receptions.
    public var positionEstimated = false
    public var observations: [AntennaObservation]

    public init(key: AntennaKey, eui: String? = nil, position: GeoPoint?, observations: [AntennaObservation]) {
        self.key = key
        self.eui = eui
        self.position = position
        self.observations = observations
    }
}
