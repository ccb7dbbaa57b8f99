import ArgumentParser
import MTTCore

/// `--db` and `--config`: every command that reads the database reads the configuration too, so
/// that the service's `[db] path` is the database of `mtt status`, `mtt serve` and the rest.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The SQLite database file.",
        discussion: "Default: $MTT_DB, else path in the [db] section of the configuration, else $XDG_DATA_HOME/mtt/mtt.sqlite (~/.local/share/mtt/mtt.sqlite).",
        valueName: "path"))
    var path: String?

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if path?.isEmpty == true { throw ValidationError("--db needs a file path") }
    }

    /// The command's settings: the file, the environment, then `flags` and `--db`; `hooks` are
    /// `--on` options.
    func settings(_ flags: [ConfigKey: ConfigValue] = [:], hooks: [String] = []) throws -> Config {
        var flags = flags
        if let path { flags[.database] = .text(path) }
        return try config.resolve(flags: flags, hooks: hooks)
    }

    /// The store, for what the command does with it: collect and import create a missing database;
    /// other commands say it is missing rather than make an empty one.
    func openStore(_ access: Store.Access = .create, in settings: Config? = nil) throws -> Store {
        try Self.open(try (settings ?? self.settings()).text(.database), access)
    }

    /// A community database's URL where a file was expected: only mtt serve reads one.
    static func isCommunityURL(_ path: String) -> Bool {
        path.hasPrefix("postgresql://") || path.hasPrefix("postgres://")
    }

    /// The store at `path` (or the default), with the flag to check added to errors about the path.
    static func open(_ path: String?, _ access: Store.Access) throws -> Store {
        if let path, isCommunityURL(path) {
            throw RuntimeFailure("\(path) is a community database: mtt serve shows its map and mtt sync --target postgis uploads to it; this command reads a local database file (--db path)")
        }
        do {
            return try Store(explicitPath: path, access: access)
        } catch let error as StoreError {
            switch error {
            case .notADatabase, .foreignDatabase, .notAFile, .missing:
                throw RuntimeFailure("\(error) (check --db, MTT_DB or [db] path)")
            default:
                throw error
            }
        }
    }
}
