import MTTCore
import Testing

@Suite("Node specs")
struct NodeSpecTests {
    @Test(arguments: [
        ("ble:auto", NodeSpec.ble(address: nil)),
        ("ble:f1:e2:d3:c4:b5:a6", .ble(address: "F1:E2:D3:C4:B5:A6")),
        ("serial:/dev/ttyUSB0?modem=rn2483", .serial("serial:/dev/ttyUSB0?modem=rn2483")),
        ("unix:/tmp/node.sock", .unix(path: "/tmp/node.sock")),
        ("fake", .fake(count: 1)),
        ("fake:3", .fake(count: 3)),
        ("fake-rn2483", .fakeModem(kind: "rn2483")),
        ("fake-rui3", .fakeModem(kind: "rui3")),
    ])
    func parses(text: String, expected: NodeSpec) throws {
        #expect(try NodeSpec(parsing: text) == expected)
    }

    @Test(arguments: ["", "ble:", "ble:11:22:33", "ble:GG:22:33:44:55:66", "unix:", "fake:0", "fake:99", "lora", "fake-", "fake-rn 2483"])
    func refuses(text: String) {
        #expect(throws: SpecError.self) { try NodeSpec(parsing: text) }
    }
}
