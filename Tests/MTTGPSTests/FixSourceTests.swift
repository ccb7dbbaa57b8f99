import Foundation
import MTTCore
import MTTGPS
import TestSupport
import Testing

@Suite("NMEA replay, fixed and simulated sources")
struct FixSourceTests {
    /// Waits as long as it takes (up to 10 minutes): a suite beside another on two cores gave a
    /// replay at 20 times its pace 16 fixes in 60 s.
    static func collect(_ source: any FixSource, fixes: Int, timeout: Double = 600) async -> [FixEvent] {
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(source.events())
        _ = await recorder.wait(timeout: timeout) { $0.fixes.count >= fixes }
        await recorder.stop()
        return await recorder.events
    }

    @Test func replayAtFullSpeedGivesTheParsersFixesThenEnds() async throws {
        let path = FixtureFiles.own("nmea/utrecht-drive.nmea")
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(NMEAReplaySource(path: path, speed: 0).events())
        #expect(await recorder.waitUntilFinished(timeout: 60))
        let events = await recorder.events
        #expect(events.first == .connected("nmea:\(path)?speed=0"))
        #expect(events.fixes == NMEAFixAssemblerTests.replay(try Capture.bytes(path)).events.fixes.map {
            var fix = $0
            fix.source = "nmea:\(path)?speed=0"
            return fix
        })
    }

    @Test func replayKeepsTheCapturesPaceScaled() async throws {
        // 40 one-second epochs at speed 20 take about 2 s; at full speed they would take milliseconds.
        let started = Date()
        let events = await Self.collect(NMEAReplaySource(path: FixtureFiles.own("nmea/utrecht-drive.nmea"), speed: 20), fixes: 37)
        let elapsed = Date().timeIntervalSince(started)
        #expect(events.fixes.count == 37)
        #expect(elapsed > 1.5, "replay took \(elapsed) s")
    }

    @Test func missingReplayFileIsALossThenTheEnd() async {
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(NMEAReplaySource(path: "/nonexistent/drive.nmea").events())
        #expect(await recorder.waitUntilFinished(timeout: 60))
        #expect(await recorder.events == [.lost(reason: "cannot read the NMEA file /nonexistent/drive.nmea")])
    }

    @Test func fixedPositionRepeatsThePointWithCurrentTime() async {
        let point = GeoPoint(latitude: 52.0907, longitude: 5.1214, altitude: 4)
        let fixes = await Self.collect(FixedPositionSource(point: point, interval: 0.05), fixes: 3).fixes
        #expect(fixes.count >= 3)
        #expect(fixes.allSatisfy { $0.latitude == 52.0907 && $0.longitude == 5.1214 && $0.mode == .threeD })
        // Stamped now (a busy test machine can take seconds to hand them over), not at some fixed time.
        #expect(fixes.allSatisfy { abs(Timestamp.now().seconds(since: $0.time)) < 60 })
    }

    @Test func simulatedSourceFollowsTheSeededDrive() async {
        let fixes = await Self.collect(SimulatedFixSource(seed: 3, clock: ScaledClock(scale: 200)), fixes: 20).fixes
        #expect(fixes.count >= 20)
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $1.time.seconds(since: $0.time) >= 1 })
        #expect(fixes.allSatisfy { $0.source == "fake:3" })
    }

    /// The time of the last fix or no-fix report.
    static func lastReport(_ events: [FixEvent]) -> Timestamp? {
        events.compactMap { event -> Timestamp? in
            switch event {
            case .fix(let fix): fix.time
            case .noFix(let time): time
            default: nil
            }
        }.last
    }

    /// A machine that stalls (a suite beside another, --speed 20) must not leave the drive behind
    /// the run's clock: after 30 s of the clock in one step, the drive's reports reach the clock's
    /// now, one for each second. Before, it gave one report and went on a second behind for every
    /// stall, until every fix was too old for an active run to send on.
    @Test func aStalledDriveCatchesUpWithItsClock() async {
        let clock = ManualClock()
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(SimulatedFixSource(seed: 3, clock: clock).events())
        #expect(await eventually { clock.sleepers == 1 }, "the drive waits for its second report")
        clock.advance(by: 30)
        let now = clock.now()
        let caughtUp = await recorder.wait(timeout: 60) { events in Self.lastReport(events) == now }
        #expect(caughtUp, "the drive's last report is not at the clock's now")
        await recorder.stop()
    }
}
