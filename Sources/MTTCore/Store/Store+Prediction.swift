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
            // gateway missing from it says nothing.
            // `heardBefore`: antennas that heard it from a place their gateway has since moved from
            // (`GatewayMove`): neither heard nor unheard where the gateway stands now.
            var places: [(point: GeoPoint, network: String, sf: Int, complete: Bool, heardBy: [AntennaKey: Double], heardBefore: Set<AntennaKey>)] = []
            var lastUplink: Int64?
            // The last move of each gateway that moved: a few rows, read once rather than sought
            // for every reception.
            var moved: [AntennaKey: Int64] = [:]
            for row in try Row.fetchAll(db, sql: CoverageSQL.lastMoves) {
                moved[AntennaKey(network: row[0], gateway: row[1], antenna: 0)] = row[2]
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
                if uplink != lastUplink {
                    lastUplink = uplink
                    places.append((GeoPoint(latitude: row[PredictionQueryColumns.lat], longitude: row[PredictionQueryColumns.lon]),
                                   row[PredictionQueryColumns.network], row[PredictionQueryColumns.sf], row[PredictionQueryColumns.complete], [:], []))
                }
                guard let gateway: String = row[PredictionQueryColumns.gateway], let signal: Double = row[PredictionQueryColumns.signal],
                      (row[PredictionQueryColumns.leftOut] as String?) == nil
                else { continue }
                if let eui: String = row[PredictionQueryColumns.eui] { euis[gateway] = eui }
                let key = AntennaKey(network: row[PredictionQueryColumns.network], gateway: gateway, antenna: row[PredictionQueryColumns.antenna])
                if let move = moved[AntennaKey(network: key.network, gateway: gateway, antenna: 0)], row[PredictionQueryColumns.time] < move {
                    places[places.count - 1].heardBefore.insert(key)
                    continue
                }
                places[places.count - 1].heardBy[key] = max(places[places.count - 1].heardBy[key] ?? -.infinity, signal)
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

            var heard: [AntennaKey: [AntennaObservation]] = [:]
            for place in places {
                for (key, signal) in place.heardBy where filter.gateway == nil || key.gateway == filter.gateway {
                    heard[key, default: []].append(AntennaObservation(point: place.point, signal: signal, spreadingFactor: place.sf))
                }
            }
            var antennas: [AntennaData] = []
            for (key, receptions) in heard {
                // A gateway that never said where it is stands where its strongest receptions were
                // heard from (as the map estimates it), and says so.
                let reported = try Store.reportedPosition(of: key.gateway, db)
                guard let position = try reported ?? Store.estimatedPosition(of: key.gateway, db) else {
                    antennas.append(AntennaData(key: key, eui: euis[key.gateway], position: nil, observations: receptions))
                    continue
                }
                let reach = receptions.map { position.distance(to: $0.point) / 1000 }.max() ?? 0
                let limit = AntennaModel.limit(reach: reach) * 1000
                var observations = receptions
                for place in places where place.complete && place.network == key.network && place.heardBy[key] == nil && !place.heardBefore.contains(key) && position.distance(to: place.point) <= limit {
                    observations.append(AntennaObservation(point: place.point, signal: nil, spreadingFactor: place.sf))
                }
                for place in unheard where position.distance(to: place.point) <= limit {
                    observations.append(AntennaObservation(point: place.point, signal: nil, spreadingFactor: place.sf))
                }
                var antenna = AntennaData(key: key, eui: euis[key.gateway], position: position, observations: observations)
                antenna.positionEstimated = reported == nil
                antennas.append(antenna)
            }
            return antennas.sorted { $0.key < $1.key }
        }
    }
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
