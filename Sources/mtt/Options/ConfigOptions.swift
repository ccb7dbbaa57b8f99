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
    func resolve(flags: [ConfigKey: ConfigValue], hooks: [String] = []) throws -> Config {
        do {
            let document = try path.map { try TOMLConfigFile.read($0) }
            return try Config.resolve(file: document, environment: ProcessInfo.processInfo.environment, flags: flags, hooks: hooks)
        } catch let error as ConfigError {
            throw Self.failure(error)
        }
    }

    /// A setting that cannot be used, as the command line reports it: a flag's value is a usage
    /// error (exit 64) named as the flag is written; a file's or the environment's names its place.
    static func failure(_ error: ConfigError) -> any Error {
        if case .flag = error.place { return ValidationError("\(flag(for: error.key)) \(error.message)") }
        return RuntimeFailure("\(error)")
    }

    /// The option a setting has on the command line: `collect.mqtt_url` → `--mqtt-url`.
    static func flag(for key: String) -> String {
        switch key {
        case "db.path": return "--db"
        case "sync.credentials_file": return "--credentials"
        case "hooks.on": return "--on"
        default:
            let last = key.split(separator: ".").last.map(String.init) ?? key
            // Lists are repeatable options named in the singular: `--node`, `--device`.
            let singular = ["nodes": "node", "devices": "device", "codecs": "codec"][last] ?? last
            return "--" + singular.replacingOccurrences(of: "_", with: "-")
        }
    }
}

extension Config {
    /// `problem` as the command line reports it.
    func refuse(_ key: ConfigKey, _ message: String) -> any Error {
        ConfigOptions.failure(problem(key, message))
    }
}
