import ArgumentParser
import Foundation
import MTTConfigFile
import MTTCore

/// `--config FILE`: the configuration file under the environment and the command line.
struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp(
        "A TOML configuration file (default: $XDG_CONFIG_HOME/mtt/config.toml when it exists; /etc/mtt/config.toml for the service). The environment and the command line override it.",
        valueName: "file"))
    var file: String?

    /// The file in effect: the one named, else the user's default when it exists.
    var path: String? {
        if let file { return file }
        let fallback = XDGDirectories.configHome() + "/mtt/config.toml"
        return FileManager.default.fileExists(atPath: fallback) ? fallback : nil
    }

    /// The settings, layered: the file, the environment, `flags`.
    func resolve(flags: [ConfigKey: ConfigValue]) throws -> Config {
        do {
            let document = try path.map { try TOMLConfigFile.read($0) }
            return try Config.resolve(file: document, environment: ProcessInfo.processInfo.environment, flags: flags)
        } catch let error as ConfigError {
            // A flag's value is a usage error (64), named as the flag is written.
            if case .flag = error.place { throw ValidationError("\(Self.flag(for: error.key)) \(error.message)") }
            throw RuntimeFailure("\(error)")
        }
    }

    /// The option a setting has on the command line: `collect.mqtt_url` → `--mqtt-url`.
    static func flag(for key: String) -> String {
        switch key {
        case "db.path": "--db"
        case "collect.nodes": "--node"
        case "collect.devices": "--device"
        default: "--" + (key.split(separator: ".").last.map(String.init) ?? key).replacingOccurrences(of: "_", with: "-")
        }
    }
}
