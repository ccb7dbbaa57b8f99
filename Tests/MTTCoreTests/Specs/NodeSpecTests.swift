import MTTCore
import Testing

@Suite("Node specs")
struct NodeSpecTests {
    @Test(arguments: [
        ("ble:auto", NodeSpec.ble(address: nil)),
        ("ble:f1:e2:d3:c4:b5:a6", .ble(address: "F1:E2:D3:C4:B5:A6")),
        // A Raspberry Pi's public address starts DC: without the type it would be taken as random.
        ("ble:DC:A6:32:01:02:03?type=public", .ble(address: "DC:A6:32:01:02:03", type: .public)),
        ("ble:00:aa:01:01:00:01?type=random", .ble(address: "00:AA:01:01:00:01", type: .random)),
        ("serial:/dev/ttyUSB0?modem=rn2483", .serial("serial:/dev/ttyUSB0?modem=rn2483")),
        ("unix:/tmp/node.sock", .unix(path: "/tmp/node.sock")),
        ("fake", .fake(count: 1)),
        ("fake:3", .fake(count: 3)),
        ("fake?fail=0.2", .fake(count: 1, options: EmulatorOptions(failures: 0.2))),
        ("fake:2?airtime=1.5&fail=1", .fake(count: 2, options: EmulatorOptions(airtime: 1.5, failures: 1))),
        ("fake-rn2483", .fakeModem(kind: "rn2483")),
        ("fake-rui3", .fakeModem(kind: "rui3")),
    ])
    func parses(text: String, expected: NodeSpec) throws {
        #expect(try NodeSpec(parsing: text) == expected)
        // And reads back as written.
        #expect(try NodeSpec(parsing: expected.description) == expected)
    }

    @Test(arguments: ["", "ble:", "ble:11:22:33", "ble:GG:22:33:44:55:66", "ble:00:AA:01:01:00:01?type=static", "ble:00:AA:01:01:00:01?", "unix:", "fake:0", "fake:99", "lora", "fake-", "fake-rn 2483", "fake?fail=2", "fake?loss=0.1", "fake:0?fail=0.1", "fake?airtime=x"])
    func refuses(text: String) {
        #expect(throws: SpecError.self) { try NodeSpec(parsing: text) }
    }

    @Test func anAddressWithItsTopBitsSetIsTakenAsRandomStatic() {
        #expect(BLEAddressType.guess("C0:11:22:33:44:55") == .random)
        #expect(BLEAddressType.guess("F1:E2:D3:C4:B5:A6") == .random)
        #expect(BLEAddressType.guess("00:AA:01:01:00:01") == .public)
        #expect(BLEAddressType.guess("BF:00:00:00:00:00") == .public)
    }
}
