import ArgumentParser
import MTTCore

struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The SQLite database file.",
        discussion: "Default: $MTT_DB, else $XDG_DATA_HOME/mtt/mtt.sqlite (~/.local/share/mtt/mtt.sqlite).",
        valueName: "path"))
    var path: String?

    func validate() throws {
        if path?.isEmpty == true { throw ValidationError("--db needs a file path") }
    }

    /// The store, for what the command does with it: collect and import create a missing database;
    /// other commands say it is missing rather than make an empty one.
    func openStore(_ access: Store.Access = .create) throws -> Store {
        try Self.open(path, access)
    }

    /// The store at `path` (or the default), with the flag to check added to errors about the path.
    static func open(_ path: String?, _ access: Store.Access) throws -> Store {
        do {
            return try Store(explicitPath: path, access: access)
        } catch let error as StoreError {
            switch error {
            case .notADatabase, .foreignDatabase, .notAFile, .missing:
                throw RuntimeFailure("\(error) (check --db or MTT_DB)")
            default:
                throw error
            }
        }
    }
}
