import Foundation

/// The MapTheThings data sets (`mtt import`): the coverage export (`{"gps":[lat,lon], "time", "rssi",
/// "snr", "device", "gateway"}`) and the "lorawalk" walk tests (`{"gps":"40.685341N,73.988661W",
/// "payload_seq", "nodeEui", "gatewayEui", "dataRate", "frequency", …}`), whose gaps in `payload_seq`
/// are packets no gateway heard.
public enum MapTheThingsDataSet {
    public struct Summary: Sendable, Hashable {
        public var session: Int64
        public var samples: Int
        /// Packets the gaps in `payload_seq` say were lost (walk tests only).
        public var lost: Int
    }

    public struct ImportError: Error, CustomStringConvertible {
        public var description: String
    }

    struct Entry: Decodable {
        enum Position: Decodable {
            case pair([Double])
            case text(String)

            init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let pair = try? c.decode([Double].self) { self = .pair(pair) } else { self = .text(try c.decode(String.self)) }
            }
        }

        var gps: Position
        var time: String
        var rssi: Double?
        var snr: Double?
        var device: String?
        var gateway: String?
        var gatewayEui: String?
        var nodeEui: String?
        var payload_seq: Int?
        var dataRate: String?
        var frequency: Double?
    }

    /// Reads `path` into a session of its own; all or nothing (one transaction).
    public static func importFile(_ path: String, into store: Store) throws -> Summary {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(description: "cannot read \(path)")
        }
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: data)
        } catch {
            throw ImportError(description: "\(path) is not a MapTheThings data set (a JSON array of samples with gps and time)")
        }
        let parsed = try entries.enumerated().map { index, entry in
            guard let point = position(entry.gps) else {
                throw ImportError(description: "\(path): entry \(index + 1) has an unreadable gps value")
            }
            guard let time = timestamp(entry.time) else {
                throw ImportError(description: "\(path): entry \(index + 1) has an unreadable time \(entry.time)")
            }
            return (entry, point, time)
        }
        let session = try store.startSession(
            mode: .imported, at: parsed.first?.2 ?? .now(), note: "imported from \((path as NSString).lastPathComponent)")
        return try store.batch { batch in
            var attempts: [Int: (time: Timestamp, node: String)] = [:]
            var samples = 0
            for (entry, point, time) in parsed {
                let node = entry.nodeEui ?? entry.device ?? "unknown"
                let rate = entry.dataRate.flatMap(LoRaDataRate.init)
                let uplink = Uplink(
                    deviceID: node, devEUI: entry.nodeEui?.uppercased(), fCnt: entry.payload_seq.map { UInt32(clamping: $0) },
                    frequency: entry.frequency.flatMap(Uplink.frequency(megahertz:)), spreadingFactor: rate?.spreadingFactor,
                    bandwidth: rate?.bandwidth, receivedAt: time,
                    receptions: [GatewayReception(
                        gatewayID: entry.gateway ?? entry.gatewayEui.map { "eui-" + $0.lowercased() } ?? "unknown",
                        gatewayEUI: entry.gatewayEui?.uppercased(), rssi: entry.rssi, snr: entry.snr, time: time)])
                let uplinkID = try batch.record(uplink, session: session)
                try batch.record(Sample(sessionID: session, subject: .uplink(uplinkID), time: time, position: point, method: .txTime))
                samples += 1
                if let seq = entry.payload_seq, attempts[seq] == nil {
                    let id = try batch.record(Attempt(
                        sessionID: session, node: node, sequence: seq, payload: [], fix: nil, sentAt: time, state: .confirmed,
                        frameCounter: UInt32(clamping: seq), devEUI: entry.nodeEui?.uppercased(), resolvedAt: time))
                    try batch.link(attempt: id, toUplink: uplinkID)
                    attempts[seq] = (time, node)
                }
            }
            // Every sequence number missing between two heard ones was sent and not heard.
            var lost = 0
            let heard = attempts.keys.sorted()
            for (a, b) in zip(heard, heard.dropFirst()) where b > a + 1 {
                guard let before = attempts[a] else { continue }
                for seq in (a + 1)..<b {
                    try batch.record(Attempt(
                        sessionID: session, node: before.node, sequence: seq, payload: [], fix: nil, sentAt: before.time,
                        state: .failed, frameCounter: UInt32(clamping: seq), resolvedAt: before.time,
                        failureReason: "no gateway heard payload_seq \(seq) (a gap in the walk test)"))
                    lost += 1
                }
            }
            return Summary(session: session, samples: samples, lost: lost)
        }
    }

    /// `[52.03, 5.57]` or `"40.685341N,73.988661W"`.
    static func position(_ value: Entry.Position) -> GeoPoint? {
        switch value {
        case .pair(let pair):
            guard pair.count >= 2, abs(pair[0]) <= 90, abs(pair[1]) <= 180 else { return nil }
            return GeoPoint(latitude: pair[0], longitude: pair[1])
        case .text(let text):
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { return nil }
            func coordinate(_ s: String, positive: Character, negative: Character, limit: Double) -> Double? {
                guard let last = s.last else { return nil }
                let sign: Double
                var number = s
                if last == positive || last == negative {
                    sign = last == positive ? 1 : -1
                    number = String(s.dropLast())
                } else {
                    sign = 1
                }
                guard let value = Double(number), abs(value) <= limit else { return nil }
                return sign * value
            }
            guard let lat = coordinate(parts[0], positive: "N", negative: "S", limit: 90),
                  let lon = coordinate(parts[1], positive: "E", negative: "W", limit: 180)
            else { return nil }
            return GeoPoint(latitude: lat, longitude: lon)
        }
    }

    /// RFC 3339, or `2016-04-17 15:24:28` taken as UTC.
    static func timestamp(_ text: String) -> Timestamp? {
        RFC3339.parse(text) ?? RFC3339.parse(text + "Z")
    }
}
