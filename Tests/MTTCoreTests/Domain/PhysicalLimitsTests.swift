import Foundation
import MTTCore
import TestSupport
import Testing

/// Values from the air held to what a radio can give (issue 47, items 7, 8 and 12): out of range is
/// left out with a reason, not stored, and an id shows what came in any terminal.
@Suite("Physical limits")
struct PhysicalLimitsTests {
    static let heard = Uplink(deviceID: "node", spreadingFactor: 7, receivedAt: MapTestData.start, receptions: [
        GatewayReception(gatewayID: "gw-1", rssi: -90, snr: 5, location: MapTestData.here),
    ])

    @Test func anUplinkWithinTheLimitsIsTheSameUplink() {
        let (screened, problems) = Self.heard.screened()
        #expect(screened == Self.heard && problems.isEmpty)
    }

    @Test func eachValueNoRadioGivesIsLeftOutWithItsReason() {
        var wild = Self.heard
        wild.spreadingFactor = 2_000_000_000
        wild.receptions = [
            GatewayReception(gatewayID: "gw-inf", rssi: .infinity, snr: 5),
            GatewayReception(gatewayID: "gw-nan", rssi: -90, snr: .nan),
            GatewayReception(gatewayID: "gw-huge", rssi: 1e308, snr: -1e308),
            GatewayReception(gatewayID: "gw-nowhere", rssi: -100, snr: 2, location: GeoPoint(latitude: 91, longitude: 500)),
        ]
        let (screened, problems) = wild.screened()
        #expect(screened.spreadingFactor == nil)
        #expect(screened.receptions.map(\.gatewayID) == ["gw-inf", "gw-nan", "gw-huge", "gw-nowhere"], "a gateway that heard it is still one")
        #expect(screened.receptions.map(\.rssi) == [nil, -90, nil, -100])
        #expect(screened.receptions.map(\.snr) == [5, nil, nil, 2])
        #expect(screened.receptions[3].location == nil)
        #expect(problems.count == 6, "\(problems)")
        #expect(problems.map(\.reason).contains("RSSI inf dBm of gateway gw-inf is outside -200…30: left out"), "\(problems)")
        #expect(problems.map(\.reason).contains("gateway gw-nowhere said it is at 91.0,500.0, which is no place: kept without a position"), "\(problems)")
        #expect(problems.allSatisfy { $0.kind == .outOfRange && !$0.reason.contains("\n") })
    }

    @Test func receptionsPastTheLimitAreLeftOut() {
        var flood = Self.heard
        flood.receptions = (0..<100_000).map { GatewayReception(gatewayID: "fake-\($0)", rssi: -100, snr: 1) }
        let (screened, problems) = flood.screened()
        #expect(screened.receptions.count == Uplink.defaultReceptionLimit)
        #expect(screened.receptions.first?.gatewayID == "fake-0")
        #expect(problems == [.init(.tooManyReceptions, "100000 receptions in one uplink: the first \(Uplink.defaultReceptionLimit) kept")])
    }

    /// An uplink once screened is not screened again (the store would repeat its source's work),
    /// but only as it was: a changed one, or a lower limit, is screened anew.
    @Test func anUplinkChangedAfterScreeningIsScreenedAgain() {
        let once = Self.heard.screened().uplink
        var changed = once
        changed.receptions = [GatewayReception(gatewayID: "gw-inf", rssi: .infinity, snr: 5)]
        let (screened, problems) = changed.screened()
        #expect(screened.receptions.map(\.rssi) == [nil])
        #expect(problems.map(\.reason) == ["RSSI inf dBm of gateway gw-inf is outside -200…30: left out"])

        var three = once
        three.receptions = Array(repeating: Self.heard.receptions[0], count: 3)
        let wide = three.screened(receptionLimit: .max).uplink
        let (narrow, cut) = wide.screened(receptionLimit: 2)
        #expect(narrow.receptions.count == 2)
        #expect(cut.map(\.kind) == [.tooManyReceptions])
    }

    @Test func controlAndBidiCharactersInIdsAreShownEscaped() {
        var odd = Self.heard
        odd.deviceID = "node\u{0}hidden"
        odd.receptions[0].gatewayID = "gw-\u{202E}evil"
        let screened = odd.screened().uplink
        #expect(screened.deviceID == "node\\u{0}hidden")
        #expect(screened.receptions[0].gatewayID == "gw-\\u{202E}evil")
        #expect(PhysicalLimits.printable("Zürich gw 1") == "Zürich gw 1")
    }

    /// Stored through any entry point, an out-of-range value never reaches the database: the
    /// coverage of a database that took +Inf is written as JSON like any other.
    @Test func theStoreKeepsNothingOutOfRange() throws {
        let store = try Store(path: TemporaryDirectory().file("limits.sqlite"))
        try MapTestData.heardSamples(store, at: [MapTestData.here], receptions: [
            GatewayReception(gatewayID: "gw-inf", rssi: .infinity, snr: 5),
            GatewayReception(gatewayID: "gw-ok", rssi: -95, snr: 5),
        ])
        let stored = try #require(try store.records.uplink(1))
        #expect(stored.receptions.map(\.rssi) == [nil, -95])
        var best: [Double] = []
        try store.coverage.forEachGatewayCell(CoverageFilter(), perSpreadingFactor: false) { best.append($0.best) }
        #expect(best == [-95])
        _ = try JSONEncoder().encode(best)
    }

    @Test func datesAreFrom2000ToADayAhead() {
        let now = Timestamp(secondsSinceEpoch: 1_800_000_000)
        #expect(PhysicalLimits.isPossible(now.adding(seconds: 3_600), now: now))
        #expect(!PhysicalLimits.isPossible(now.adding(seconds: 2 * 86_400), now: now))
        #expect(!PhysicalLimits.isPossible(Timestamp(secondsSinceEpoch: 0), now: now))
    }
}
