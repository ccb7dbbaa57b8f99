import MTTCore

extension NodeKind {
    /// `ble:AA:BB:CC:DD:EE:FF[?type=public|random]` or `ble:auto` (the first MapTheThings node
    /// heard): a node over Bluetooth LE. Without a type, an address starting C0 to FF is taken as
    /// random static (as the node's nRF51 uses), anything else as public.
    public static let ble = NodeKind(name: "ble", form: "ble:AA:BB:CC:DD:EE:FF[?type=public|random], ble:auto") { text throws(SpecError) in
        if text == "ble:auto" {
            return NodeRecipe(description: text) { opening in [try await openFirstHeard(within: opening.scanSeconds)] }
        }
        let (address, type) = try BLENodeAddress.read(text)
        let spec = BLENodeAddress.spec(address: address, type: type)
        return NodeRecipe(description: spec) { _ in [try await open(address: address, type: type, name: spec)] }
    }

    private static func open(address: String, type: BLEAddressType?, name: String) async throws -> OpenedNode {
        let bearer = try BlueZ.connectATT(address: address, type: type)
        let node = try await MapTheThingsNode.connect(bearer: bearer, name: name, firstAnswerTimeout: BlueZ.firstAnswerTimeout)
        // A page scan and the air each time: at most every 30 s.
        return OpenedNode(link: node, connector: ReopeningConnector(name: name, longestRetryWait: 30) {
            try await open(address: address, type: type, name: name).link
        })
    }

    /// The first node heard: waiting out the scan for a stronger one would cost seconds on every
    /// start. After a loss, that node is reached again, and no other nearer one by then.
    private static func openFirstHeard(within seconds: Double) async throws -> OpenedNode {
        let nodes = try await BlueZ.scan(seconds: seconds, until: { $0.advertisement.isMapTheThingsNode }).filter(\.advertisement.isMapTheThingsNode)
        guard let found = nodes.first else { throw BluetoothError.noNodeAdvertised(seconds: seconds) }
        return try await open(address: found.address, type: found.bleAddressType, name: BLENodeAddress.spec(address: found.address, type: found.typeIfNotGuessed))
    }
}

/// A BLE node's address as `--node` writes it.
public enum BLENodeAddress {
    /// `ble:ADDRESS[?type=…]` of a device found or advertised.
    public static func spec(address: String, type: BLEAddressType?) -> String {
        "ble:\(address)" + (type.map { "?type=\($0.rawValue)" } ?? "")
    }

    static func read(_ text: String) throws(SpecError) -> (address: String, type: BLEAddressType?) {
        let parts = text.dropFirst(4).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var type: BLEAddressType?
        if parts.count == 2 {
            guard parts[1].hasPrefix("type="), let named = BLEAddressType(rawValue: String(parts[1].dropFirst(5))) else {
                throw SpecError("bad node spec \(text): the address type is ?type=public or ?type=random")
            }
            type = named
        }
        let address = String(parts.first ?? "").uppercased()
        let octets = address.split(separator: ":", omittingEmptySubsequences: false)
        guard octets.count == 6, octets.allSatisfy({ $0.count == 2 && Hex.bytes(String($0)) != nil }) else {
            throw SpecError("bad node spec \(text): a BLE address is six hex pairs, e.g. ble:F1:E2:D3:C4:B5:A6, or ble:auto")
        }
        return (address, type)
    }
}
