import MTTCore
import Testing

/// Issue 33, item 3: the live counts agree with the database whichever comes first, the network's
/// uplink or the node's result, and the last success is there to show.
@Suite("Live counts of a run")
struct CollectionStatsTests {
    let now = Timestamp(nanosecondsSinceEpoch: 1_790_000_000_000_000_000)

    func uplink(_ fCnt: UInt32) -> Uplink {
        Uplink(deviceID: "fake-1", devEUI: "0004A30B001C0501", fCnt: fCnt, receivedAt: now.adding(seconds: Double(fCnt)),
               receptions: [GatewayReception(gatewayID: "sim-gw-north", rssi: -103, snr: 7.5), GatewayReception(gatewayID: "sim-gw-east", rssi: -120, snr: -4)])
    }

    func attempt(_ id: Int64) -> CollectEvent {
        .attempt(node: "fake:1", id: id, fix: Fix(time: now, latitude: 40.67, longitude: -73.94, mode: .threeD, source: "fake"))
    }

    @Test func aSendHeardBeforeItsResultCountsAsHeard() {
        var stats = CollectionStats()
        for event: CollectEvent in [
            attempt(1), .heard(uplinkID: 10, uplink: uplink(0), attemptID: nil), .confirmed(node: "fake:1", id: 1, frameCounter: 0, linkCheck: nil),
            .joined(attempt: 1, uplink: 10),
        ] { stats.count(event) }
        #expect(stats.heard == 1 && stats.uplinks == 1 && stats.lossPercent == 0)
        #expect(stats.lastSuccess?.uplink.fCnt == 0 && stats.lastSuccess?.uplink.receptions.count == 2)
    }

    @Test func aSendHeardAfterItsResultCountsOnce() {
        var stats = CollectionStats()
        for event: CollectEvent in [
            attempt(2), .confirmed(node: "fake:1", id: 2, frameCounter: 1, linkCheck: nil), .joined(attempt: 2, uplink: 11),
            .heard(uplinkID: 11, uplink: uplink(1), attemptID: 2),
            attempt(3), .confirmed(node: "fake:1", id: 3, frameCounter: 2, linkCheck: nil),
        ] { stats.count(event) }
        #expect(stats.heard == 1 && stats.confirmed == 2 && stats.uplinks == 1)
        #expect(stats.lastSuccess?.uplink.fCnt == 1)
    }

    @Test func anUplinkOfNoAttemptIsNotAHeardAttempt() {
        var stats = CollectionStats()
        stats.count(.heard(uplinkID: 12, uplink: uplink(5), attemptID: nil))
        #expect(stats.heard == 0 && stats.uplinks == 1 && stats.lastSuccess == nil)
    }

    /// The last 256 unjoined uplinks are remembered for a late join; older ones are let go, so a
    /// listener's hours of uplinks do not pile up.
    @Test func aLateJoinFindsOneOfTheLast256UplinksOnly() {
        var stats = CollectionStats()
        for id in Int64(1)...300 { stats.count(.heard(uplinkID: id, uplink: uplink(UInt32(id)), attemptID: nil)) }
        stats.count(.joined(attempt: 1, uplink: 44))
        #expect(stats.heard == 1 && stats.lastSuccess == nil, "uplink 44 was one of the 44 let go")
        stats.count(.joined(attempt: 2, uplink: 45))
        #expect(stats.heard == 2 && stats.lastSuccess?.uplink.fCnt == 45)
        stats.count(.joined(attempt: 3, uplink: 300))
        #expect(stats.lastSuccess?.uplink.fCnt == 300)
        stats.count(.joined(attempt: 4, uplink: 45))
        #expect(stats.heard == 4 && stats.lastSuccess?.uplink.fCnt == 300, "a joined uplink is taken out")
    }
}
