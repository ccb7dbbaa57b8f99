import FoundationEssentials
import Glibc
import MTTCore

/// Where an application's stored uplinks are: its cluster's HTTP(S) address and its ID, given
/// directly or derived from the MQTT settings a session was run with (`mqtts://eu1.cloud.…:8883`
/// → `https://eu1.cloud.…`, user `my-app@ttn` → `my-app`).
public struct TTSApplicationAddress: Sendable, Hashable, CustomStringConvertible {
    public var cluster: URL
    public var application: String

    public init(cluster: URL, application: String) {
        self.cluster = cluster
        self.application = application
    }

    /// The cluster of an MQTT server: the same host, HTTPS for mqtts:// (HTTP for a plain one, a
    /// local stack), on the default port.
    public static func cluster(ofMQTT url: String) -> URL? {
        guard let endpoint = try? MQTTEndpoint(parsing: url) else { return nil }
        return URL(string: "\(endpoint.usesTLS ? "https" : "http")://\(HostPort(host: endpoint.host, port: 0).bracketedHost)")
    }

    /// The application of an MQTT user `APP_ID@TENANT`.
    public static func application(ofMQTTUser user: String) -> String? {
        let id = user.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        return id.isEmpty ? nil : id
    }

    public var description: String { "\(application) on \(cluster.host ?? cluster.absoluteString)" }
}
