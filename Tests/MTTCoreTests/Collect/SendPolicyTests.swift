import MTTCore
import Testing

@Suite("Send policy")
struct SendPolicyTests {
    static let t0 = Timestamp(nanosecondsSinceEpoch: 1_782_036_900_000_000_000)
    static func fix(_ second: Double, metresEast: Double = 0, eph: Double? = 5) -> Fix {
        let p = GeoPoint(latitude: 52.09, longitude: 5.12).offset(metres: metresEast, bearing: 90)
        return Fix(time: t0.adding(seconds: second), latitude: p.latitude, longitude: p.longitude, eph: eph, mode: .threeD, source: "t")
    }

    let policy = SendPolicy()
    let last = SendPolicy.LastSend(time: t0, position: GeoPoint(latitude: 52.09, longitude: 5.12))

    @Test func firstFreshGoodFixIsSent() {
        #expect(policy.reasonToWait(fix: Self.fix(0), now: Self.t0.adding(seconds: 1), last: nil) == nil)
    }

    @Test func staleOrUncertainFixesWait() {
        #expect(policy.reasonToWait(fix: Self.fix(0), now: Self.t0.adding(seconds: 16), last: nil) == "the fix is 16 s old (the limit is 15 s)")
        #expect(policy.reasonToWait(fix: Self.fix(0, eph: 40), now: Self.t0, last: nil) == "the fix is uncertain (±40 m, the limit is 15 m)")
        // Issue 33, item 8: what is sent by default is what TTN Mapper's main map takes.
        #expect(policy.reasonToWait(fix: Self.fix(0, eph: 17.1), now: Self.t0, last: nil) == "the fix is uncertain (±17.1 m, the limit is 15 m)")
        #expect(policy.reasonToWait(fix: Self.fix(0, eph: 15), now: Self.t0, last: nil) == nil)
        #expect(TTNMapperQualityGate().reason(against: GeoPoint(latitude: 52.09, longitude: 5.12), fix: Self.fix(0, eph: 15)) == nil)
        // No error estimate (an NMEA receiver): not held back for it.
        #expect(policy.reasonToWait(fix: Self.fix(0, eph: nil), now: Self.t0, last: nil) == nil)
    }

    @Test func needsBothDistanceAndTime() {
        #expect(policy.reasonToWait(fix: Self.fix(8, metresEast: 50), now: Self.t0.adding(seconds: 8), last: last) == "sent 8 s ago")
        #expect(policy.reasonToWait(fix: Self.fix(20, metresEast: 6), now: Self.t0.adding(seconds: 20), last: last) == "moved only 6 m")
        #expect(policy.reasonToWait(fix: Self.fix(13, metresEast: 11), now: Self.t0.adding(seconds: 13), last: last) == nil)
    }

    @Test func everySendsWhenStandingStill() {
        var standing = policy
        standing.every = 30
        #expect(standing.reasonToWait(fix: Self.fix(29), now: Self.t0.adding(seconds: 29), last: last) == "moved only 0 m")
        #expect(standing.reasonToWait(fix: Self.fix(30), now: Self.t0.adding(seconds: 30), last: last) == nil)
    }

    /// `--every 0s` used to send on every fix: a real node would break its duty cycle.
    @Test func everyNeverGoesBelowTheMinimumInterval() {
        var eager = policy
        eager.every = 0
        #expect(eager.reasonToWait(fix: Self.fix(5), now: Self.t0.adding(seconds: 5), last: last) == "sent 5 s ago")
        #expect(eager.reasonToWait(fix: Self.fix(12), now: Self.t0.adding(seconds: 12), last: last) == nil)
    }

    /// A replay of an old capture: held back, and the reason says how old and why.
    @Test func aFixFromAnOldCaptureIsStaleWithAReason() {
        var old = Self.fix(0)
        old.source = "nmea:drive-2012.nmea"
        let now = Self.t0.adding(seconds: 5 * 86_400)
        #expect(policy.staleness(of: old, now: now) == "the fix is 5 days old (the limit is 15 s): the NMEA capture was recorded at another time")
        #expect(policy.reasonToWait(fix: old, now: now, last: nil) == policy.staleness(of: old, now: now))
        #expect(policy.staleness(of: Self.fix(0), now: Self.t0.adding(seconds: 3)) == nil)
    }
}
