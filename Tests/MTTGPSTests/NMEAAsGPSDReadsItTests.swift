import Foundation
import MTTCore
import MTTGPS
import TestSupport
import Testing

/// Two-line captures (Fixtures/nmea/gpsd-rules), one per rule in which mtt used to differ from gpsd,
/// replayed as `--gps nmea:FILE` replays them: with no clock to date them by.
@Suite("NMEA read as gpsd reads it")
struct NMEAAsGPSDReadsItTests {
    static func replay(_ name: String) throws -> [FixEvent] {
        var assembler = NMEAFixAssembler(source: "nmea:" + name)
        var events: [FixEvent] = []
        for line in Capture.lines(try Capture.bytes(FixtureFiles.own("nmea/gpsd-rules/" + name))) {
            events += assembler.consume(line: line)
        }
        return events + assembler.finish()
    }

    /// 2026-06-21 and 2012-06-21, 10:15:00 UTC.
    static let june2026 = Timestamp(nanosecondsSinceEpoch: (20_625 * 86_400 + 36_900) * 1_000_000_000)
    static let june2012 = Timestamp(nanosecondsSinceEpoch: (Int64(CivilDays.from(year: 2012, month: 6, day: 21)) * 86_400 + 36_900) * 1_000_000_000)

    @Test(arguments: ["rmc-void-then-gga-simulator.nmea", "gga-simulator-then-rmc-void.nmea"])
    func aSimulatorFixIsNoFixInEitherOrder(_ name: String) throws {
        let events = try Self.replay(name)
        #expect(events.fixes.isEmpty && events.noFixCount == 1, "\(events)")
    }

    @Test func qualityOneWithNoSatellitesUsedIsNoFix() throws {
        let events = try Self.replay("gga-no-satellites.nmea")
        #expect(events.fixes.isEmpty && events.noFixCount == 1, "\(events)")
    }

    /// A GGA + ZDA receiver sends no RMC: the date is the ZDA's, not the machine's today.
    @Test func theDateComesFromZDA() throws {
        let fix = try #require(try Self.replay("gga-zda-2012.nmea").fixes.first)
        #expect(fix.time == Self.june2012)
    }

    @Test func anyTalkerIsRead() throws {
        let fix = try #require(try Self.replay("talker-in.nmea").fixes.first)
        #expect(fix.time == Self.june2026 && abs(fix.latitude - (52 + 5.4468 / 60)) < 1e-9)
    }

    @Test func gllGivesAPosition() throws {
        let fix = try #require(try Self.replay("gll-zda.nmea").fixes.first)
        #expect(fix.time == Self.june2026 && abs(fix.longitude - (5 + 7.2906 / 60)) < 1e-9)
    }

    @Test func aDoubledDollarIsTolerated() throws {
        let fix = try #require(try Self.replay("doubled-dollar.nmea").fixes.first)
        #expect(fix.time == Self.june2026 && fix.satellites == 9)
    }

    /// A capture that never says its date gives no fixes rather than fixes dated today.
    @Test func aCaptureWithoutADateIsNotDatedByTheClock() {
        var assembler = NMEAFixAssembler(source: "nmea:undated")
        let line = Array("$GPGGA,101500.00,5205.4468,N,00507.2906,E,1,09,0.9,3.0,M,47.2,M,,*68\r\n".utf8)
        var events = assembler.consume(line: line)
        events += assembler.finish()
        #expect(events.fixes.isEmpty)
        #expect(assembler.counts.undated == 1 && assembler.counts.badLines == 0)
    }
}
