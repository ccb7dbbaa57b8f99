import FoundationEssentials

/// One event of the field, in the versioned schema of docs/events.md and docs/event.schema.json:
/// what `mtt collect --json` prints, what hooks receive and what `mtt events` replays. Every event
/// has `version`, `type`, `time` and `session` (null for an upload's `sync_done`); the other fields
/// are present when they apply.
public struct FieldEvent: Sendable, Hashable, Codable {
    /// The schema's version: a field that changes meaning or goes away raises it; new fields and
    /// new types do not.
    public static let schemaVersion = 1

    /// A gateway a `new_gateway` event names.
    public struct Gateway: Sendable, Hashable, Codable {
        public var id: String
        public var eui: String?
        /// Only when its owner made the position public.
        public var lat: Double?
        public var lon: Double?

        public init(id: String, eui: String? = nil, lat: Double? = nil, lon: Double? = nil) {
            self.id = id
            self.eui = eui
            self.lat = lat
            self.lon = lon
        }
    }

    public var version = FieldEvent.schemaVersion
    public var type: FieldEventType
    public var time: Timestamp
    public var session: Int64?
    public var node: String?
    public var device: String?
    public var attempt: Int64?
    public var uplink: Int64?
    public var fCnt: UInt32?
    public var lat: Double?
    public var lon: Double?
    /// How many gateways heard an uplink, and their ids.
    public var gateways: Int?
    public var heardBy: [String]?
    /// The best reception's, in dBm and dB.
    public var rssi: Double?
    public var snr: Double?
    /// confirmed with a link check: dB above the demodulation floor at the best gateway.
    public var margin: Int?
    public var gateway: Gateway?
    public var reason: String?
    public var detail: String?
    /// Seconds something was away (a node, the GPS, coverage).
    public var outage: Double?
    /// coverage_lost: attempts in a row nobody heard, or seconds without an uplink.
    public var missed: Int?
    public var silence: Double?
    /// Percent.
    public var battery: Int?
    public var method: String?
    /// sync_done: the target and what happened to its records.
    public var target: String?
    public var sent: Int?
    public var rejected: Int?
    public var undelivered: Int?
    public var queued: Int?
    /// The place or sample on the `mtt serve` page, when a map URL is configured.
    public var url: String?

    public init(_ type: FieldEventType, at time: Timestamp, session: Int64?) {
        self.type = type
        self.time = time
        self.session = session
    }

    public var position: GeoPoint? {
        guard let lat, let lon else { return nil }
        return GeoPoint(latitude: lat, longitude: lon)
    }

    public mutating func place(_ point: GeoPoint?) {
        lat = point?.latitude
        lon = point?.longitude
    }

