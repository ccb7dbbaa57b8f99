import FoundationEssentials
import MTTCore

extension NetworkServer {
    /// ChirpStack v4 (and Helium, which runs it): `application/APP/device/DEV_EUI/event/up`, its
    /// JSON events, which name no network.
    public static let chirpStack = NetworkServer(
        name: "chirpstack",
        help: "ChirpStack v4, an application's devices by their DevEUIs",
        deviceName: "DEV_EUI", application: "the ChirpStack application (a UUID, on its console)",
        topics: { subscription throws(SpecError) in
            guard let application = subscription.application ?? (subscription.simulated ? ChirpStackTopics.demoApplication : nil) else {
                throw SpecError("no application to hear: the ChirpStack application's ID (a UUID, on its console), or + for all")
            }
            return try ChirpStackTopics.uplinks(application: application, devices: subscription.devices)
        },
        decode: { topic, payload, networkID throws(UplinkDecodeError) in try ChirpStackDecoder.decode(topic: topic, payload, networkID: networkID) },
        encode: { uplink, _ in
            let application = ChirpStackTopics.demoApplication
            return (
                ChirpStackTopics.uplink(application: application, devEUI: uplink.devEUI ?? "0000000000000000"),
                ChirpStackEncoder.json(uplink, applicationID: application))
        },
        speaksMQTT5: true,
        networkID: { given, host in
            // As given (NS_HELIUM://000024), a host given bare as NS_CHIRP://HOST, else the MQTT server's host.
            guard let given else { return "NS_CHIRP://" + host }
            return given.contains("://") ? given : "NS_CHIRP://" + given
        },
        downlink: { downlink, _, _ in
            // ChirpStack queues every downlink; its uplink events name the application.
            let devEUI = (downlink.devEUI ?? "").lowercased()
            let body = #"{"devEui":"\#(devEUI)","confirmed":false,"fPort":\#(downlink.fPort),"data":"\#(Data(downlink.payload).base64EncodedString())"}"#
            let application = downlink.applicationID ?? ChirpStackTopics.demoApplication
            return ("application/\(application)/device/\(devEUI)/command/down", Array(body.utf8))
        },
        downlinkTopics: { _ in ["application/+/device/+/command/down"] },
        decodeDownlink: { topic, payload in
            struct Message: Decodable {
                var devEui: String
                var fPort: Int
                var data: String?
            }
            let parts = topic.split(separator: "/")
            guard parts.count == 6, let message = try? JSONDecoder().decode(Message.self, from: Data(payload)) else { return nil }
            return Downlink(
                deviceID: message.devEui, devEUI: message.devEui.uppercased(), applicationID: String(parts[1]), fPort: message.fPort,
                payload: message.data.flatMap(Base64.decode) ?? [])
        })
}
