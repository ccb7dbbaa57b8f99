import MTTCore

extension NetworkServer {
    /// The Things Stack (The Things Network, a private TTS): `v3/USER/devices/ID/up`, its JSON.
    public static let theThingsStack = NetworkServer(
        name: "tts",
        help: "The Things Stack (The Things Network, private servers; the default), devices by their IDs",
        topics: { subscription throws(SpecError) in
            guard !subscription.devices.isEmpty else {
                throw SpecError("give --device ID for each device to hear (or --device + for all of the application's)")
            }
            return try TTNTopics.uplinks(username: subscription.username ?? TTNUplinkPublisher.demoUsername, devices: subscription.devices)
        },
        decode: { _, payload, _ throws(UplinkDecodeError) in try UplinkDecoder.decode(payload) },
        encode: { uplink, username in (TTNTopics.uplink(username: username, device: uplink.deviceID), UplinkEncoder.json(uplink)) },
        networkID: { _, _ in nil })
}