    enum CodingKeys: String, CodingKey {
        case version, type, time, session, node, device, attempt, uplink, lat, lon, gateways, rssi, snr, margin, gateway, reason, detail, outage
        case missed, silence, battery, method, target, sent, rejected, undelivered, queued, url
        case fCnt = "f_cnt", heardBy = "heard_by"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(type, forKey: .type)
        try c.encode(RFC3339.string(time), forKey: .time)
        // Always there, null when the event belongs to no session.
        try c.encode(session, forKey: .session)
        try c.encodeIfPresent(node, forKey: .node)
        try c.encodeIfPresent(device, forKey: .device)
        try c.encodeIfPresent(attempt, forKey: .attempt)
        try c.encodeIfPresent(uplink, forKey: .uplink)
        try c.encodeIfPresent(fCnt, forKey: .fCnt)
        try c.encodeIfPresent(lat, forKey: .lat)
        try c.encodeIfPresent(lon, forKey: .lon)
        try c.encodeIfPresent(gateways, forKey: .gateways)
        try c.encodeIfPresent(heardBy, forKey: .heardBy)
        try c.encodeIfPresent(rssi, forKey: .rssi)
        try c.encodeIfPresent(snr, forKey: .snr)
        try c.encodeIfPresent(margin, forKey: .margin)
        try c.encodeIfPresent(gateway, forKey: .gateway)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(detail, forKey: .detail)
        try c.encodeIfPresent(outage, forKey: .outage)
        try c.encodeIfPresent(missed, forKey: .missed)
        try c.encodeIfPresent(silence, forKey: .silence)
        try c.encodeIfPresent(battery, forKey: .battery)
        try c.encodeIfPresent(method, forKey: .method)
        try c.encodeIfPresent(target, forKey: .target)
        try c.encodeIfPresent(sent, forKey: .sent)
        try c.encodeIfPresent(rejected, forKey: .rejected)
        try c.encodeIfPresent(undelivered, forKey: .undelivered)
        try c.encodeIfPresent(queued, forKey: .queued)
        try c.encodeIfPresent(url, forKey: .url)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        type = try c.decode(FieldEventType.self, forKey: .type)
        let text = try c.decode(String.self, forKey: .time)
        guard let parsed = RFC3339.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: c, debugDescription: "not an RFC 3339 time: \(text)")
        }
        time = parsed
        session = try c.decodeIfPresent(Int64.self, forKey: .session)
        node = try c.decodeIfPresent(String.self, forKey: .node)
        device = try c.decodeIfPresent(String.self, forKey: .device)
        attempt = try c.decodeIfPresent(Int64.self, forKey: .attempt)
        uplink = try c.decodeIfPresent(Int64.self, forKey: .uplink)
        fCnt = try c.decodeIfPresent(UInt32.self, forKey: .fCnt)
        lat = try c.decodeIfPresent(Double.self, forKey: .lat)
        lon = try c.decodeIfPresent(Double.self, forKey: .lon)
        gateways = try c.decodeIfPresent(Int.self, forKey: .gateways)
        heardBy = try c.decodeIfPresent([String].self, forKey: .heardBy)
        rssi = try c.decodeIfPresent(Double.self, forKey: .rssi)
        snr = try c.decodeIfPresent(Double.self, forKey: .snr)
        margin = try c.decodeIfPresent(Int.self, forKey: .margin)
        gateway = try c.decodeIfPresent(Gateway.self, forKey: .gateway)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        detail = try c.decodeIfPresent(String.self, forKey: .detail)
        outage = try c.decodeIfPresent(Double.self, forKey: .outage)
        missed = try c.decodeIfPresent(Int.self, forKey: .missed)
        silence = try c.decodeIfPresent(Double.self, forKey: .silence)
        battery = try c.decodeIfPresent(Int.self, forKey: .battery)
        method = try c.decodeIfPresent(String.self, forKey: .method)
        target = try c.decodeIfPresent(String.self, forKey: .target)
        sent = try c.decodeIfPresent(Int.self, forKey: .sent)
        rejected = try c.decodeIfPresent(Int.self, forKey: .rejected)
        undelivered = try c.decodeIfPresent(Int.self, forKey: .undelivered)
        queued = try c.decodeIfPresent(Int.self, forKey: .queued)
        url = try c.decodeIfPresent(String.self, forKey: .url)
    }

    /// One JSON line (no newline), in the stable key order.
    public func json() -> [UInt8] {
        (try? Array(Self.encoder.encode(self))) ?? []
    }

    private static let encoder = JSONEncoder.stable()

    /// One line for a person (a phone notification, a log).
    public var summary: String {
        func short(_ degrees: Double) -> String { ((degrees * 100_000).rounded() / 100_000).plainText }
        let near = position.map { " near \(short($0.latitude)), \(short($0.longitude))" } ?? ""
        switch type {
        case .attempt: return "attempt \(attempt ?? 0) by \(node ?? "?")\(near)"
        case .confirmed: return "attempt \(attempt ?? 0) sent by \(node ?? "?")"
        case .failed: return "attempt \(attempt ?? 0) by \(node ?? "?") failed: \(reason ?? "?")"
        case .heard: return "heard by \(CountText.of(gateways ?? 0, "gateway")), best \(rssi.map { "\(Int($0.rounded())) dBm" } ?? "?")\(near)"
        case .lost: return "attempt \(attempt ?? 0) not heard\(near)"
        case .sample: return "sample\(near)"
        case .nodeLost: return "node \(node ?? "?") lost: \(reason ?? "?")"
        case .nodeBack: return "node \(node ?? "?") back after \(Int((outage ?? 0).rounded())) s"
        case .gpsConnected: return "GPS connected: \(detail ?? "")"
        case .gpsLost: return "GPS lost: \(reason ?? "?")"
        case .gpsBack: return "GPS back after \(Int((outage ?? 0).rounded())) s"
        case .networkConnected: return "network connected: \(detail ?? "")"
        case .networkLost: return "network lost: \(detail ?? "")"
        case .batteryLow: return "battery of \(node ?? "?") low: \(battery ?? 0) %"
        case .stale: return "\(node ?? "?") not sending: \(reason ?? "")"
        case .storeBusy: return "database busy: \(reason ?? "")"
        case .storeBack: return "database writable again after \(Int((outage ?? 0).rounded())) s"
        case .fieldTestAnswered: return "field test of \(device ?? "?") f_cnt \(fCnt ?? 0) answered: \(detail ?? "")" + (reason.map { " (\($0))" } ?? "")
        case .fieldTestHeldBack: return "field test of \(device ?? "?") not answered: \(reason ?? "")"
        case .coverageLost:
            let why = missed.map { "\($0) attempts in a row not heard" } ?? silence.map { "no uplink for \(Int($0.rounded())) s" } ?? "not heard"
            return "coverage lost\(near): \(why)"
        case .coverageBack: return "coverage back\(near) after \(Int((outage ?? 0).rounded())) s"
        case .newGateway: return "new gateway \(gateway?.id ?? "?")\(gateway?.eui.map { " (\($0))" } ?? "")\(near)"
        case .syncDone:
            return "\(target ?? "sync"): \(sent ?? 0) sent, \(rejected ?? 0) rejected, \(undelivered ?? 0) failed, \(queued ?? 0) still queued"
        case .fix: return "fix\(near)"
        case .trackPoint: return "track point\(near)"
        }
    }
}
