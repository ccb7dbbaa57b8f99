import MTTCore

/// Turns a stream of NMEA lines into fixes, one per receiver epoch.
///
/// A receiver sends several sentences per epoch (GGA/GNS for position and altitude, RMC for date,
/// speed and track, GSA for the fix mode and DOPs). A fix is emitted as soon as the epoch has both a
/// position sentence and an RMC, or, for receivers that send only one of them, when the next epoch
/// starts. Bad lines are counted and skipped; they never stop the stream.
///
/// Read as gpsd reads it: any talker; GGA, GNS, GLL and RMC positions; the date from RMC and ZDA;
/// and the fix's validity from whichever sentence of the epoch said it last (GGA quality 0, 6
/// estimated, 7 manual or 8 simulator, GGA with no satellites used, RMC or GLL status V, GNS or
/// GLL mode N, E, M or S: no fix).
public struct NMEAFixAssembler: Sendable {
    public struct Counts: Sendable, Hashable {
        /// Sentences with a good checksum.
        public var sentences = 0
        /// Lines that were not NMEA, failed the checksum or had a malformed field.
        public var badLines = 0
        /// Good sentences mtt has no use for (VTG, TXT, proprietary ones).
        public var ignored = 0
        public var fixes = 0
        /// Epochs that could not be dated: the capture had no RMC or ZDA date.
        public var undated = 0
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
    private let today: (@Sendable () -> Int)?
    private var date: Int?
    /// Epochs waiting for the capture's first date.
    private var undated: [Epoch] = []
    /// Undated epochs kept before they are given up as no fix.
    static let undatedLimit = 600
    private var previousTimeOfDay: Double?
    private var epoch: Epoch?
    private var gsaMode: Fix.Mode?
    private var gsaHDOP: Double?

    /// - Parameters:
    ///   - source: the GPS spec, stored in each fix.
    ///   - today: days since 1970 to date fixes with until an RMC or ZDA brings the receiver's
    ///     date, for a live receiver. Nil for a replay, whose epochs wait for the capture's own
    ///     date: the machine's clock would date a 2012 drive today.
    public init(source: String, today: (@Sendable () -> Int)? = nil) {
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
        var events: [FixEvent] = []
        if let open = epoch, !open.emitted {
            epoch?.emitted = true
            events += emit(open)
        }
        // The capture never said its date.
        counts.undated += undated.count
        undated.removeAll()
        return events
    }

    private mutating func consume(_ s: NMEASentence) throws(NMEAError) -> [FixEvent] {
        guard !s.talker.isEmpty else {
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
            let satellites = try NMEAFields.integer(s.field(6), "satellites", in: name)
            var hasFix: Bool
            if s.type == "GGA" {
                let quality = try NMEAFields.integer(s.field(5), "quality", in: name) ?? 0
                hasFix = (1...5).contains(quality)
            } else {
                // One mode letter per constellation; a fix if any of them has a real one.
                hasFix = s.field(5).contains { Self.validModes.contains($0) }
            }
            if satellites == 0 { hasFix = false }
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
            // NMEA 2.3 adds a mode letter after the magnetic variation.
            epoch?.hasFix = status == "A" && (s.field(11).isEmpty || s.field(11).contains { Self.validModes.contains($0) })
            epoch?.speed = knots.map { $0 * 1852.0 / 3600.0 }
            epoch?.track = track
            epoch?.hasRMC = true
        case "GLL":
            let lat = try NMEAFields.coordinate(s.field(0), s.field(1), degreeDigits: 2, in: name)
            let lon = try NMEAFields.coordinate(s.field(2), s.field(3), degreeDigits: 3, in: name)
            let time = try NMEAFields.timeOfDay(s.field(4), in: name)
            counts.sentences += 1
            guard let time else { return [] }
            events += startEpoch(at: time)
            if epoch?.latitude == nil { epoch?.latitude = lat }
            if epoch?.longitude == nil { epoch?.longitude = lon }
            epoch?.hasFix = s.field(5) == "A" && (s.field(6).isEmpty || s.field(6).contains { Self.validModes.contains($0) })
            // A position without altitude: a fix of its own for receivers that send GLL alone.
            epoch?.hasPositionSentence = true
        case "ZDA":
            _ = try NMEAFields.timeOfDay(s.field(0), in: name)
            let day = try NMEAFields.integer(s.field(1), "day", in: name)
            let month = try NMEAFields.integer(s.field(2), "month", in: name)
            let year = try NMEAFields.integer(s.field(3), "year", in: name)
            counts.sentences += 1
            if let day, let month, let year {
                guard (1...31).contains(day), (1...12).contains(month), (1980...2200).contains(year) else {
                    throw .badField(sentence: name, field: "date \(day)/\(month)/\(year)")
                }
                date = CivilDays.from(year: year, month: month, day: day)
                events += dateWaitingEpochs()
            }
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
        if s.type == "RMC", date != nil { events += dateWaitingEpochs() }
        if let current = epoch, !current.emitted, current.hasPositionSentence, current.hasRMC {
            epoch?.emitted = true
            events += emit(current)
        }
        return events
    }

    /// Mode letters of a real fix: autonomous, differential, precise, RTK fixed and float.
    /// E (estimated), M (manual), S (simulator) and N (none) are not.
    private static let validModes: Set<Character> = ["A", "D", "P", "R", "F"]

    /// Epochs that waited for the capture's date, dated now.
    private mutating func dateWaitingEpochs() -> [FixEvent] {
        guard !undated.isEmpty else { return [] }
        let waiting = undated
        undated.removeAll()
        return waiting.flatMap { emit($0) }
    }

    /// Opens the epoch for `time`, closing (and emitting, if not yet) the previous one.
    private mutating func startEpoch(at time: Double) -> [FixEvent] {
        if let current = epoch, current.timeOfDay == time { return [] }
        var events: [FixEvent] = []
        if let current = epoch, !current.emitted { events += emit(current) }
        // Past midnight before the first RMC of the new day brings its date.
        if let previous = previousTimeOfDay, let day = date, time + 43_200 < previous { date = day + 1 }
        previousTimeOfDay = time
        epoch = Epoch(timeOfDay: time)
        return events
    }

    /// The epoch's fix or no-fix; nothing while the epoch waits for a date.
    private mutating func emit(_ e: Epoch) -> [FixEvent] {
        guard let day = date ?? today?() else {
            undated.append(e)
            if undated.count > Self.undatedLimit {
                undated.removeFirst()
                counts.undated += 1
            }
            return []
        }
        return [fixEvent(e, day: day)]
    }

    private mutating func fixEvent(_ e: Epoch, day: Int) -> FixEvent {
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
