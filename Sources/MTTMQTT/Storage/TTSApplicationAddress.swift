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

    /// What a session does not say about where its uplinks are stored.
    public enum Unknown: Error, Sendable, Equatable {
        /// No MQTT server to find the cluster by.
        case cluster(session: Int64)
        /// No MQTT user to find the application by.
        case application(session: Int64)
    }

    /// Where a session's uplinks are stored: the cluster and application given, else those of the
    /// session's own MQTT settings, else those of the newest session that has them.
    /// - Parameter known: the other sessions, newest first.
    public static func of(_ session: StoredSession, known: [StoredSession], cluster: URL?, application: String?) throws(Unknown) -> TTSApplicationAddress {
        let described = [session.description] + known.map(\.description)
        guard let cluster = cluster ?? described.lazy.compactMap({ $0.mqttURL.flatMap(Self.cluster(ofMQTT:)) }).first else {
            throw .cluster(session: session.id)
        }
        guard let application = application ?? described.lazy.compactMap({ $0.mqttUser.flatMap(Self.application(ofMQTTUser:)) }).first else {
            throw .application(session: session.id)
        }
        return TTSApplicationAddress(cluster: cluster, application: application)
    }
}
