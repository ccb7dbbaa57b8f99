import MTTCore

/// A `--network` value: a registered network server, or the simulated network (`fake`) speaking
/// one (`fake?format=NAME`, The Things Stack's when not said).
public struct NetworkChoice: Sendable, CustomStringConvertible {
    public let server: NetworkServer
    public let simulated: Bool
    /// Simulated trackers the simulated network also hears (`fake?trackers=N`).
    public private(set) var trackers = 0
    /// Simulated field testers it hears, which wait for their replies (`fake?testers=N`).
    public private(set) var testers = 0

    /// The most simulated trackers one run drives.
    public static let mostTrackers = 10_000

    /// The forms `--network` takes, from the registry.
    public static var forms: String { "\(NetworkServer.namesText), or fake[?format=NAME][&trackers=N][&testers=N]" }

    /// nil (not given) is The Things Stack.
    public init(parsing text: String?) throws(SpecError) {
        guard let text else {
            self.init(server: .standard, simulated: false)
            return
        }
        if text == "fake" || text.hasPrefix("fake?") {
            let options = text.dropFirst("fake?".count).split(separator: "&", omittingEmptySubsequences: false)
            let usage = "the simulated network's options are format=NAME (NAME \(NetworkServer.namesText)), trackers=N (1 to \(Self.mostTrackers)) and testers=N (field testers, 1 to 100), e.g. fake?format=chirpstack&trackers=20"
            var server = NetworkServer.standard
            var trackers = 0, testers = 0
            for option in options where text != "fake" {
                let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
                switch (parts.first, parts.count) {
                case ("format"?, 2):
                    guard let named = NetworkServer.named(parts[1]) else { throw SpecError("bad network \(text): \(usage)") }
                    server = named
                case ("trackers"?, 2):
                    guard let n = Int(parts[1]), (1...Self.mostTrackers).contains(n) else { throw SpecError("bad network \(text): \(usage)") }
                    trackers = n
                case ("testers"?, 2):
                    guard let n = Int(parts[1]), (1...100).contains(n) else { throw SpecError("bad network \(text): \(usage)") }
                    testers = n
                default:
                    throw SpecError("bad network \(text): \(usage)")
                }
            }
            self.init(server: server, simulated: true)
            self.trackers = trackers
            self.testers = testers
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
        guard simulated else { return server.name }
        let options = (server == .standard ? [] : ["format=\(server.name)"]) + (trackers > 0 ? ["trackers=\(trackers)"] : [])
            + (testers > 0 ? ["testers=\(testers)"] : [])
        return options.isEmpty ? "fake" : "fake?" + options.joined(separator: "&")
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
