/// The postgis target's requests: a batch of records as many-row INSERTs into schema `mtt`, with
/// their sessions, in one transaction. Every row is keyed by this database's UUID, the mapper and
/// the record's id and inserted `ON CONFLICT DO NOTHING`: a batch sent again (a crash before the
/// ledger was written) changes nothing, and the database's triggers count each record once.
///
/// What the database's checks would refuse (`PhysicalLimits`: a record dated 1970 by a clock not
/// yet set, an RSSI stored before mtt held values to the limits) is not sent: one such row would
/// refuse the whole batch, every time. It stays in the local database.
public struct PostGISDestination: SyncDestination {
    public let target = SyncTarget.postgis
    public var server: String
    public var databaseID: String

    public init(server: String, databaseID: String) {
        self.server = server
        self.databaseID = databaseID
    }

    public func batchSize(for kind: SyncRecordKind) -> Int { 500 }

    private static let ignoreRepeats = "ON CONFLICT DO NOTHING"

    /// The rows of `table`, in the order of what it takes (`CommunityTable.uploaded`): each value its
    /// own column but `lon` and `lat`, which make the point `geom` (`gateway_lon` and `gateway_lat`,
    /// `gateway_geom`).
    private static func insert(into table: CommunityTable, rows: [[String?]]) -> DatabaseBatch.Statement {
        let values = table.uploaded
        let points = ["lon": ("geom", "lat"), "gateway_lon": ("gateway_geom", "gateway_lat")]
        let latitudes = Set(points.values.map(\.1))
        let columns = values.compactMap { value -> (name: String, expression: String?)? in
            if latitudes.contains(value.name) { return nil }
            guard let (column, latitude) = points[value.name] else { return (value.name, nil) }
            return (column, "ST_SetSRID(ST_MakePoint(\(value.name), \(latitude)), 4326)")
        }
        return .insert(into: table.name, values: values, columns: columns, rows: rows, suffix: ignoreRepeats)
    }

