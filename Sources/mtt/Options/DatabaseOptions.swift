import ArgumentParser
import MTTCore

struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The SQLite database file.",
        discussion: "Default: $MTT_DB, else $XDG_DATA_HOME/mtt/mtt.sqlite (~/.local/share/mtt/mtt.sqlite).",
        valueName: "path"))
    var path: String?

    func openStore() throws -> Store {
        try Store(explicitPath: path)
    }
}
