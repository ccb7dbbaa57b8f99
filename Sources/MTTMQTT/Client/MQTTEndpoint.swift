import MTTCore

/// An MQTT server from `--mqtt-url`: `mqtt://HOST[:1883]` plain, `mqtts://HOST[:8883]` TLS.
public struct MQTTEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var usesTLS: Bool

    public init(host: String, port: Int, usesTLS: Bool) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
    }

    public init(parsing text: String) throws(SpecError) {
        let tls: Bool
        let rest: Substring
        if text.hasPrefix("mqtts://") {
            tls = true
            rest = text.dropFirst("mqtts://".count)
        } else if text.hasPrefix("mqtt://") {
            tls = false
            rest = text.dropFirst("mqtt://".count)
        } else {
            throw SpecError("bad MQTT URL \(text): use mqtt://HOST:1883 or mqtts://HOST:8883")
        }
        let authority = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0]
        do {
            let address = try HostPort(parsing: authority, defaultPort: tls ? 8883 : 1883)
            self.init(host: address.host, port: address.port, usesTLS: tls)
        } catch {
            throw SpecError("bad MQTT URL \(text): \(error)")
        }
    }

    public var description: String { "\(usesTLS ? "mqtts" : "mqtt")://\(HostPort(host: host, port: port))" }
}
