/// How a network's MQTT server writes its uplinks: The Things Stack's JSON, or ChirpStack v4's
/// events, which name no network (the id every uplink carries comes with the choice).
public enum UplinkFormat: Sendable, Hashable {
    case theThingsStack
    case chirpStack(networkID: String)

    /// One message, by its topic and payload.
    func decode(topic: String, _ payload: [UInt8]) throws(UplinkDecodeError) -> UplinkDecoding {
        switch self {
        case .theThingsStack: try UplinkDecoder.decode(payload)
        case .chirpStack(let networkID): try ChirpStackDecoder.decode(topic: topic, payload, networkID: networkID)
        }
    }
}
