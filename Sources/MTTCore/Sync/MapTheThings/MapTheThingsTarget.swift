import FoundationEssentials

extension SyncTarget {
    /// MapTheThings: confirmed attempts to its `/api/v0/transmissions`; listener samples and matching
    /// tracks to `/api/v0/samples` and `/api/v0/tracks` on servers that have them.
    public static let mapthethings: SyncTarget = SyncTarget(
        name: "mapthethings", displayName: "MapTheThings",
        help: """
            confirmed active-mode attempts to /api/v0/transmissions; listener samples and matching tracks \
            to /api/v0/samples and /api/v0/tracks on servers that have them (default server \
            \(MapTheThingsDestination.defaultBaseURL.absoluteString)). Credentials: \
            \(MapTheThingsLogin.variables.joined(separator: ", ")), or a file (sync.credentials_file, \
            default ~/.config/mtt/mapthethings, mode 600) with lines user = NAME, token = TOKEN, secret = SECRET.
            """,
        queues: [.confirmedAttempts, .listenerSamples, .matchingTrackPoints],
        publicURL: MapTheThingsDestination.defaultBaseURL,
        prepare: { context in
            let queued = try context.store.sync.syncQueueCount(.mapthethings, scope: context.policy.scope)
            guard queued > 0 else { return nil }
            guard let login = try MapTheThingsLogin.load(file: context.settings.text(.syncCredentialsFile), secrets: context.secrets) else {
                throw SyncTargetProblem("\(queued) record(s) wait for MapTheThings but there are no credentials: \(MapTheThingsLogin.howToSet)")
            }
            let destination = MapTheThingsDestination(
                baseURL: context.url ?? MapTheThingsDestination.defaultBaseURL, credentials: login, databaseID: try context.store.databaseID())
            return Uploader(store: context.store, destination: destination, transport: try context.transports.http(), policy: context.policy)
        })
}

/// Where MapTheThings credentials come from: the environment, else a file only its owner can read.
/// They never come from the command line and never reach a log.
public enum MapTheThingsLogin {
    public static let variables = ["MTT_MAPTHETHINGS_USER", "MTT_MAPTHETHINGS_TOKEN", "MTT_MAPTHETHINGS_SECRET"]

    /// `$XDG_CONFIG_HOME/mtt/mapthethings` (~/.config/mtt/mapthethings).
    public static var defaultFile: String {
        XDGDirectories.configHome() + "/mtt/mapthethings"
    }

    public static var howToSet: String {
        "set \(variables.joined(separator: ", ")) or write user = …, token = …, secret = … to \(defaultFile) (chmod 600)"
    }

    /// The credentials, or nil when neither the variables nor a file give any.
    public static func load(file explicitFile: String?, secrets: SecretReader) throws -> MapTheThingsCredentials? {
        let values = variables.map(secrets.environment)
        if explicitFile == nil {
            if let user = values[0], let token = values[1], let secret = values[2] {
                return MapTheThingsCredentials(user: user, token: token, secret: secret)
            }
            if values.contains(where: { $0 != nil }) {
                let missing = zip(variables, values).filter { $0.1 == nil }.map(\.0)
                throw SyncTargetProblem("MapTheThings credentials: \(missing.joined(separator: ", ")) not set (all three are needed)")
            }
        }
        let file = explicitFile ?? defaultFile
        if explicitFile == nil && !FileManager.default.fileExists(atPath: file) { return nil }
        let text = try secrets.file(file, "MapTheThings credentials")
        do {
            return try MapTheThingsCredentials(parsing: text)
        } catch {
            throw SyncTargetProblem("\(file): \(error)")
        }
    }
}
