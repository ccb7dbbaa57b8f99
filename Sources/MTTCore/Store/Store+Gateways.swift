import GRDB

/// A gateway as the heard uplinks show it: what the map's gateway table and markers need.
public struct GatewaySummary: Sendable, Hashable, Encodable {
    public var gateway: String
    public var eui: String?
    /// Uplinks it heard.
    public var uplinks: Int
    public var bestRSSI: Double?
    public var bestSNR: Double?
    /// Where it stands, when it shares its position (the newest one it gave); else where its
    /// strongest receptions were heard from, `estimated`.
    public var position: GeoPoint?
    public var estimated = false
    public var firstHeard: Timestamp
    public var lastHeard: Timestamp
    /// What its receptions say of the position it reports, when they contradict it.
    public var positionCheck: String?
    /// Days it has been silent before the newest reception of any gateway, when that is long enough
    /// for the map to leave its cells out (`SilentGateways`).
    public var silentDays: Double?

    enum CodingKeys: String, CodingKey {
        case gateway, eui, uplinks, lat, lon, estimated, positionCheck = "position_check", silentDays = "silent_days"
        case bestRSSI = "best_rssi", bestSNR = "best_snr", firstHeard = "first_heard", lastHeard = "last_heard"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(gateway, forKey: .gateway)
        try c.encode(eui, forKey: .eui)
        try c.encode(uplinks, forKey: .uplinks)
        try c.encode(bestRSSI, forKey: .bestRSSI)
        try c.encode(bestSNR, forKey: .bestSNR)
        try c.encode(position?.latitude, forKey: .lat)
        try c.encode(position?.longitude, forKey: .lon)
        try c.encode(estimated, forKey: .estimated)
        try c.encode(RFC3339.string(firstHeard), forKey: .firstHeard)
        try c.encode(RFC3339.string(lastHeard), forKey: .lastHeard)
        try c.encode(positionCheck, forKey: .positionCheck)
        try c.encode(silentDays, forKey: .silentDays)
    }
}


extension StoreCoverage {
    /// Every gateway that heard an uplink the filter selects, most uplinks first.
    public func gatewaySummaries(_ filter: ExportFilter) throws -> [GatewaySummary] {
        let (condition, bounds, _) = filter.sql(time: "uplinks.received_at")
        let (sessionCondition, sessionArguments) = filter.sessionSQL()
        let arguments: [any DatabaseValueConvertible] = bounds.map { $0 ?? 0 } + sessionArguments
        return try read { db in
            var gateways = try Row.fetchAll(db, sql: """
                SELECT r.gateway_id, MAX(r.gateway_eui), COUNT(DISTINCT r.uplink_id), MAX(r.rssi), MAX(r.snr),
                       (SELECT lat FROM receptions p WHERE p.gateway_id = r.gateway_id AND p.lat IS NOT NULL ORDER BY p.id DESC LIMIT 1),
                       (SELECT lon FROM receptions p WHERE p.gateway_id = r.gateway_id AND p.lat IS NOT NULL ORDER BY p.id DESC LIMIT 1),
                       MIN(uplinks.received_at), MAX(uplinks.received_at)
                FROM receptions r JOIN uplinks ON uplinks.id = r.uplink_id JOIN sessions ON sessions.id = uplinks.session_id
                WHERE \(condition) \(sessionCondition)
                GROUP BY r.gateway_id ORDER BY 3 DESC, 1
                """, arguments: StatementArguments(arguments)
            ).map { row in
                let lat: Double? = row[5]
                let lon: Double? = row[6]
                return GatewaySummary(
                    gateway: row[0], eui: row[1], uplinks: row[2], bestRSSI: row[3], bestSNR: row[4],
                    position: lat.flatMap { la in lon.map { GeoPoint(latitude: la, longitude: $0) } },
                    firstHeard: Timestamp(nanosecondsSinceEpoch: row[7]), lastHeard: Timestamp(nanosecondsSinceEpoch: row[8]))
            }
            for i in gateways.indices where gateways[i].position == nil {
                gateways[i].position = try Store.estimatedPosition(of: gateways[i].gateway, db)
                gateways[i].estimated = gateways[i].position != nil
            }
            return gateways
        }
    }
}
