import ArgumentParser
import MTTCore
import MTTPostgres

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
        if let path, Self.isCommunityURL(path), PostgresConnection.hasPassword(path) {
            throw ValidationError("--db carries a password, which every user of this machine can read on a command line: put it in ~/.pgpass (mode 600) or PGPASSWORD")
        }
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

    /// The coverage a command reads: this machine's database, or a community's shared coverage
    /// (`--db postgresql://…` as a role mtt community grant-map made), which is everybody's and has
    /// no sessions or time window.
    enum CoverageSource {
        case local(Store)
        case community(CommunityMapReader)

        var coverage: any CoverageReader {
            switch self {
            case .local(let store): store.coverage
            case .community(let community): community
            }
        }
    }

    /// The coverage of `--db`; a community's refuses `window` when it narrows anything.
    func openCoverage(_ window: TimeWindowOptions? = nil) throws -> CoverageSource {
        let settings = try self.settings()
        guard let url = settings.text(.database), Self.isCommunityURL(url) else {
            let store = try openStore(.readOnly, in: settings)
            try window?.checkSession(in: store)
            return .local(store)
        }
        if let window, try window.filter() != ExportFilter() {
            throw RuntimeFailure("a community database has no sessions and no time window: it gives everybody's coverage")
        }
        do {
            return .community(try CommunityMapReader(url: url, timeout: settings.amount(.serveQueryTimeout)))
        } catch {
            throw RuntimeFailure("cannot read the community database: \(error)")
        }
    }

    /// A community database's URL where a file was expected.
    static func isCommunityURL(_ path: String) -> Bool {
        path.hasPrefix("postgresql://") || path.hasPrefix("postgres://")
    }

    /// The store at `path` (or the default), with the flag to check added to errors about the path.
    static func open(_ path: String?, _ access: Store.Access) throws -> Store {
        if let path, isCommunityURL(path) {
            throw RuntimeFailure("\(path) is a community database: mtt serve shows its map, mtt coverage predict and plan read it, and mtt sync --target postgis uploads to it; this command reads a local database file (--db path)")
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
