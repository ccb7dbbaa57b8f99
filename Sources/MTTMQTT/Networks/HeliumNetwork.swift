import MTTCore

extension NetworkServer {
    /// Helium's LoRaWAN network servers: ChirpStack v4 since 2023, so its topics and events, with
    /// Helium's network id (TTN Mapper's NS_HELIUM://000024) on every sample unless another is given.
    public static let helium = NetworkServer(
        name: "helium",
        help: "the Helium network (ChirpStack v4 under Helium's network id), an application's devices by their DevEUIs",
        deviceName: NetworkServer.chirpStack.deviceName, application: NetworkServer.chirpStack.application,
        topics: NetworkServer.chirpStack.topics,
        decode: NetworkServer.chirpStack.decode,
        encode: NetworkServer.chirpStack.encode,
        speaksMQTT5: NetworkServer.chirpStack.speaksMQTT5,
        networkID: { given, host in given.map { NetworkServer.chirpStack.networkID($0, host) } ?? "NS_HELIUM://000024" },
        downlink: NetworkServer.chirpStack.downlink,
        downlinkTopics: NetworkServer.chirpStack.downlinkTopics,
        decodeDownlink: NetworkServer.chirpStack.decodeDownlink)
}
