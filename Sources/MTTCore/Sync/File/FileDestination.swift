import FoundationEssentials

/// The file target's requests: a batch of records as JSON lines, one append each.
public struct FileDestination: SyncDestination {
    public let target = SyncTarget.file
    public var path: String
    public var server: String { path }
    /// Names this database in every line, so files from several databases can be merged.
    public var databaseID: String

    public init(path: String, databaseID: String) {
        self.path = path
        self.databaseID = databaseID
    }

    public func batchSize(for kind: SyncRecordKind) -> Int { 500 }

    public func work(for kind: SyncRecordKind, ids: [Int64], store: Store) throws -> [SyncWork<FileAppend>] {
        let encoder = JSONEncoder.stable()
        var lines = Data()
        var settled: [Int64] = []
        func append(_ line: some Encodable, id: Int64) throws {
            lines += try encoder.encode(line)
            lines.append(UInt8(ascii: "\n"))
            settled.append(id)
        }
        switch kind {
        case .attempt:
            for a in try store.sync.queuedAttempts(ids) {
                try append(FileRecordLine.Attempt(
                    db: databaseID, id: a.id, time: RFC3339.string(a.sentAt, fractionDigits: 3), lat: a.position.latitude,
                    lon: a.position.longitude, alt: a.position.altitude, state: a.state.rawValue, node: a.node, dev_eui: a.devEUI,
                    f_cnt: a.fCnt), id: a.id)
            }
        case .sample:
            for s in try store.sync.queuedSamples(ids) {
                let u = s.uplink
                try append(FileRecordLine.Sample(
                    db: databaseID, id: s.id, time: RFC3339.string(s.time, fractionDigits: 3), lat: s.position.latitude,
                    lon: s.position.longitude, alt: s.position.altitude, method: s.method, dev_eui: u.devEUI, device_id: u.deviceID,
                    f_cnt: u.fCnt.map(Int64.init), spreading_factor: u.spreadingFactor, frequency: u.frequency,
                    gateways: u.receptions.map { .init(gtw_id: $0.gatewayID, gtw_eui: $0.gatewayEUI, rssi: $0.rssi, snr: $0.snr) }), id: s.id)
            }
        case .fix:
            for q in try store.sync.queuedFixes(ids) {
                let f = q.fix
                try append(FileRecordLine.TrackPoint(
                    db: databaseID, id: q.id, session: q.sessionID, time: RFC3339.string(f.time, fractionDigits: 3), lat: f.latitude,
                    lon: f.longitude, alt: f.altitudeMSL ?? f.altitudeHAE, eph: f.eph, hdop: f.hdop, satellites: f.satellites), id: q.id)
            }
        }
        guard !settled.isEmpty else { return [] }
        return [.upload(SyncBatch(kind: kind, recordIDs: settled, request: FileAppend(path: path, bytes: lines)))]
    }

    /// Written and flushed to the disk: nothing a file can answer refuses a record.
    public func verdict(for response: Void, kind: SyncRecordKind) -> SyncVerdict { .accepted }
}

/// The lines of the file target, one per record; `type` says which.
enum FileRecordLine {
    struct Attempt: Encodable {
        var type = "attempt"
        var db: String
        var id: Int64
        var time: String
        var lat: Double
        var lon: Double
        var alt: Double?
        var state: String
        var node: String
        var dev_eui: String?
        var f_cnt: Int64?
    }

    struct Sample: Encodable {
        var type = "sample"
        var db: String
        var id: Int64
        var time: String
        var lat: Double
        var lon: Double
        var alt: Double?
        var method: String
        var dev_eui: String?
        var device_id: String
        var f_cnt: Int64?
        var spreading_factor: Int?
        var frequency: UInt64?
        var gateways: [MapTheThingsBodies.Gateway]
    }

    struct TrackPoint: Encodable {
        var type = "fix"
        var db: String
        var id: Int64
        var session: Int64
        var time: String
        var lat: Double
        var lon: Double
        var alt: Double?
        var eph: Double?
        var hdop: Double?
        var satellites: Int?
    }
}
