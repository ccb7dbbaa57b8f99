import MTTCore
import TestSupport
import Testing

/// Issue 43: a tracker's frames nobody heard, from the gaps in its frame counters — placed between
/// the heard fixes when they are close, kept unplaced with the reason otherwise, and never made up
/// from a restart, a huge jump or a second delivery.
@Suite("Trackers: frame-counter gaps are estimated attempts")
struct FrameCounterGapsTests {
    static let start = Timestamp(secondsSinceEpoch: 1_790_000_000)
    static let here = GeoPoint(latitude: 52.0907, longitude: 5.1214, altitude: 10)

    static func uplink(_ fCnt: UInt32, at seconds: Double, device: String = "tbeam-1", sf: Int = 9) -> Uplink {
        Uplink(deviceID: device, devEUI: nil, fCnt: fCnt, spreadingFactor: sf, receivedAt: start.adding(seconds: seconds))
    }

    @Test func framesBetweenTwoHeardOnesAreSpreadEvenlyInTimeAndPlace() {
        var gaps = FrameCounterGaps()
        let there = Self.here.offset(metres: 900, bearing: 90)
        #expect(gaps.heard(Self.uplink(10, at: 0), id: 1, session: 7, position: Self.here).isEmpty)
        let lost = gaps.heard(Self.uplink(13, at: 60, sf: 10), id: 2, session: 7, position: GeoPoint(latitude: there.latitude, longitude: there.longitude, altitude: 30))
        #expect(lost.map(\.fCnt) == [11, 12])
        #expect(lost.map { $0.sentAt.seconds(since: Self.start) } == [20, 40])
        #expect(lost.allSatisfy { $0.sessionID == 7 && $0.heardBefore == 1 && $0.heardAfter == 2 && $0.reason == nil && $0.spreadingFactor == 9 })
        let first = try? #require(lost.first?.position)
        #expect((first?.distance(to: Self.here) ?? 0).rounded() == 300, "\(String(describing: first))")
        #expect(abs((first?.altitude ?? 0) - (10 + 20.0 / 3)) < 1e-9)
    }

    @Test func farApartInTimeOrSpaceOrUnplacedTheyAreKeptWithoutAPosition() {
        var gaps = FrameCounterGaps()
        _ = gaps.heard(Self.uplink(1, at: 0), id: 1, session: 1, position: Self.here)
        let late = gaps.heard(Self.uplink(3, at: 301), id: 2, session: 1, position: Self.here)
        #expect(late.count == 1 && late[0].position == nil)
        #expect(late.first?.reason == "the heard uplinks around it are 301 s apart (more than 300 s)")
        let far = gaps.heard(Self.uplink(5, at: 361), id: 3, session: 1, position: Self.here.destination(metres: 2_500, bearing: 0))
        #expect(far.first?.reason == "the heard uplinks around it are 2500 m apart (more than 2000 m)", "\(far)")
        let unplaced = gaps.heard(Self.uplink(7, at: 371), id: 4, session: 1, position: nil)
        #expect(unplaced.first?.reason == "the device's position is not known at both heard uplinks around it")
        var wider = FrameCounterGaps.Rules()
        wider.maximumTime = 400
        var relaxed = FrameCounterGaps(rules: wider)
        _ = relaxed.heard(Self.uplink(1, at: 0), id: 1, session: 1, position: Self.here)
        #expect(relaxed.heard(Self.uplink(3, at: 301), id: 2, session: 1, position: Self.here).first?.position != nil)
    }

    @Test func aRestartAHugeJumpOrTheSameFrameAgainIsNoGap() {
        var gaps = FrameCounterGaps()
        _ = gaps.heard(Self.uplink(500, at: 0), id: 1, session: 1, position: Self.here)
        #expect(gaps.heard(Self.uplink(500, at: 5), id: 2, session: 1, position: Self.here).isEmpty, "a second delivery")
        #expect(gaps.heard(Self.uplink(2, at: 10), id: 3, session: 1, position: Self.here).isEmpty, "a restart")
        #expect(gaps.heard(Self.uplink(4, at: 20), id: 4, session: 1, position: Self.here).count == 1, "counted again from the restart")
        #expect(gaps.heard(Self.uplink(1_005, at: 30), id: 5, session: 1, position: Self.here).isEmpty, "a jump of 1,001")
        #expect(gaps.heard(Self.uplink(2_005, at: 40), id: 6, session: 1, position: Self.here).count == 999, "a jump of 1,000")
    }

    @Test func eachDeviceHasItsOwnCounter() {
        var gaps = FrameCounterGaps()
        _ = gaps.heard(Self.uplink(1, at: 0, device: "a"), id: 1, session: 1, position: Self.here)
        _ = gaps.heard(Self.uplink(50, at: 1, device: "b"), id: 2, session: 1, position: Self.here)
        #expect(gaps.heard(Self.uplink(2, at: 10, device: "a"), id: 3, session: 1, position: Self.here).isEmpty)
        #expect(gaps.heard(Self.uplink(53, at: 11, device: "b"), id: 4, session: 1, position: Self.here).map(\.deviceID) == ["b", "b"])
    }

    @Test func aDevicesSessionEndsAfterSilenceOrARestart() {
        func heard(_ device: String, _ seconds: Double, _ fCnt: UInt32, placed: Bool = true, lost: Int = 0) -> DeviceSessionSplitter.Heard {
            .init(device: device, devEUI: nil, time: Self.start.adding(seconds: seconds), fCnt: fCnt, position: placed ? Self.here : nil, estimatedBefore: lost)
        }
        var sessions: [DeviceSession] = []
        DeviceSessionSplitter().split([
            heard("a", 0, 1), heard("a", 60, 3, lost: 1), heard("a", 1_860, 4, placed: false),  // 30 min of silence: not yet a new one
            heard("a", 3_661, 5), heard("a", 3_700, 1),  // more than 30 min, then a restart
            heard("b", 0, 9),
        ]) { sessions.append($0) }
        #expect(sessions.map { "\($0.device)#\($0.number):\($0.uplinks)/\($0.placed)/\($0.estimatedAttempts)" } == ["a#1:3/2/1", "a#2:1/1/0", "a#3:1/1/0", "b#1:1/1/0"])
        #expect(sessions[0].firstFCnt == 1 && sessions[0].lastFCnt == 4 && sessions[0].end == Self.start.adding(seconds: 1_860))
        var devices: [DeviceSummary] = []
        for session in sessions { DeviceSummary.add(session, to: &devices) }
        #expect(devices.map { "\($0.device):\($0.sessions)/\($0.uplinks)" } == ["a:3/5", "b:1/1"])
        sessions = []
        DeviceSessionSplitter(silence: 60).split([heard("a", 0, 1), heard("a", 61, 2)]) { sessions.append($0) }
        #expect(sessions.count == 2)
    }
}
