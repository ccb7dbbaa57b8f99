import FoundationEssentials

/// A MapTheThings server: confirmed attempts to its `/api/v0/transmissions`, listener samples and
/// matching tracks to mtt's `/api/v0/samples` and `/api/v0/tracks`.
public struct MapTheThingsDestination: SyncDestination {
    public static let defaultBaseURL = URL(string: "http://map.thethings.nyc")!

    public let target = SyncTarget.mapthethings
    public var baseURL: URL
    public var server: String { baseURL.absoluteString }
    public var credentials: MapTheThingsCredentials
    /// Names this database in track ids and idempotency keys.
    public var databaseID: String

    public init(baseURL: URL, credentials: MapTheThingsCredentials, databaseID: String) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.databaseID = databaseID
    }

    public func batchSize(for kind: SyncRecordKind) -> Int {
        kind == .fix ? 500 : 1
    }

    public func work(for kind: SyncRecordKind, ids: [Int64], store: Store) throws -> [SyncWork<HTTPSyncRequest>] {
        let encoder = JSONEncoder.stable()
        switch kind {
        case .attempt:
            return try store.sync.queuedAttempts(ids).map { a in
                let body = MapTheThingsBodies.Transmission(
                    lat: a.position.latitude, lon: a.position.longitude, alt: a.position.altitude,
                    timestamp: RFC3339.string(a.sentAt, fractionDigits: 3), dev_eui: a.devEUI ?? a.node, msg_seq: a.fCnt)
                return .upload(request(kind, [a.id], path: "transmissions", body: try encoder.encode(body)))
            }
        case .sample:
            return try store.sync.queuedSamples(ids).map { s in
                let u = s.uplink
                let body = MapTheThingsBodies.Sample(
                    lat: s.position.latitude, lon: s.position.longitude, alt: s.position.altitude,
                    timestamp: RFC3339.string(s.time, fractionDigits: 3), dev_eui: u.devEUI, device_id: u.deviceID,
                    msg_seq: u.fCnt.map(Int64.init), method: s.method, spreading_factor: u.spreadingFactor,
                    frequency: u.frequency,
                    gateways: u.receptions.map { .init(gtw_id: $0.gatewayID, gtw_eui: $0.gatewayEUI, rssi: $0.rssi, snr: $0.snr) })
                return .upload(request(kind, [s.id], path: "samples", body: try encoder.encode(body)))
            }
        case .fix:
            let fixes = try store.sync.queuedFixes(ids)
            let sessions = Dictionary(grouping: fixes, by: \.sessionID)
            return try sessions.keys.sorted().map { session in
                let points = sessions[session]!.sorted { ($0.fix.time, $0.id) < ($1.fix.time, $1.id) }
                let devices = try store.records.heardDevEUIs(session: session)
                let body = MapTheThingsBodies.Track(
                    track_id: "\(databaseID)-\(session)", devices: devices.isEmpty ? nil : devices.joined(separator: ","),
                    points: points.map { q in
                        let f = q.fix
                        return .init(
                            lat: f.latitude, lon: f.longitude, alt: f.altitudeMSL ?? f.altitudeHAE,
                            timestamp: RFC3339.string(f.time, fractionDigits: 3), eph: f.eph, hdop: f.hdop, satellites: f.satellites)
                    })
                return .upload(request(kind, points.map(\.id), path: "tracks", body: try encoder.encode(body)))
            }
        }
    }

    public func verdict(for response: HTTPSyncResponse, kind: SyncRecordKind) -> SyncVerdict {
        switch response.status {
        case 200..<300:
            return .accepted
        case 401, 403:
            let why = response.status == 401 ? "refused the credentials of \(credentials.user)" : "does not let \(credentials.user) upload"
            return .stop("MapTheThings at \(baseURL.absoluteString) \(why) (HTTP \(response.status))")
        case 404, 405:
            switch kind {
            case .attempt:
                return .stop("\(baseURL.absoluteString) has no /api/v0/transmissions (HTTP \(response.status)): is it a MapTheThings server?")
            case .sample:
                return .kindNotAccepted("this server does not accept listener samples (HTTP \(response.status) for /api/v0/samples)")
            case .fix:
                return .kindNotAccepted("this server does not accept matching tracks (HTTP \(response.status) for /api/v0/tracks)")
            }
        case 408, 429, 500...:
            return .retry("HTTP \(response.status): \(response.bodyLine)")
        default:
            return .rejected("HTTP \(response.status): \(response.bodyLine)")
        }
    }

    private func request(_ kind: SyncRecordKind, _ ids: [Int64], path: String, body: Data) -> SyncBatch<HTTPSyncRequest> {
        SyncBatch(
            kind: kind, recordIDs: ids,
            request: HTTPSyncRequest(
                url: baseURL.appendingPathComponent("api/v0/\(path)"), body: body,
                headers: [
                    "Authorization": credentials.authorization,
                    // A server that keeps these can drop a repeat of a request whose answer was lost.
                    "Idempotency-Key": "mtt-\(databaseID)-mapthethings-\(kind.rawValue)-\(ids[0])",
                ]))
    }
}
