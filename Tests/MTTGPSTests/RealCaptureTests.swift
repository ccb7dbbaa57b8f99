import Foundation
import MTTCore
import MTTGPS
import TestSupport
import Testing

/// gpsd's regression captures from ../shared/fixtures, read by mtt's own NMEA parser.
@Suite("NMEA parser on real captures", .enabled(if: FixtureFiles.sharedIsPresent, "\(FixtureFiles.sharedSkipReason)"))
struct RealCaptureTests {
    @Test func bu353s4PositionsEqualGpsdsExpectedOutput() throws {
        let log = try #require(FixtureFiles.shared("gpsd/bu353s4.log"))
        let check = try GPSDCheckFile(path: log + ".chk")
        let fixes = NMEAFixAssemblerTests.replay(try Capture.bytes(log)).events.fixes
        #expect(!fixes.isEmpty)
        for fix in fixes {
            #expect(check.contains(fix), "position \(fix.latitude), \(fix.longitude) is not in gpsd's output")
        }
        // Every timed 3D report of gpsd's has its fix; gpsd's two untimed ones come from the first GGA,
        // before the receiver's first RMC brought the date, and repeat the same position.
        let timed3D = check.reports.filter { $0.mode == 3 && $0.hasTime }.count
        #expect(fixes.filter { $0.mode == .threeD }.count == timed3D)
    }

    /// bu303-moving.log is SiRF binary, not NMEA: the parser must skip it without a crash or a fix.
    @Test func binarySiRFCaptureIsSkippedAsBadLines() throws {
        let log = try #require(FixtureFiles.shared("gpsd/bu303-moving.log"))
        let (events, counts) = NMEAFixAssemblerTests.replay(try Capture.bytes(log))
        #expect(events.fixes.isEmpty)
        #expect(counts.badLines > 0)
        #expect(counts.sentences == 0)
    }
}
