import FoundationEssentials
import Glibc

/// A deterministic simulated drive for `--gps fake`: city driving with stops, turns, a varying
/// error estimate and an occasional loss of fix, one report per simulated second.
/// The same seed always gives the same drive.
public struct SimulatedDrive: Sendable {
    public static let defaultStart = GeoPoint(latitude: 40.6782, longitude: -73.9442, altitude: 20)

    private var random: SplitMix64
    private var position: GeoPoint
    private var time: Timestamp
    private var heading: Double
    private var speed = 0.0
    private var targetSpeed = 0.0
    private var secondsUntilManoeuvre = 10
    private var secondsUntilOutage: Int
    private var outageLeft = 0
    private var eph = 5.0
    private let source: String

    /// - Parameter source: the GPS spec stored in each fix.
    public init(seed: UInt64, start: GeoPoint = defaultStart, startTime: Timestamp, source: String = "fake") {
        self.source = source
        random = SplitMix64(seed: seed)
        position = start
        time = startTime
        heading = Double(Int.random(in: 0..<4, using: &random)) * 90
        secondsUntilOutage = Int.random(in: 120...300, using: &random)
    }

    /// The current second of the drive; the first report is at `startTime`.
    public mutating func next() -> FixEvent {
        defer {
            time = time.adding(seconds: 1)
            advance()
        }
        if outageLeft > 0 {
            outageLeft -= 1
            return .noFix(time)
        }
        let satellites = max(4, min(12, Int((60 / eph).rounded()) + Int.random(in: -1...1, using: &random)))
        return .fix(Fix(
            time: time, latitude: position.latitude, longitude: position.longitude,
            altitudeHAE: (position.altitude ?? 0) - 33, altitudeMSL: position.altitude,
            eph: eph, epv: eph * 1.6, hdop: (eph / 5 * 10).rounded() / 10, satellites: satellites,
            speed: speed, track: heading, mode: .threeD, source: source))
    }

    private mutating func advance() {
        secondsUntilManoeuvre -= 1
        if secondsUntilManoeuvre <= 0 {
            // At a corner: stop, turn, or change pace, as in town.
            switch Int.random(in: 0..<4, using: &random) {
            case 0: targetSpeed = 0
            case 1: heading = (heading + (Bool.random(using: &random) ? 90 : -90)).truncatingRemainder(dividingBy: 360)
            default: targetSpeed = [6.0, 9.0, 13.0][Int.random(in: 0..<3, using: &random)]
            }
            secondsUntilManoeuvre = Int.random(in: 8...40, using: &random)
        }
        if heading < 0 { heading += 360 }
        speed += max(-3, min(2, targetSpeed - speed))
        heading = (heading + Double.random(in: -2...2, using: &random) + 360).truncatingRemainder(dividingBy: 360)
        position = position.offset(metres: speed, bearing: heading)
        eph = max(2.5, min(30, eph + Double.random(in: -0.8...0.8, using: &random)))

        secondsUntilOutage -= 1
        if secondsUntilOutage <= 0 {
            outageLeft = Int.random(in: 3...10, using: &random)
            secondsUntilOutage = Int.random(in: 120...300, using: &random)
        }
    }
}

extension SimulatedDrive {
    /// Drives `count` vehicles of the simulated town a simulated second at a time on `clock` until
    /// cancelled, vehicle `i` from `start(i)` on a drive of its own (`seed + i`): `each` gets every
    /// vehicle's report of every second, with the second's number (the simulated trackers' and
    /// field testers' rounds).
    static func fleet(
        count: Int, seed: UInt64, start: (Int) -> GeoPoint, clock: any TimeSource, _ each: (_ index: Int, _ second: Int, FixEvent) -> Void
    ) async {
        let startTime = clock.now()
        await run((0..<count).map { SimulatedDrive(seed: seed &+ UInt64($0), start: start($0), startTime: startTime) }, from: startTime, on: clock, each)
    }

    /// Drives `drives` a simulated second at a time on `clock` from `startTime` until cancelled:
    /// `each` gets every drive's report of every second, with the second's number. Each second
    /// waits for its own deadline, not a second from the last: on a stalled machine (beside a
    /// second test suite, at --speed 20) a drive paced the other way fell ever further behind the
    /// run's clock, until every fix was too old to send on and an active run sent nothing more.
    public static func run(
        _ drives: [SimulatedDrive], from startTime: Timestamp, on clock: any TimeSource, _ each: (_ index: Int, _ second: Int, FixEvent) -> Void
    ) async {
        var drives = drives
        var second = 0
        while !Task.isCancelled {
            for i in drives.indices { each(i, second, drives[i].next()) }
            second += 1
            do { try await clock.sleep(until: startTime.adding(seconds: Double(second))) } catch { return }
        }
    }
}
