import MTTCore

/// Turns a stream of NMEA lines into fixes, one per receiver epoch.
///
/// A receiver sends several sentences per epoch (GGA/GNS for position and altitude, RMC for date,
/// speed and track, GSA for the fix mode and DOPs). A fix is emitted as soon as the epoch has both a
/// position sentence and an RMC, or, for receivers that send only one of them, when the next epoch
/// starts. Bad lines are counted and skipped; they never stop the stream.
public struct NMEAFixAssembler: Sendable {
    public struct Counts: Sendable, Hashable {
        /// Sentences with a good checksum.
        public var sentences = 0
        /// Lines that were not NMEA, failed the checksum or had a malformed field.
        public var badLines = 0
        /// Good sentences mtt has no use for (VTG, ZDA, proprietary, other talkers).
        public var ignored = 0
        public var fixes = 0
    }

    private struct Epoch {
        var timeOfDay: Double
        var latitude: Double?
        var longitude: Double?
        var altitudeMSL: Double?
        var geoidSeparation: Double?
        var hasFix: Bool?
        var satellites: Int?
        var hdop: Double?
        var speed: Double?
        var track: Double?
        var hasPositionSentence = false
        var hasRMC = false
        var emitted = false
    }

    public private(set) var counts = Counts()
    public private(set) var lastError: NMEAError?
    private let source: String
    private let today: @Sendable () -> Int
    private var date: Int?
    private var previousTimeOfDay: Double?
    private var epoch: Epoch?
    private var gsaMode: Fix.Mode?
    private var gsaHDOP: Double?

    /// - Parameters:
    ///   - source: the GPS spec, stored in each fix.
    ///   - today: days since 1970 to date fixes with until an RMC brings the receiver's date.
    public init(source: String, today: @escaping @Sendable () -> Int = { Int(Timestamp.now().secondsSinceEpoch / 86_400) }) {
        self.source = source
        self.today = today
    }

    public mutating func consume(line: some Collection<UInt8>) -> [FixEvent] {
        do {
            return try consume(try NMEASentence(line: line))
        } catch {
            counts.badLines += 1
            lastError = error
            return []
        }
    }

    /// Emits the last epoch, if it is still open, at the end of a capture.
    public mutating func finish() -> [FixEvent] {
        guard let open = epoch, !open.emitted else { return [] }
        epoch?.emitted = true
        return [emit(open)]
    }

    private mutating func consume(_ s: NMEASentence) throws(NMEAError) -> [FixEvent] {
        guard NMEASentence.positionTalkers.contains(s.talker) else {
            counts.sentences += 1
            counts.ignored += 1
            return []
        }
        let name = s.talker + s.type
        var events: [FixEvent] = []
        switch s.type {
        case "GGA", "GNS":
            let time = try NMEAFields.timeOfDay(s.field(0), in: name)
            let lat = try NMEAFields.coordinate(s.field(1), s.field(2), degreeDigits: 2, in: name)
            let lon = try NMEAFields.coordinate(s.field(3), s.field(4), degreeDigits: 3, in: name)
            let hasFix: Bool
            if s.type == "GGA" {
                hasFix = (try NMEAFields.integer(s.field(5), "quality", in: name) ?? 0) > 0
            } else {
                // One mode letter per constellation; N means no fix for that one.
                hasFix = s.field(5).contains { $0 != "N" }
            }
            let satellites = try NMEAFields.integer(s.field(6), "satellites", in: name)
            let hdop = try NMEAFields.number(s.field(7), "HDOP", in: name)
            let altitude = try NMEAFields.number(s.field(8), "altitude", in: name)
            let separation = try NMEAFields.number(s.field(s.type == "GGA" ? 10 : 9), "geoid separation", in: name)
            counts.sentences += 1
            guard let time else { return [] }
            events += startEpoch(at: time)
            epoch?.latitude = lat
            epoch?.longitude = lon
            epoch?.hasFix = hasFix
            epoch?.satellites = satellites
            epoch?.hdop = hdop
            epoch?.altitudeMSL = altitude
            epoch?.geoidSeparation = separation
            epoch?.hasPositionSentence = true
        case "RMC":
            let time = try NMEAFields.timeOfDay(s.field(0), in: name)
            let status = s.field(1)
            let lat = try NMEAFields.coordinate(s.field(2), s.field(3), degreeDigits: 2, in: name)
            let lon = try NMEAFields.coordinate(s.field(4), s.field(5), degreeDigits: 3, in: name)
            let knots = try NMEAFields.number(s.field(6), "speed", in: name)
            let track = try NMEAFields.number(s.field(7), "track", in: name)
            let day = try NMEAFields.date(s.field(8), in: name)
            counts.sentences += 1
            if let day { date = day }
            guard let time else { return [] }
            events += startEpoch(at: time)
            if epoch?.latitude == nil { epoch?.latitude = lat }
            if epoch?.longitude == nil { epoch?.longitude = lon }
            if status != "A" { epoch?.hasFix = false } else if epoch?.hasFix == nil { epoch?.hasFix = true }
            epoch?.speed = knots.map { $0 * 1852.0 / 3600.0 }
            epoch?.track = track
            epoch?.hasRMC = true
        case "GSA":
            let mode = try NMEAFields.integer(s.field(1), "fix mode", in: name)
            let hdop = try NMEAFields.number(s.field(15), "HDOP", in: name)
            counts.sentences += 1
            gsaMode = mode.flatMap(Fix.Mode.init(rawValue:))
            if let hdop { gsaHDOP = hdop }
        case "GSV":
            _ = try NMEAFields.integer(s.field(0), "message count", in: name)
            _ = try NMEAFields.integer(s.field(2), "satellites in view", in: name)
            counts.sentences += 1
        default:
            counts.sentences += 1
            counts.ignored += 1
        }
        if let current = epoch, !current.emitted, current.hasPositionSentence, current.hasRMC {
            epoch?.emitted = true
            events.append(emit(current))
        }
        return events
    }

    /// Opens the epoch for `time`, closing (and emitting, if not yet) the previous one.
    private mutating func startEpoch(at time: Double) -> [FixEvent] {
        if let current = epoch, current.timeOfDay == time { return [] }
        var events: [FixEvent] = []
        if let current = epoch, !current.emitted { events.append(emit(current)) }
        // Past midnight before the first RMC of the new day brings its date.
        if let previous = previousTimeOfDay, let day = date, time + 43_200 < previous { date = day + 1 }
        previousTimeOfDay = time
        epoch = Epoch(timeOfDay: time)
        return events
    }

    private mutating func emit(_ e: Epoch) -> FixEvent {
        let day = date ?? today()
        let time = Timestamp(nanosecondsSinceEpoch: Int64(day) * 86_400_000_000_000 + Int64((e.timeOfDay * 1e9).rounded()))
        guard e.hasFix == true, let lat = e.latitude, let lon = e.longitude else { return .noFix(time) }
        var mode = gsaMode ?? (e.altitudeMSL == nil ? .twoD : .threeD)
        if mode == .noFix { mode = e.altitudeMSL == nil ? .twoD : .threeD }
        let threeD = mode == .threeD
        counts.fixes += 1
        return .fix(Fix(
            time: time, latitude: lat, longitude: lon,
            altitudeHAE: threeD ? e.altitudeMSL.map { $0 + (e.geoidSeparation ?? 0) } : nil,
            altitudeMSL: threeD ? e.altitudeMSL : nil,
            hdop: e.hdop ?? gsaHDOP, satellites: e.satellites, speed: e.speed, track: e.track,
            mode: mode, source: source))
    }
}
