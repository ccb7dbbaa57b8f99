/// The postgis target's requests: a batch of records as multi-row INSERTs into schema `mtt`, with
/// their sessions, in one transaction. Every row is keyed by this database's UUID and the
/// record's id and inserted `ON CONFLICT DO NOTHING`: a batch sent again (a crash before the
/// ledger was written) changes nothing, and the database's triggers count each record once.
public struct PostGISDestination: SyncDestination {
    public let target = SyncTarget.postgis
    public var server: String
    public var databaseID: String

    public init(server: String, databaseID: String) {
        self.server = server
        self.databaseID = databaseID
    }

    public func batchSize(for kind: SyncRecordKind) -> Int { 500 }

    private static let point = "ST_SetSRID(ST_MakePoint(?::float8, ?::float8), 4326)"
    private static let ignoreRepeats = "ON CONFLICT DO NOTHING"

    public func work(for kind: SyncRecordKind, ids: [Int64], store: Store) throws -> [SyncWork<DatabaseBatch>] {
        var statements: [DatabaseBatch.Statement] = []
        var settled: [Int64] = []
        var sessions = Set<Int64>()
        switch kind {
        case .attempt:
            let attempts = try store.queuedAttempts(ids)
            statements.append(.insert(
                into: "mtt.attempts",
                columns: ["db", "id", "session_id", "sent_at", "state", "heard", "network_known", "node", "dev_eui", "f_cnt", "sf", "geom"],
                values: Array(repeating: "?", count: 11) + [Self.point],
                rows: attempts.map { a in
                    [databaseID, String(a.id), String(a.sessionID), Self.time(a.sentAt), a.state.rawValue, Self.bool(a.heard), Self.bool(a.networkKnown),
                     a.node, a.devEUI, a.fCnt.map { String($0) }, a.spreadingFactor.map { String($0) },
                     String(a.position.longitude), String(a.position.latitude)]
                },
                suffix: Self.ignoreRepeats))
            settled = attempts.map(\.id)
            sessions = Set(attempts.map(\.sessionID))
        case .sample:
            let samples = try store.queuedSamples(ids)
            statements.append(.insert(
                into: "mtt.samples",
                columns: ["db", "id", "session_id", "time", "method", "network", "device_id", "dev_eui", "f_cnt", "sf", "frequency", "geom"],
                values: Array(repeating: "?", count: 11) + [Self.point],
                rows: samples.map { s in
                    let u = s.uplink
                    return [databaseID, String(s.id), String(s.sessionID), Self.time(s.time), s.method, u.networkID ?? "", u.deviceID, u.devEUI,
                            u.fCnt.map { String($0) }, u.spreadingFactor.map { String($0) }, u.frequency.map { String($0) },
                            String(s.position.longitude), String(s.position.latitude)]
                },
                suffix: Self.ignoreRepeats))
            let receptions = samples.flatMap { s in
                s.uplink.receptions.enumerated().map { n, r -> [String?] in
                    [databaseID, String(s.id), String(n), r.gatewayID, r.gatewayEUI, String(r.antennaIndex ?? 0),
                     r.rssi.map { String($0) }, r.snr.map { String($0) }, r.location.map { String($0.longitude) }, r.location.map { String($0.latitude) }]
                }
            }
            // Rows of a few hundred: a statement's parameters stay far below PostgreSQL's 65,535.
            for chunk in stride(from: 0, to: receptions.count, by: 1_000) {
                statements.append(.insert(
                    into: "mtt.receptions",
                    columns: ["db", "sample_id", "n", "gateway", "gateway_eui", "antenna", "rssi", "snr", "gateway_geom"],
                    values: Array(repeating: "?", count: 8) + [Self.point],
                    rows: Array(receptions[chunk..<min(chunk + 1_000, receptions.count)]),
                    suffix: Self.ignoreRepeats))
            }
            settled = samples.map(\.id)
            sessions = Set(samples.map(\.sessionID))
        case .fix:
            let fixes = try store.queuedFixes(ids)
            statements.append(.insert(
                into: "mtt.tracks",
                columns: ["db", "id", "session_id", "time", "eph", "satellites", "geom"],
                values: Array(repeating: "?", count: 6) + [Self.point],
                rows: fixes.map { q in
                    [databaseID, String(q.id), String(q.sessionID), Self.time(q.fix.time), q.fix.eph.map { String($0) }, q.fix.satellites.map { String($0) },
                     String(q.fix.longitude), String(q.fix.latitude)]
                },
                suffix: Self.ignoreRepeats))
            settled = fixes.map(\.id)
            sessions = Set(fixes.map(\.sessionID))
        }
        guard !settled.isEmpty else { return [] }
        let known = try sessions.sorted().compactMap { try store.session($0) }
        let sessionRows = DatabaseBatch.Statement.insert(
            into: "mtt.sessions", columns: ["db", "id", "mode", "started_at", "ended_at", "name"], values: Array(repeating: "?", count: 6),
            rows: known.map { [databaseID, String($0.id), $0.mode.rawValue, Self.time($0.startedAt), $0.endedAt.map(Self.time), $0.name] },
            suffix: Self.ignoreRepeats)
        return [.upload(SyncBatch(kind: kind, recordIDs: settled, request: DatabaseBatch(statements: (known.isEmpty ? [] : [sessionRows]) + statements)))]
    }

    /// Committed: the database refused nothing (a refusal is the transport's error).
    public func verdict(for response: Void, kind: SyncRecordKind) -> SyncVerdict { .accepted }

    /// Microseconds, as PostgreSQL keeps them.
    private static func time(_ t: Timestamp) -> String { RFC3339.string(t, fractionDigits: 6) }
    private static func bool(_ b: Bool) -> String { b ? "true" : "false" }
}
