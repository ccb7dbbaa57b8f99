/// A frame an emulated node or modem put on the air.
public struct RadioFrame: Sendable, Hashable {
    public var payload: [UInt8]
    public var frameCounter: UInt32
    /// Nil when the emulator does not model it (the node's own setting applies).
    public var spreadingFactor: Int?

    public init(payload: [UInt8], frameCounter: UInt32, spreadingFactor: Int? = nil) {
        self.payload = payload
        self.frameCounter = frameCounter
        self.spreadingFactor = spreadingFactor
    }
}

/// The radio of an emulated node (BLE or serial), which the simulated network can hear.
public protocol EmulatedRadio: Sendable {
    /// Hands every frame the radio sends from now on to `hear`, which says what a link check sent
    /// with it would be answered (a modem that asked for one reports it).
    func whenTransmitting(_ hear: @escaping @Sendable (RadioFrame) -> LinkCheck) async
}

extension SimulatedUplinkFeed {
    /// Lets the simulated gateways hear `radio`, the emulator behind the node `name`: its uplinks
    /// carry the node's identity as the node reports it, and a device ID made from its name.
    public func hear(_ radio: any EmulatedRadio, node name: String, info: NodeInfo) async {
        let deviceID = name.replacingOccurrences(of: ":", with: "-")
        let devEUI = info.devEUI ?? "0000000000000000"
        let devAddr = info.devAddr ?? "00000000"
        let spreadingFactor = info.spreadingFactor ?? 7
        await radio.whenTransmitting { [self] frame in
            let heard = transmit(
                deviceID: deviceID, devEUI: devEUI, devAddr: devAddr, frameCounter: frame.frameCounter,
                spreadingFactor: frame.spreadingFactor ?? spreadingFactor, payload: frame.payload)
            return heard.map(network.linkCheck(answering:)) ?? .unanswered
        }
    }
}
