import MTTBluetooth
import MTTCore
import Testing

/// `--node` read through MTTBluetooth's kinds (the serial modems' are MTTSerialTests'): each spec
/// goes to its kind and reads back as mtt writes it.
@Suite("Node specs")
struct NodeSpecTests {
    static func spec(_ text: String) throws(SpecError) -> NodeSpec {
        try NodeSpec(parsing: text, kinds: NodeKind.mapTheThings)
    }

    @Test(arguments: [
        ("ble:auto", "ble", "ble:auto"),
        ("ble:f1:e2:d3:c4:b5:a6", "ble", "ble:F1:E2:D3:C4:B5:A6"),
        // A Raspberry Pi's public address starts DC: without the type it would be taken as random.
        ("ble:DC:A6:32:01:02:03?type=public", "ble", "ble:DC:A6:32:01:02:03?type=public"),
        ("ble:00:aa:01:01:00:01?type=random", "ble", "ble:00:AA:01:01:00:01?type=random"),
        ("unix:/tmp/node.sock", "unix", "unix:/tmp/node.sock"),
        ("fake", "fake", "fake"),
        ("fake:3", "fake", "fake:3"),
        ("fake?fail=0.2", "fake", "fake?fail=0.2"),
        ("fake:2?airtime=1.5&fail=1", "fake", "fake:2?airtime=1.5&fail=1"),
    ])
    func readsByItsKind(text: String, kind: String, readsBack: String) throws {
        let spec = try Self.spec(text)
        #expect(spec.kind.name == kind)
        #expect(spec.description == readsBack)
        // And reads back as written.
        #expect(try Self.spec(spec.description).description == readsBack)
    }

    @Test(arguments: ["", "ble:", "ble:11:22:33", "ble:GG:22:33:44:55:66", "ble:00:AA:01:01:00:01?type=static", "ble:00:AA:01:01:00:01?", "unix:", "fake:0", "fake:99", "lora", "fake?fail=2", "fake?loss=0.1", "fake:0?fail=0.1", "fake?airtime=x"])
    func refuses(text: String) {
        #expect(throws: SpecError.self) { try Self.spec(text) }
    }

    @Test func whatIsEmulatedIsSaidSo() {
        #expect(NodeKind.mapTheThings.map { $0.simulatedAs ?? "-" } == ["-", "emulated node (unix:)", "fake node"])
        #expect(NodeKind.mapTheThings.filter(\.followsTheRunClock).map(\.name) == ["fake"])
    }

    @Test func aFakeSpecOpensItsNodesEachReachableAgain() async throws {
        let opened = try await Self.spec("fake:2").open()
        #expect(opened.map(\.link.name) == ["fake:1", "fake:2"])
        #expect(opened.allSatisfy { $0.radio != nil && $0.connector.longestRetryWait == 1 })
        for node in opened { await node.link.close() }
    }

    @Test func anAddressWithItsTopBitsSetIsTakenAsRandomStatic() {
        #expect(BLEAddressType.guess("C0:11:22:33:44:55") == .random)
        #expect(BLEAddressType.guess("F1:E2:D3:C4:B5:A6") == .random)
        #expect(BLEAddressType.guess("00:AA:01:01:00:01") == .public)
        #expect(BLEAddressType.guess("BF:00:00:00:00:00") == .public)
    }
}
