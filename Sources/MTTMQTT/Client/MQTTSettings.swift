/// How to reach and log in to an MQTT server. The password never appears in `description`.
public struct MQTTSettings: Sendable, CustomStringConvertible {
    public var endpoint: MQTTEndpoint
    public var username: String?
    public var password: String?
    /// A CA certificate file for a private CA; nil trusts the system's CA store.
    public var caFile: String?
    public var clientID: String
    /// Seconds between keep-alive pings.
    public var keepAlive: Int
    /// Reconnect delays in whole seconds (libmosquitto's unit), doubling from the first to the second.
    public var reconnectDelay: ClosedRange<Int>

    public init(
        endpoint: MQTTEndpoint, username: String? = nil, password: String? = nil, caFile: String? = nil,
        clientID: String = "mtt-\(UInt32.random(in: 0...UInt32.max))", keepAlive: Int = 60,
        reconnectDelay: ClosedRange<Int> = 1...30
    ) {
        self.endpoint = endpoint
        self.username = username
        self.password = password
        self.caFile = caFile
        self.clientID = clientID
        self.keepAlive = keepAlive
        self.reconnectDelay = reconnectDelay
    }

    public var description: String {
        "\(username.map { "\($0)@" } ?? "")\(endpoint)"
    }
}

/// What the MQTT connection reports.
public enum MQTTEvent: Sendable, Hashable {
    /// Connected and subscribed (again, after a loss).
    case connected
    /// A message, its topic and payload copied out of libmosquitto's buffers.
    case message(topic: String, payload: [UInt8])
    /// The connection dropped or could not be made; the session keeps retrying.
    case lost(reason: String)
    /// The server refused the credentials: retrying cannot help, the stream ends.
    case failed(reason: String)
}
