import FoundationEssentials

/// `mtt import` of a network's uplink log: a session of its own, each uplink stored once (the same
/// device, receive time and frame counter as one stored before is left: importing a file again, or
/// a log that grew, adds only what is new), placed by its device's own position where its payload
/// carries one (`PayloadPositioning`), else kept with the reason. Streamed an entry at a time, in one
/// transaction: a year of a fleet's uplinks in flat memory, and nothing stored if an entry is broken.
public enum UplinkLogImport {
    public struct Summary: Sendable, Hashable, Codable {
        /// Nil when nothing new was stored (no session is made for nothing).
        public var session: Int64?
        public var format: String
        public var uplinks = 0
        public var alreadyStored = 0
        /// Entries that are no uplink (joins and other events).
        public var notUplinks = 0
        /// Uplinks placed by their device's own position.
        public var placed = 0
        /// Frames the devices sent that the log does not hold (the gaps in their frame counters).
        public var estimatedAttempts = 0

        /// As `mtt import --json` prints it.
        enum CodingKeys: String, CodingKey {
            case session, format, uplinks, placed
            case alreadyStored = "already_stored"
            case notUplinks = "not_uplinks"
            case estimatedAttempts = "estimated_attempts"
        }
    }

    /// Entries of the same uplink (a device's frame counter) within this many seconds are one
    /// uplink (SPEC §9.4).
    static let repeatWindow = 60.0

    /// The format of `path`, from its first entry; nil when it is none of `formats` (or not JSON).
    public static func format(of path: String, among formats: [UplinkLogFormat]) -> UplinkLogFormat? {
        guard var stream = try? JSONArrayStream(path: path, valuesAlso: true), let first = try? stream.next(),
              let entry = try? JSONDecoder().decode(JSONValue.self, from: Data(first))
        else { return nil }
        return UplinkLogFormat.of(entry, among: formats)
    }

    public static func importFile(
        _ path: String, format: UplinkLogFormat, into store: Store, positioning: PayloadPositioning = PayloadPositioning(),
        gaps rules: FrameCounterGaps.Rules = .init()
    ) throws -> Summary {
        var stream: JSONArrayStream
        do {
            stream = try JSONArrayStream(path: path, valuesAlso: true)
        } catch {
            throw UplinkLogError("cannot read \(path)")
        }
        let placement = PayloadPlacement(positioning: positioning, gaps: rules, besideTrack: false)
        var gaps = FrameCounterGaps(rules: rules)
        return try store.batch { batch in
            var summary = Summary(format: format.name)
            var index = 0
            var repeats = RepeatedUplinks()
            func store(_ uplink: Uplink) throws {
                if try batch.storedUplinkID(uplink) != nil {
                    summary.alreadyStored += 1
                    return
                }
                let session = try summary.session ?? batch.startSession(
                    mode: .imported, at: uplink.receivedAt, note: "imported from \(PathText.name(of: path)) (\(format.name))")
                summary.session = session
                let id = try batch.record(uplink, session: session)
                let sample = placement.sample(uplink: uplink, id: id, session: session)
                if let sample {
                    try batch.record(sample)
                    if sample.position != nil { summary.placed += 1 }
                }
                for estimated in gaps.heard(uplink, id: id, session: session, position: sample?.position) {
                    try batch.record(estimated)
                    summary.estimatedAttempts += 1
                }
                summary.uplinks += 1
                if summary.uplinks % 10_000 == 0 { try batch.writeCoverageSoFar() }
            }
            while true {
                let bytes: [UInt8]?
                do {
                    bytes = try stream.next()
                } catch is JSONArrayStream.TooLarge {
                    throw UplinkLogError("\(path): entry \(index + 1) is longer than \(JSONArrayStream.largestElement >> 20) MiB, which no uplink is: nothing was imported")
                } catch {
                    throw UplinkLogError("\(path): after entry \(index) the JSON is broken: nothing was imported")
                }
                guard let bytes else { break }
                index += 1
                let uplink: Uplink?
                do throws(UplinkLogError) {
                    uplink = try format.decode(bytes)
                } catch {
                    throw UplinkLogError("\(path): entry \(index) is not one of \(format.name) (\(error.description)): nothing was imported")
                }
                guard let uplink else {
                    summary.notUplinks += 1
                    continue
                }
                if format.repeatsUplinks {
                    for ready in repeats.add(uplink) { try store(ready) }
                } else {
                    try store(uplink)
                }
            }
            for rest in repeats.drain() { try store(rest) }
            return summary
        }
    }
}

/// Helium's entries of one uplink, one per purchasing hotspot: held until no more can come (the
/// log's time is a minute past the first), then one uplink with every reception. Only a minute of
/// a log is ever held.
struct RepeatedUplinks {
    private var held: [Key: Uplink] = [:]
    /// Keys in the order their uplinks came, each with its uplink's time; a key whose uplink was
    /// let go already is passed over.
    private var order: [(key: Key, time: Timestamp)] = []
    private var head = 0

    private struct Key: Hashable {
        var device: String
        var fCnt: UInt32?
    }

    /// The uplinks no later entry can add to, once `uplink` is taken in.
    mutating func add(_ uplink: Uplink) -> [Uplink] {
        let key = Key(device: uplink.devEUI ?? uplink.deviceID, fCnt: uplink.fCnt)
        var ready: [Uplink] = []
        if var earlier = held[key] {
            if uplink.receivedAt.seconds(since: earlier.receivedAt) <= UplinkLogImport.repeatWindow {
                let known = Set(earlier.receptions.map(\.gatewayID))
                earlier.receptions += uplink.receptions.filter { !known.contains($0.gatewayID) }
                held[key] = earlier
                return []
            }
            // The same counter again, later: a device that restarted. The earlier one is complete.
            ready.append(earlier)
        }
        held[key] = uplink
        order.append((key, uplink.receivedAt))
        while head < order.count, uplink.receivedAt.seconds(since: order[head].time) > UplinkLogImport.repeatWindow {
            let (oldKey, time) = order[head]
            head += 1
            if let oldest = held[oldKey], oldest.receivedAt == time {
                ready.append(oldest)
                held[oldKey] = nil
            }
        }
        if head > 4_096 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return ready
    }

    /// What is still held, in the order it came.
    mutating func drain() -> [Uplink] {
        var rest: [Uplink] = []
        for (key, time) in order[head...] {
            if let uplink = held[key], uplink.receivedAt == time {
                rest.append(uplink)
                held[key] = nil
            }
        }
        order = []
        head = 0
        return rest
    }
}
