import Foundation
import MTTCore
import MTTGPS
import TestSupport
import Testing

@Suite("NMEA fixes from mtt's own capture")
struct NMEAFixAssemblerTests {
    static func replay(_ bytes: [UInt8]) -> (events: [FixEvent], counts: NMEAFixAssembler.Counts) {
        var assembler = NMEAFixAssembler(source: "nmea:test")
        var events: [FixEvent] = []
        for line in Capture.lines(bytes) { events += assembler.consume(line: line) }
        events += assembler.finish()
        return (events, assembler.counts)
    }

    let capture: [UInt8]

    init() throws {
        capture = try Capture.bytes(FixtureFiles.own("nmea/utrecht-drive.nmea"))
    }

    @Test func countsFixesOutagesAndBadLines() {
        let (events, counts) = Self.replay(capture)
        #expect(events.fixes.count == 37)
        #expect(events.noFixCount == 3)
        #expect(counts.fixes == 37)
        #expect(counts.badLines == 4)
        #expect(counts.ignored == 1)  // the VTG
    }

    @Test func firstFixHasEveryFieldAsWorkedByHand() throws {
        let fix = try #require(Self.replay(capture).events.fixes.first)
        // 2026-06-21 10:15:00 UTC = 20625 days × 86400 + 36900 s.
        #expect(fix.time == Timestamp(nanosecondsSinceEpoch: (20_625 * 86_400 + 36_900) * 1_000_000_000))
        #expect(abs(fix.latitude - (52 + 5.4468 / 60)) < 1e-9)
        #expect(abs(fix.longitude - (5 + 7.2906 / 60)) < 1e-9)
        #expect(fix.altitudeMSL == 3.0)
        #expect(abs(fix.altitudeHAE! - 50.2) < 1e-9)
        #expect(fix.satellites == 9 && fix.hdop == 0.9)
        #expect(abs(fix.speed! - 12.3 * 1852 / 3600) < 1e-9)
        #expect(fix.track == 54.7)
        #expect(fix.mode == .threeD)
        #expect(fix.eph == nil)  // NMEA has no error estimate; mtt does not invent one
        #expect(fix.source == "nmea:test")
    }

    @Test func fixesAreOnePerSecondInOrderAcrossTheOutage() {
        let times = Self.replay(capture).events.fixes.map { Int($0.time.secondsSinceEpoch) % 60 }
        #expect(times == Array(0..<20) + Array(23..<40))
    }

    @Test func multiGNSSEpochsUseGNS() throws {
        let fixes = Self.replay(capture).events.fixes
        let last = try #require(fixes.last)
        #expect(last.satellites == 14 && last.hdop == 0.8 && last.mode == .threeD)
    }

    @Test func gpsOnlyGGAIsEmittedWhenTheNextEpochStarts() {
        var assembler = NMEAFixAssembler(source: "t", today: { 20_000 })
        let first = assembler.consume(line: Array(Self.sentence("GPGGA,235959.00,5205.0000,N,00507.0000,E,1,05,1.2,10.0,M,47.0,M,,")))
        #expect(first.isEmpty)
        let second = assembler.consume(line: Array(Self.sentence("GPGGA,000000.00,5205.0010,N,00507.0000,E,1,05,1.2,10.0,M,47.0,M,,")))
        #expect(second.fixes.count == 1)
        // Without any RMC the date is today's (from the clock), as gpsd does.
        #expect(second.fixes.first?.time == Timestamp(nanosecondsSinceEpoch: (20_000 * 86_400 + 86_399) * 1_000_000_000))
        #expect(assembler.finish().fixes.count == 1)
    }

    @Test func dateRollsOverAtMidnightBeforeTheNextRMC() {
        var assembler = NMEAFixAssembler(source: "t")
        var fixes: [Fix] = []
        for body in [
            "GPGGA,235959.00,5205.0000,N,00507.0000,E,1,05,1.2,10.0,M,47.0,M,,",
            "GPRMC,235959.00,A,5205.0000,N,00507.0000,E,0.0,0.0,311226,,,A",
            "GPGGA,000000.00,5205.0000,N,00507.0000,E,1,05,1.2,10.0,M,47.0,M,,",
        ] {
            fixes += assembler.consume(line: Array(Self.sentence(body))).fixes
        }
        fixes += assembler.finish().fixes
        #expect(fixes.count == 2)
        #expect(fixes[1].time.seconds(since: fixes[0].time) == 1)
    }

    @Test func survivesRandomBytesAndCountsThem() {
        var random = SplitMix64(seed: 7)
        var assembler = NMEAFixAssembler(source: "t")
        for _ in 0..<5_000 {
            let line = (0..<Int.random(in: 0...90, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = assembler.consume(line: line)
        }
        #expect(assembler.counts.fixes == 0)
        #expect(assembler.counts.badLines > 4_000)
    }

    static func sentence(_ body: String) -> [UInt8] {
        Array("$\(body)*\(Hex.string([body.utf8.reduce(UInt8(0), ^)]))".utf8)
    }
}
