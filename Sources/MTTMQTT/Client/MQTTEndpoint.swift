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
        let hostPort = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let pieces = hostPort.split(separator: ":", omittingEmptySubsequences: false)
        guard !hostPort.isEmpty, pieces.count <= 2, !pieces[0].isEmpty else {
            throw SpecError("bad MQTT URL \(text): no host")
        }
        var port = tls ? 8883 : 1883
        if pieces.count == 2 {
            guard let p = Int(pieces[1]), (1...65535).contains(p) else {
                throw SpecError("bad MQTT URL \(text): the port must be 1 to 65535")
            }
            port = p
        }
        self.init(host: String(pieces[0]), port: port, usesTLS: tls)
    }

    public var description: String { "\(usesTLS ? "mqtts" : "mqtt")://\(host):\(port)" }
}
