import MTTCore

extension NetworkServer {
    /// The Things Stack (The Things Network, a private TTS): `v3/USER/devices/ID/up`, its JSON.
    public static let theThingsStack = NetworkServer(
        name: "tts",
        help: "The Things Stack (The Things Network, private servers; the default), devices by their IDs",
        deviceName: "ID", application: nil,
        topics: { subscription throws(SpecError) in
            try TTNTopics.uplinks(username: subscription.username ?? TTNUplinkPublisher.demoUsername, devices: subscription.devices)
        },
        decode: { _, payload, _ throws(UplinkDecodeError) in try UplinkDecoder.decode(payload) },
        encode: { uplink, username in (TTNTopics.uplink(username: username, device: uplink.deviceID), UplinkEncoder.json(uplink)) },
        networkID: { _, _ in nil })
}
