import Foundation
import MTTCore
import MTTGPS
import TestSupport
import Testing

/// A real gpsd on 127.0.0.1 reading a pseudo-terminal that the test feeds, read by mtt through libgps.
@Suite("gpsd through libgps")
struct GPSDFixSourceTests {
    /// Feeds `capture` to a fresh gpsd once mtt is watching, and returns what mtt reported.
    static func readThroughGPSD(_ capture: [UInt8]) async throws -> [FixEvent] {
        let device = try PseudoTerminal()
        let gpsd = try await GPSDServer.start(device: device.slavePath)
        defer { gpsd.stop() }
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(GPSDFixSource(port: gpsd.port).events())
        let watching = await recorder.wait(timeout: 30) { $0.contains { if case .connected = $0 { true } else { false } } }
        try #require(watching, "mtt never got gpsd's WATCH answer")
        await device.feed(capture)
        await recorder.waitUntilQuiet(quiet: 1.5, timeout: 30)
        await recorder.stop()
        return await recorder.events
    }

    @Test func gpsdAndMTTsOwnParserAgreeOnOurCapture() async throws {
        let capture = try Capture.bytes(FixtureFiles.own("nmea/utrecht-drive.nmea"))
        let events = try await Self.readThroughGPSD(capture)
        let viaGPSD = events.fixes
        let viaParser = NMEAFixAssemblerTests.replay(capture).events.fixes
        // gpsd sometimes reports an epoch twice (once per sentence that closes it); positions are
        // what must agree, both ways.
        for fix in viaGPSD {
            #expect(viaParser.contains { $0.isAtSamePosition(as: fix) }, "gpsd gave \(fix.latitude), \(fix.longitude)")
        }
        for fix in viaParser {
            #expect(viaGPSD.contains { $0.isAtSamePosition(as: fix) }, "gpsd never gave \(fix.latitude), \(fix.longitude)")
        }
        #expect(viaGPSD.allSatisfy { $0.mode == .threeD && $0.source.hasPrefix("gpsd://127.0.0.1:") })
        // The outage under the bridge reaches mtt as reports without a fix.
        #expect(events.noFixCount >= 3)
        // gpsd computes an error estimate from the DOPs; mtt passes it on.
        #expect(viaGPSD.allSatisfy { $0.eph != nil })
    }

    @Test(
        .enabled(if: FixtureFiles.sharedIsPresent, "\(FixtureFiles.sharedSkipReason)"),
        arguments: ["gpsd/bu353s4.log", "gpsd/bu303-moving.log"])
    func positionsEqualGpsdsExpectedOutput(log: String) async throws {
        let path = try #require(FixtureFiles.shared(log))
        let check = try GPSDCheckFile(path: path + ".chk")
        let fixes = try await Self.readThroughGPSD(try Capture.bytes(path)).fixes
        #expect(!fixes.isEmpty)
        for fix in fixes {
            #expect(check.contains(fix), "\(log): position \(fix.latitude), \(fix.longitude) is not in gpsd's expected output")
        }
        #expect(fixes.filter { $0.mode == .threeD }.count == check.threeDCount)
    }

    @Test func reportsGpsdGoingAwayAndResumesWhenItReturns() async throws {
        let capture = try Capture.bytes(FixtureFiles.own("nmea/utrecht-drive.nmea"))
        let lines = Capture.lines(capture)
        let half = lines.count / 2
        let firstHalf: [UInt8] = lines[..<half].flatMap { Array($0) + [0x0A] }
        let secondHalf: [UInt8] = lines[half...].flatMap { Array($0) + [0x0A] }

        let device = try PseudoTerminal()
        let gpsd = try await GPSDServer.start(device: device.slavePath)
        defer { gpsd.stop() }
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(GPSDFixSource(port: gpsd.port, reconnect: Backoff(initial: 0.1, maximum: 0.4)).events())
        #expect(await recorder.wait(timeout: 30) { $0.contains { if case .connected = $0 { true } else { false } } })
        await device.feed(firstHalf)
        #expect(await recorder.wait(timeout: 30) { $0.fixes.count >= 10 })
        let beforeLoss = await recorder.events.fixes.count

        gpsd.stop()
        #expect(await recorder.wait(timeout: 30) { $0.contains { if case .lost = $0 { true } else { false } } })
        let lost = await recorder.events.compactMap { if case .lost(let reason) = $0 { reason } else { nil } }
        #expect(lost.count == 1, "the loss is reported once, not once per retry: \(lost)")
        #expect(lost.first?.contains("127.0.0.1:\(gpsd.port)") == true)

        try await gpsd.restart()
        #expect(await recorder.wait(timeout: 30) { events in
            events.filter { if case .connected = $0 { true } else { false } }.count == 2
        })
        await device.feed(secondHalf)
        #expect(await recorder.wait(timeout: 30) { $0.fixes.count >= beforeLoss + 10 })
        await recorder.stop()

        // What came after the restart is the capture's second half.
        let events = await recorder.events
        let restart = try #require(events.lastIndex { if case .connected = $0 { true } else { false } })
        let expected = NMEAFixAssemblerTests.replay(secondHalf).events.fixes
        let resumed = Array(events[restart...]).fixes
        #expect(!resumed.isEmpty)
        for fix in resumed {
            #expect(expected.contains { $0.isAtSamePosition(as: fix) })
        }
    }

    @Test func unreachableGpsdIsReportedOnceWithTheAddress() async throws {
        let port = LoopbackPort.free()
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(GPSDFixSource(port: port, reconnect: Backoff(initial: 0.05, maximum: 0.1)).events())
        #expect(await recorder.wait(timeout: 30) { !$0.isEmpty })
        // gpsd comes up on that port: every try until then was refused, and the loss said once.
        let device = try PseudoTerminal()
        let gpsd = try await GPSDServer.start(device: device.slavePath, port: port)
        defer { gpsd.stop() }
        #expect(await recorder.wait(timeout: 30) { events in events.contains { if case .connected = $0 { true } else { false } } })
        await recorder.stop()
        let events = await recorder.events
        #expect(events.count == 2, "\(events)")
        if case .lost(let reason) = events.first {
            #expect(reason.hasPrefix("cannot reach gpsd at 127.0.0.1:\(port)"))
        } else {
            Issue.record("expected a loss, got \(events)")
        }
    }
}
