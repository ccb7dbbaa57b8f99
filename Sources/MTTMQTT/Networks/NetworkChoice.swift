import MTTCore

/// A `--network` value: a registered network server, or the simulated network (`fake`) speaking
/// one (`fake?format=NAME`, The Things Stack's when not said).
public struct NetworkChoice: Sendable, CustomStringConvertible {
    public let server: NetworkServer
    public let simulated: Bool

    /// The forms `--network` takes, from the registry.
    public static var forms: String { "\(NetworkServer.namesText), or fake[?format=NAME]" }

    /// nil (not given) is The Things Stack.
    public init(parsing text: String?) throws(SpecError) {
        guard let text else {
            self.init(server: .standard, simulated: false)
            return
        }
        if text == "fake" || text.hasPrefix("fake?") {
            let options = text.dropFirst("fake".count)
            var server = NetworkServer.standard
            if !options.isEmpty {
                guard options.hasPrefix("?format="), let named = NetworkServer.named(String(options.dropFirst("?format=".count))) else {
                    throw SpecError("bad network \(text): the simulated network's one option is ?format=NAME, NAME \(NetworkServer.namesText)")
                }
                server = named
            }
            self.init(server: server, simulated: true)
            return
        }
        guard let server = NetworkServer.named(text) else {
            throw SpecError("unknown network \(text): use \(Self.forms)")
        }
        self.init(server: server, simulated: false)
    }

    init(server: NetworkServer, simulated: Bool) {
        self.server = server
        self.simulated = simulated
    }

    public var description: String {
        simulated ? (server == .standard ? "fake" : "fake?format=\(server.name)") : server.name
    }

    /// The format of the run's MQTT server at `host`.
    public func format(networkID given: String?, host: String) -> UplinkFormat {
        UplinkFormat(server: server, networkID: server.networkID(given, host) ?? "")
    }

    /// The topics of the subscription, on this network.
    public func topics(_ subscription: NetworkSubscription) throws(SpecError) -> [String] {
        try server.topics(subscription)
    }
}
