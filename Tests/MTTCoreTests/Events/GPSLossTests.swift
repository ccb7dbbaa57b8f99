import MTTCore
import Testing

/// Issue 33, item 4: a receiver without a fix is "GPS lost" once it has lasted a while, and the
/// outage "GPS back after" says is counted from its first report without a fix.
@Suite("GPS lost and back")
struct GPSLossTests {
    let start = Timestamp(nanosecondsSinceEpoch: 1_790_000_000_000_000_000)

    func deriver() -> FieldEventDeriver {
        FieldEventDeriver(session: 1, mode: .matching, rules: AlertRules(), hearsTheNetwork: false, knownGateways: [], start: start)
    }

    func fix(at seconds: Double) -> CollectEvent {
        .gps(.fix(Fix(time: start.adding(seconds: seconds), latitude: 52.09, longitude: 5.12, mode: .threeD, source: "test")))
    }

    /// Feeds `events` at their second marks; returns the GPS loss events with when they came.
    func gpsEvents(_ events: [(Double, CollectEvent)]) -> [(Double, FieldEvent)] {
        var deriver = deriver()
        var out: [(Double, FieldEvent)] = []
        for (second, event) in events {
            for field in deriver.derive(event, at: start.adding(seconds: second)) where field.type == .gpsLost || field.type == .gpsBack {
                out.append((second, field))
            }
        }
        return out
    }

    @Test func oneEpochWithoutAFixIsNoLoss() {
        let events = gpsEvents([(0, fix(at: 0)), (1, .gps(.noFix(start))), (2, fix(at: 2)), (3, fix(at: 3))])
        #expect(events.isEmpty, "\(events.map { $0.1.summary })")
    }

    @Test func threeSecondsWithoutAFixAreALossCountedFromTheFirst() throws {
        var events: [(Double, CollectEvent)] = [(0, fix(at: 0))]
        events += (1...9).map { (Double($0), CollectEvent.gps(.noFix(start))) }
        events.append((10, fix(at: 10)))
        let seen = gpsEvents(events)
        try #require(seen.count == 2)
        #expect(seen.first?.0 == 4 && seen.first?.1.type == .gpsLost && seen.first?.1.summary == "GPS lost: no fix", "\(seen.map { $0.1.summary })")
        #expect(seen.last?.0 == 10 && seen.last?.1.summary == "GPS back after 9 s", "\(seen.map { $0.1.summary })")
    }

    @Test func aSourceThatGoesAwayIsLostAtOnce() {
        let seen = gpsEvents([(0, fix(at: 0)), (1, .gps(.lost(reason: "gpsd closed the connection"))), (6, fix(at: 6))])
        #expect(seen.map { $0.1.summary } == ["GPS lost: gpsd closed the connection", "GPS back after 5 s"])
    }
}
