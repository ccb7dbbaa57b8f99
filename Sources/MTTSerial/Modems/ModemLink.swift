import MTTCore

/// A serial LoRaWAN modem: a node that can also be provisioned and told to join.
public protocol ModemLink: NodeLink {
    /// Starts an OTAA join and waits for the answer: true when the network accepted.
    func joinOTAA() async throws -> Bool
    /// Writes OTAA keys, given as the TTN console shows them.
    func provisionOTAA(devEUI: String, joinEUI: String, appKey: String) async throws
}

extension ModemLink {
    /// Writes the keys; a modem joins when told (`join()`).
    public func provision(devEUI: String, joinEUI: String, appKey: String) async throws -> Bool? {
        try await provisionOTAA(devEUI: devEUI, joinEUI: joinEUI, appKey: appKey)
        return nil
    }
}

extension RN2483Link: ModemLink {}
extension RUI3Link: ModemLink {}

public enum ModemLinks {
    /// Opens the device a `serial:` spec names with the driver for its command set.
    public static func open(_ spec: SerialNodeSpec, timeouts: ModemTimeouts = ModemTimeouts()) async throws -> any ModemLink {
        try await spec.modem.open(spec, timeouts)
    }
}
