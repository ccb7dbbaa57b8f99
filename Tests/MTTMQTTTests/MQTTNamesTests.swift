import MTTCore
import MTTMQTT
import Testing

@Suite("MQTT URLs and TTN topics")
struct MQTTNamesTests {
    @Test func urls() throws {
        #expect(try MQTTEndpoint(parsing: "mqtts://eu1.cloud.thethings.network") == MQTTEndpoint(host: "eu1.cloud.thethings.network", port: 8883, usesTLS: true))
        #expect(try MQTTEndpoint(parsing: "mqtt://127.0.0.1:18830") == MQTTEndpoint(host: "127.0.0.1", port: 18830, usesTLS: false))
        #expect(try MQTTEndpoint(parsing: "mqtt://broker") == MQTTEndpoint(host: "broker", port: 1883, usesTLS: false))
        for bad in ["http://x", "mqtt://", "mqtt://:1883", "mqtt://h:0", "mqtts://h:x", "eu1.cloud.thethings.network"] {
            #expect(throws: SpecError.self) { try MQTTEndpoint(parsing: bad) }
        }
    }

    @Test func topicsForDevices() throws {
        #expect(try TTNTopics.uplinks(username: "my-mapper@ttn", devices: ["node-1", "+"]) ==
            ["v3/my-mapper@ttn/devices/node-1/up", "v3/my-mapper@ttn/devices/+/up"])
        #expect(throws: SpecError.self) { try TTNTopics.uplinks(username: "a@ttn", devices: ["#"]) }
        #expect(throws: SpecError.self) { try TTNTopics.uplinks(username: "a@ttn", devices: ["Node_1"]) }
        #expect(throws: SpecError.self) { try TTNTopics.uplinks(username: "a/b", devices: ["n1"]) }
        #expect(throws: SpecError.self) { try TTNTopics.uplinks(username: "a@ttn", devices: []) }
    }

    @Test func passwordNeverInTheDescription() {
        let settings = MQTTSettings(endpoint: MQTTEndpoint(host: "h", port: 1, usesTLS: true), username: "app@ttn", password: "NNSXS.SECRET")
        #expect(!settings.description.contains("NNSXS"))
        #expect(settings.description == "app@ttn@mqtts://h:1")
    }

    @Test func linkedLibmosquittoIsVersionTwo() {
        #expect(MosquittoLibrary.version.major == 2, "linked libmosquitto \(MosquittoLibrary.version)")
    }
}
