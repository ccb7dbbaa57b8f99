import FoundationEssentials
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
        speaksMQTT5: false,
        networkID: { _, _ in nil },
        downlink: { downlink, username, replace in
            // HIGH: the reply must make the receive windows of the tester's next uplink.
            let body = #"{"downlinks":[{"f_port":\#(downlink.fPort),"frm_payload":"\#(Data(downlink.payload).base64EncodedString())","priority":"HIGH"}]}"#
            return ("v3/\(username)/devices/\(downlink.deviceID)/down/\(replace ? "replace" : "push")", Array(body.utf8))
        },
        downlinkTopics: { username in ["v3/\(username)/devices/+/down/replace", "v3/\(username)/devices/+/down/push"] },
        decodeDownlink: { topic, payload in
            struct Message: Decodable {
                struct Item: Decodable {
                    var f_port: Int
                    var frm_payload: String?
                }
                var downlinks: [Item]
            }
            let parts = topic.split(separator: "/")
            guard parts.count == 6, let item = (try? JSONDecoder().decode(Message.self, from: Data(payload)))?.downlinks.first else { return nil }
            return Downlink(
                deviceID: String(parts[3]), devEUI: nil, applicationID: nil, fPort: item.f_port,
                payload: item.frm_payload.flatMap(Base64.decode) ?? [])
        })
}
