import Foundation
import MTTCore

/// Where `mtt sync` finds the MapTheThings credentials: the environment, else a file only its owner
/// can read. They never come from the command line and never reach a log.
enum MapTheThingsLogin {
    static let variables = ["MTT_MAPTHETHINGS_USER", "MTT_MAPTHETHINGS_TOKEN", "MTT_MAPTHETHINGS_SECRET"]

    /// `$XDG_CONFIG_HOME/mtt/mapthethings` (~/.config/mtt/mapthethings).
    static var defaultFile: String {
        XDGDirectories.configHome() + "/mtt/mapthethings"
    }

    static var howToSet: String {
        "set \(variables.joined(separator: ", ")) or write user = …, token = …, secret = … to \(defaultFile) (chmod 600)"
    }

    /// The credentials, or nil when neither the variables nor a file give any.
    static func load(file explicitFile: String?) throws -> MapTheThingsCredentials? {
        let values = variables.map(SecretInput.environment)
        if explicitFile == nil {
            if let user = values[0], let token = values[1], let secret = values[2] {
                return MapTheThingsCredentials(user: user, token: token, secret: secret)
            }
            if values.contains(where: { $0 != nil }) {
                let missing = zip(variables, values).filter { $0.1 == nil }.map(\.0)
                throw RuntimeFailure("MapTheThings credentials: \(missing.joined(separator: ", ")) not set (all three are needed)")
            }
        }
        let file = explicitFile ?? defaultFile
        if explicitFile == nil && !FileManager.default.fileExists(atPath: file) { return nil }
        let text = try SecretInput.contents(of: file, what: "MapTheThings credentials")
        do {
            return try MapTheThingsCredentials(parsing: text)
        } catch {
            throw RuntimeFailure("\(file): \(error)")
        }
    }
}
