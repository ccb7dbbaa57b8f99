import MTTCore
import TestSupport
import Testing

@Suite("Store: the stored events replayed")
struct StoredEventReplayTests {
    let dir = TemporaryDirectory()

    /// A stored event keeps its time to the millisecond (its JSON's), an uplink's `heard` to the
    /// nanosecond: one of each in the same millisecond comes back in the order of the times they
    /// carry (pair 5 of issue 46 saw a node_lost after a heard it preceded by 0.1 ms).
    @Test func anEventAndAnUplinkInTheSameMillisecondComeBackInTimeOrder() throws {
        let store = try Store(path: dir.file("events.sqlite"))
        let session = try store.sessions.startSession(mode: .active, SessionDescription(gps: "fixed"))
        let millisecond: Int64 = 1_795_853_464_882_000_000
        try store.records.record(Uplink(deviceID: "node-1", receivedAt: Timestamp(nanosecondsSinceEpoch: millisecond + 103_743)), session: session)
        var lost = FieldEvent(.nodeLost, at: Timestamp(nanosecondsSinceEpoch: millisecond + 500_000), session: session)
        lost.node = "node-1"
        try store.records.recordEvents([lost])

        var replayed: [FieldEvent] = []
        try store.records.forEachEvent(session: session) { replayed.append($0) }
        #expect(replayed.map(\.type) == [.nodeLost, .heard])
        #expect(replayed.map(\.time) == replayed.map(\.time).sorted(), "\(replayed.map(\.time.nanosecondsSinceEpoch))")
    }
}
