import Foundation
import MTTCore
import Testing

@Suite("Simulated drive")
struct SimulatedDriveTests {
    static let start = Timestamp(nanosecondsSinceEpoch: 1_750_000_000_000_000_000)

    static func drive(seed: UInt64, seconds: Int) -> [FixEvent] {
        var drive = SimulatedDrive(seed: seed, startTime: start)
        return (0..<seconds).map { _ in drive.next() }
    }

    static func fixes(_ events: [FixEvent]) -> [Fix] {
        events.compactMap { if case .fix(let f) = $0 { f } else { nil } }
    }

    @Test func sameSeedSameDriveOtherSeedOtherDrive() {
        #expect(Self.drive(seed: 5, seconds: 600) == Self.drive(seed: 5, seconds: 600))
        #expect(Self.drive(seed: 5, seconds: 600) != Self.drive(seed: 6, seconds: 600))
    }

    @Test func movesAtCitySpeedsWithRealisticErrorAndLosesTheFixSometimes() {
        let events = Self.drive(seed: 1, seconds: 3600)
        let fixes = Self.fixes(events)
        let outages = events.count - fixes.count
        #expect(outages > 0 && outages < 360, "fix lost \(outages) s of an hour")
        #expect(fixes.allSatisfy { ($0.speed ?? -1) >= 0 && ($0.speed ?? 99) <= 14 })
        #expect(fixes.allSatisfy { ($0.eph ?? 0) >= 2.5 && ($0.eph ?? 99) <= 30 })
        #expect(fixes.allSatisfy { ($0.satellites ?? 0) >= 4 })
        // One report a second, starting at the start time.
        #expect(fixes.first?.time == Self.start)
        let distance = fixes.last.map { metres(from: fixes[0], to: $0) } ?? 0
        #expect(distance > 500, "an hour of driving ended \(Int(distance)) m from the start")
        #expect(fixes.contains { ($0.speed ?? 0) == 0 } && fixes.contains { ($0.speed ?? 0) > 8 })
    }

    private func metres(from a: Fix, to b: Fix) -> Double {
        let dLat = (b.latitude - a.latitude) * 111_320
        let dLon = (b.longitude - a.longitude) * 111_320 * cos(a.latitude * .pi / 180)
        return (dLat * dLat + dLon * dLon).squareRoot()
    }
}
