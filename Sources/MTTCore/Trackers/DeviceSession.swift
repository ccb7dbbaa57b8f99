/// One device's own session (DESIGN's trackers): its uplinks from one start to a silence or a
/// frame-counter reset, whatever runs or imports stored them. A fleet's device is listed, mapped
/// and filtered by these.
public struct DeviceSession: Sendable, Hashable, Encodable {
    public var device: String
    public var devEUI: String?
    /// The device's own sessions count from 1.
    public var number: Int
    public var start: Timestamp
    public var end: Timestamp
    public var uplinks: Int
    /// Uplinks placed (by the device's own position, or a track).
    public var placed: Int
    /// Frames it sent that nobody heard, estimated from its frame counters.
    public var estimatedAttempts: Int
    public var firstFCnt: UInt32?
    public var lastFCnt: UInt32?
    /// Where it last was, when any uplink was placed.
    public var lastPosition: GeoPoint?
    /// The positions it sent itself, in time order, when the splitter keeps them (its track).
    public var track: [GeoPoint] = []

    enum CodingKeys: String, CodingKey {
        case device, number, start, end, uplinks, placed
        case devEUI = "dev_eui"
        case estimatedAttempts = "estimated_attempts"
        case firstFCnt = "first_f_cnt", lastFCnt = "last_f_cnt"
        case lastLatitude = "last_lat", lastLongitude = "last_lon"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(device, forKey: .device)
        try c.encode(devEUI, forKey: .devEUI)
        try c.encode(number, forKey: .number)
        try c.encode(RFC3339.string(start, fractionDigits: 3), forKey: .start)
        try c.encode(RFC3339.string(end, fractionDigits: 3), forKey: .end)
        try c.encode(uplinks, forKey: .uplinks)
        try c.encode(placed, forKey: .placed)
        try c.encode(estimatedAttempts, forKey: .estimatedAttempts)
        try c.encode(firstFCnt, forKey: .firstFCnt)
        try c.encode(lastFCnt, forKey: .lastFCnt)
        try c.encode(lastPosition?.latitude, forKey: .lastLatitude)
        try c.encode(lastPosition?.longitude, forKey: .lastLongitude)
    }
}

/// Cuts each device's uplinks, in time order, into its own sessions: a new one after `silence`
/// seconds without an uplink, or when the frame counter goes back (the device restarted).
public struct DeviceSessionSplitter: Sendable, Hashable {
    public var silence: Double
    /// Whether each session keeps the positions its device sent (for a layer of tracks).
    public var keepsTracks: Bool

    public init(silence: Double = 1_800, keepsTracks: Bool = false) {
        self.silence = silence
        self.keepsTracks = keepsTracks
    }

    /// One heard uplink of a device, as the store reads it.
    public struct Heard: Sendable {
        public var device: String
        public var devEUI: String?
        public var time: Timestamp
        public var fCnt: UInt32?
        public var position: GeoPoint?
        /// Whether the position is the device's own (from its payload), not a track's.
        public var sentByDevice: Bool
        public var estimatedBefore: Int

        public init(device: String, devEUI: String?, time: Timestamp, fCnt: UInt32?, position: GeoPoint?, sentByDevice: Bool = true, estimatedBefore: Int) {
            self.device = device
            self.devEUI = devEUI
            self.time = time
            self.fCnt = fCnt
            self.position = position
            self.sentByDevice = sentByDevice
            self.estimatedBefore = estimatedBefore
        }
    }

    /// Whether `next` begins a new session of the device whose session so far is `current`.
    func begins(_ next: Heard, after current: DeviceSession) -> Bool {
        guard next.device == current.device else { return true }
        if next.time.seconds(since: current.end) > silence { return true }
        if let now = next.fCnt, let last = current.lastFCnt, now < last { return true }
        return false
    }

    /// The sessions of uplinks ordered by device, then time; `body` gets each as it closes.
    public func split(_ uplinks: [Heard], _ body: (DeviceSession) throws -> Void) rethrows {
        var rest = uplinks.makeIterator()
        try split(next: { rest.next() }, body)
    }

    /// The same, with the uplinks read one at a time (a store's cursor).
    public func split(next: () throws -> Heard?, _ body: (DeviceSession) throws -> Void) rethrows {
        var current: DeviceSession?
        while let heard = try next() {
            if let session = current, !begins(heard, after: session) {
                current!.end = heard.time
                current!.uplinks += 1
                current!.estimatedAttempts += heard.estimatedBefore
                if heard.fCnt != nil { current!.lastFCnt = heard.fCnt }
                if current!.firstFCnt == nil { current!.firstFCnt = heard.fCnt }
                if let position = heard.position {
                    current!.placed += 1
                    current!.lastPosition = position
                    if keepsTracks && heard.sentByDevice { current!.track.append(position) }
                }
                continue
            }
            if let session = current { try body(session) }
            let number = current?.device == heard.device ? current!.number + 1 : 1
            current = DeviceSession(
                device: heard.device, devEUI: heard.devEUI, number: number, start: heard.time, end: heard.time, uplinks: 1,
                placed: heard.position == nil ? 0 : 1, estimatedAttempts: heard.estimatedBefore, firstFCnt: heard.fCnt, lastFCnt: heard.fCnt,
                lastPosition: heard.position, track: keepsTracks && heard.sentByDevice ? heard.position.map { [$0] } ?? [] : [])
        }
        if let session = current { try body(session) }
    }
}

/// A device over all its sessions: what `mtt status --devices` lists, one line per device.
public struct DeviceSummary: Sendable, Hashable, Encodable {
    public var device: String
    public var devEUI: String?
    public var sessions: Int
    public var uplinks: Int
    public var placed: Int
    public var estimatedAttempts: Int
    public var firstHeard: String
    public var lastHeard: String
    public var lastLatitude: Double?
    public var lastLongitude: Double?

    enum CodingKeys: String, CodingKey {
        case device, sessions, uplinks, placed
        case devEUI = "dev_eui"
        case estimatedAttempts = "estimated_attempts"
        case firstHeard = "first_heard", lastHeard = "last_heard"
        case lastLatitude = "last_lat", lastLongitude = "last_lon"
    }

    /// Adds a session to the list of devices, whose last is its device's when sessions come
    /// device by device (as `split` gives them): a year of a fleet's sessions is never held.
    public static func add(_ session: DeviceSession, to devices: inout [DeviceSummary]) {
        if devices.last?.device == session.device {
            devices[devices.count - 1].add(session)
        } else {
            devices.append(DeviceSummary(
                device: session.device, devEUI: session.devEUI, sessions: 1, uplinks: session.uplinks, placed: session.placed,
                estimatedAttempts: session.estimatedAttempts, firstHeard: RFC3339.string(session.start, fractionDigits: 0),
                lastHeard: RFC3339.string(session.end, fractionDigits: 0), lastLatitude: session.lastPosition?.latitude,
                lastLongitude: session.lastPosition?.longitude))
        }
    }

    private mutating func add(_ session: DeviceSession) {
        sessions += 1
        uplinks += session.uplinks
        placed += session.placed
        estimatedAttempts += session.estimatedAttempts
        lastHeard = RFC3339.string(session.end, fractionDigits: 0)
        if let position = session.lastPosition { (lastLatitude, lastLongitude) = (position.latitude, position.longitude) }
    }
}
