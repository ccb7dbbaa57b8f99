import MTTCore
import Testing

@Suite("Track interpolation")
struct TrackInterpolatorTests {
    static let t0 = Timestamp(nanosecondsSinceEpoch: 1_782_036_900_000_000_000)

    static func fix(_ second: Double, _ lat: Double, _ lon: Double, alt: Double? = nil) -> Fix {
        Fix(time: t0.adding(seconds: second), latitude: lat, longitude: lon, altitudeMSL: alt, mode: .threeD, source: "t")
    }

    /// Utrecht, due east at 10 m/s for 10 s, then north.
    static let track = [
        fix(0, 52.0907, 5.1214, alt: 10), fix(10, 52.0907, 5.1214 + 100 / (111_320 * 0.6149), alt: 20),
        fix(20, 52.0907 + 100 / 111_320, 5.1214 + 100 / (111_320 * 0.6149), alt: 20), fix(80, 52.1, 5.13),
    ]

    @Test func interpolatesLinearlyWithinAMetre() throws {
        let answer = TrackInterpolator().position(at: Self.t0.adding(seconds: 2.5), in: Self.track)
        guard case .position(let p) = answer else {
            Issue.record("no position: \(answer)")
            return
        }
        // 25 m east of the first fix.
        let expected = Self.track[0].point.offset(metres: 25, bearing: 90)
        #expect(p.distance(to: expected) < 1)
        #expect(abs((p.altitude ?? 0) - 12.5) < 1e-9)
    }

    @Test func exactFixTimesGiveTheFix() {
        #expect(TrackInterpolator().position(at: Self.t0.adding(seconds: 10), in: Self.track) == .position(Self.track[1].point))
    }

    @Test func outsideTheTrackOrInALongGapThereIsNoPositionAndTheReasonSaysWhy() {
        #expect(TrackInterpolator().position(at: Self.t0.adding(seconds: -3), in: Self.track) == .none(reason: "before the track starts (3 s early)"))
        #expect(TrackInterpolator().position(at: Self.t0.adding(seconds: 95), in: Self.track) == .none(reason: "after the track ends (15 s late)"))
        #expect(TrackInterpolator().position(at: Self.t0.adding(seconds: 50), in: Self.track) == .none(reason: "in a 60 s gap of the track (more than 30 s)"))
        #expect(TrackInterpolator().position(at: Self.t0, in: []) == .none(reason: "no track recorded"))
    }

    @Test func aMillionFixTrackAnswersByBinarySearch() {
        let track = (0..<1_000_000).map { Self.fix(Double($0), 52 + Double($0) * 1e-6, 5) }
        let answer = TrackInterpolator().position(at: Self.t0.adding(seconds: 765_432.5), in: track)
        guard case .position(let p) = answer else {
            Issue.record("no position")
            return
        }
        #expect(abs(p.latitude - (52 + 765_432.5e-6)) < 1e-9)
    }
}
