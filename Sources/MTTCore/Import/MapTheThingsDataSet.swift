import FoundationEssentials
import Glibc

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
        /// Jumps in a node's `payload_seq` too large to be losses, taken as the node restarting.
        public var counterResets: Int
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

    /// A jump in one node's `payload_seq` larger than this is a counter reset (a node restarted),
    /// not that many lost packets: a walk test that lost a thousand packets in a row would have
    /// been stopped long before.
    public static let largestGap = 1_000

    /// Reads `path` into a session of its own, streamed entry by entry; all or nothing (one
    /// transaction, the session included, so a failed or interrupted import leaves no trace).
    public static func importFile(_ path: String, into store: Store) throws -> Summary {
        var stream: JSONArrayStream
        do {
            stream = try JSONArrayStream(path: path)
        } catch {
            throw ImportError(description: "cannot read \(path)")
        }
        let notADataSet = "\(path) is neither a MapTheThings data set (a JSON array of samples with gps and time) nor an uplink log (The Things Stack, ChirpStack v4 or Helium console JSON)"
        let decoder = JSONDecoder()
        let hash = try ContentHash.of(path: path)
        return try store.batch { batch in
            // The same content twice would put every sample twice on the map and in the counts.
            if let hash, let earlier = try batch.importedSession(hash: hash) {
                throw ImportError(description: """
                    \(path) holds the same content as session \(earlier.id) (\(earlier.title)): imported before, so nothing \
                    was imported (mtt sessions delete \(earlier.id) --yes, then import again, replaces it)
                    """)
            }
            var session: Int64?
            var samples = 0, index = 0
            // Each node's heard sequence numbers and when, for the gaps: counted per node, never
            // across them.
            var heard: [String: [Int: Timestamp]] = [:]
            while true {
                let bytes: [UInt8]?
                do {
                    bytes = try stream.next()
                } catch is JSONArrayStream.TooLarge {
                    throw ImportError(description: "\(path): entry \(index + 1) is longer than \(JSONArrayStream.largestElement >> 20) MiB, which no sample is: nothing was imported")
                } catch {
                    throw ImportError(description: index == 0 ? notADataSet : "\(path): after entry \(index) the JSON array is broken: nothing was imported")
                }
                guard let bytes else { break }
                index += 1
                let entry: Entry
                do {
                    entry = try decoder.decode(Entry.self, from: Data(bytes))
                } catch {
                    throw ImportError(description: "\(path): entry \(index) is not a sample (\(Self.reason(error))): nothing was imported")
                }
                guard let point = position(entry.gps) else {
                    throw ImportError(description: "\(path): entry \(index) has an unreadable gps value")
                }
                guard let time = timestamp(entry.time) else {
                    throw ImportError(description: "\(path): entry \(index) has an unreadable time \(entry.time)")
                }
                let sessionID = try session ?? batch.startSession(
                    mode: .imported, at: time, note: "imported from \(PathText.name(of: path))", sourceHash: hash)
                session = sessionID
                let node = entry.nodeEui ?? entry.device ?? GatewayReception.unknownID
                let rate = entry.dataRate.flatMap(LoRaDataRate.init)
                let uplink = Uplink(
                    deviceID: node, devEUI: entry.nodeEui?.uppercased(), fCnt: entry.payload_seq.map { UInt32(clamping: $0) },
                    frequency: entry.frequency.flatMap(Uplink.frequency(megahertz:)), spreadingFactor: rate?.spreadingFactor,
                    bandwidth: rate?.bandwidth, receivedAt: time,
                    receptions: [GatewayReception(
                        gatewayID: entry.gateway ?? entry.gatewayEui.map { "eui-" + $0.lowercased() } ?? GatewayReception.unknownID,
                        gatewayEUI: entry.gatewayEui?.uppercased(), rssi: entry.rssi, snr: entry.snr, time: time)])
                let uplinkID = try batch.record(uplink, session: sessionID)
                try batch.record(Sample(sessionID: sessionID, subject: .uplink(uplinkID), time: time, position: point, method: .txTime))
                samples += 1
                if samples % 10_000 == 0 { try batch.writeCoverageSoFar() }
                if let seq = entry.payload_seq, heard[node]?[seq] == nil {
                    let id = try batch.record(Attempt(
                        sessionID: sessionID, node: node, sequence: seq, payload: [], fix: nil, sentAt: time, state: .confirmed,
                        frameCounter: UInt32(clamping: seq), devEUI: entry.nodeEui?.uppercased(), resolvedAt: time))
                    try batch.link(attempt: id, toUplink: uplinkID)
                    heard[node, default: [:]][seq] = time
                }
            }
            guard let session else { throw ImportError(description: "\(path) holds no samples") }
            // Every sequence number missing between two heard ones of a node was sent and not heard,
            // unless the jump is too large to be anything but a reset. Stored as a transmission no
            // gateway heard (confirmed, with no uplink), as a live run stores one: "failed" means the
            // node could not send at all.
            var lost = 0, resets = 0
            for node in heard.keys.sorted() {
                let sequence = heard[node, default: [:]].sorted { $0.key < $1.key }
                for (a, b) in zip(sequence, sequence.dropFirst()) where b.key > a.key + 1 {
                    guard b.key - a.key - 1 <= largestGap else {
                        resets += 1
                        continue
                    }
                    for seq in (a.key + 1)..<b.key {
                        try batch.record(Attempt(
                            sessionID: session, node: node, sequence: seq, payload: [], fix: nil, sentAt: a.value,
                            state: .confirmed, frameCounter: UInt32(clamping: seq), resolvedAt: a.value,
                            failureReason: "no gateway heard payload_seq \(seq) (a gap in the walk test)"))
                        lost += 1
                    }
                }
            }
            return Summary(session: session, samples: samples, lost: lost, counterResets: resets)
        }
    }

    /// What was wrong with an entry, in a few words: the key and what it should have been.
    static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: "no \(key.stringValue)"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not what a sample has there"
        case .dataCorrupted(let context)?: context.codingPath.isEmpty ? "not JSON" : "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is unreadable"
        default: "\(error)"
        }
    }

    /// `[52.03, 5.57]` or `"40.685341N,73.988661W"`.
    static func position(_ value: Entry.Position) -> GeoPoint? {
        switch value {
        case .pair(let pair):
            guard pair.count >= 2 else { return nil }
            return GeoPoint(checkingLatitude: pair[0], longitude: pair[1])
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