    public func work(for kind: SyncRecordKind, ids: [Int64], store: Store) throws -> [SyncWork<DatabaseBatch>] {
        var statements: [DatabaseBatch.Statement] = []
        var settled: [Int64] = []
        var sessions = Set<Int64>()
        var times: [Timestamp] = []
        switch kind {
        case .attempt:
            let attempts = try store.sync.queuedAttempts(ids)
            let sendable = attempts.filter { Self.isPossible($0.sentAt, $0.position) }
            statements.append(Self.insert(
                into: .attempts,
                rows: sendable.map { a in
                    [databaseID, String(a.id), String(a.sessionID), Self.time(a.sentAt), a.state.rawValue, Self.bool(a.heard), Self.bool(a.networkKnown),
                     a.node, a.devEUI, a.fCnt.map { String($0) }, a.spreadingFactor.map { String($0) },
                     String(a.position.longitude), String(a.position.latitude)]
                }))
            settled = attempts.map(\.id)
            sessions = Set(sendable.map(\.sessionID))
            times = sendable.map(\.sentAt)
        case .sample:
            let queued = try store.sync.queuedSamples(ids)
            let samples = queued.filter { Self.isPossible($0.time, $0.position) && $0.uplink.spreadingFactor.map(PhysicalLimits.spreadingFactor.contains) ?? true }
            statements.append(Self.insert(
                into: .samples,
                rows: samples.map { s in
                    let u = s.uplink
                    return [databaseID, String(s.id), String(s.sessionID), Self.time(s.time), s.method,
                            String(s.position.longitude), String(s.position.latitude), u.networkID ?? "", u.deviceID, u.devEUI,
                            u.fCnt.map { String($0) }, u.spreadingFactor.map { String($0) }, u.frequency.map { String($0) }]
                }))
            let receptions = samples.flatMap { s in
                s.uplink.screened(receptionLimit: .max).uplink.receptions.enumerated().map { n, r -> [String?] in
                    [databaseID, String(s.id), Self.time(s.time), String(n), r.gatewayID, r.gatewayEUI, String(r.antennaIndex ?? 0),
                     r.rssi.map { String($0) }, r.snr.map { String($0) }, r.location.map { String($0.longitude) }, r.location.map { String($0.latitude) }]
                }
            }
            statements.append(Self.insert(into: .receptions, rows: receptions))
            settled = queued.map(\.id)
            sessions = Set(samples.map(\.sessionID))
            times = samples.map(\.time)
        case .fix:
            let fixes = try store.sync.queuedFixes(ids)
            let sendable = fixes.filter { Self.isPossible($0.fix.time, GeoPoint(latitude: $0.fix.latitude, longitude: $0.fix.longitude)) }
            statements.append(Self.insert(
                into: .tracks,
                rows: sendable.map { q in
                    [databaseID, String(q.id), String(q.sessionID), Self.time(q.fix.time), String(q.fix.longitude), String(q.fix.latitude),
                     q.fix.eph.map { String($0) }, q.fix.satellites.map { String($0) }]
                }))
            settled = fixes.map(\.id)
            sessions = Set(sendable.map(\.sessionID))
            times = sendable.map(\.fix.time)
        }
        guard !settled.isEmpty else { return [] }
        let known = try sessions.sorted().compactMap { try store.sessions.session($0) }.filter { PhysicalLimits.isPossible($0.startedAt) }
        let sessionRows = Self.insert(
            into: .sessions,
            rows: known.map { [databaseID, String($0.id), $0.mode.rawValue, Self.time($0.startedAt), $0.endedAt.map(Self.time), $0.name] })
        // The months the rows are kept in (UTC: the text's year and month), made first where they
        // are new (schema version 4).
        let firstDays = Set(times.map { Self.time($0).prefix(7) + "-01T00:00:00Z" }).sorted()
        let months = firstDays.isEmpty ? [] : [DatabaseBatch.Statement(sql: "SELECT mtt.add_months($1::timestamptz[])", parameters: [DatabaseBatch.Statement.arrayLiteral(firstDays.map { Optional(String($0)) })])]
        return [.upload(SyncBatch(kind: kind, recordIDs: settled, request: DatabaseBatch(statements: months + (known.isEmpty ? [] : [sessionRows]) + statements)))]
    }

    /// The map's views without the silent gateways, made again from what this run added (schema
    /// version 8). Syncs ending at once wait for each other's refresh (one takes some seconds
    /// for a country), hence limits of its own, longer than a batch's, for the statement and for
    /// the wait (with the batch's lock limit, two of four syncs ending together gave up waiting
    /// for another's refresh and said the map was not made).
    public func followUp() -> SyncFollowUp<DatabaseBatch>? {
        SyncFollowUp(
            request: DatabaseBatch(statements: [
                .init(sql: "SET LOCAL statement_timeout = '\(Self.refreshLimit)s'", parameters: []),
                .init(sql: "SET LOCAL lock_timeout = '\(Self.refreshLimit)s'", parameters: []),
                .init(sql: "SELECT mtt.refresh_lately()", parameters: []),
            ]),
            done: "the map without the silent gateways made",
            ifFailed: "the community map without the silent gateways was not made again (the next sync or mtt community refresh does it)")
    }

    /// Seconds the refresh may take, waiting for another's included.
    static let refreshLimit = 300

    /// Committed: the database refused nothing (a refusal is the transport's error).
    public func verdict(for response: Void, kind: SyncRecordKind) -> SyncVerdict { .accepted }

    private static func isPossible(_ time: Timestamp, _ place: GeoPoint) -> Bool {
        PhysicalLimits.isPossible(time) && PhysicalLimits.isPlace(latitude: place.latitude, longitude: place.longitude)
    }

    /// Microseconds, as PostgreSQL keeps them.
    private static func time(_ t: Timestamp) -> String { RFC3339.string(t, fractionDigits: 6) }
    private static func bool(_ b: Bool) -> String { b ? "true" : "false" }
}
