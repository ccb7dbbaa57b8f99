import Foundation
import TestSupport

/// Runs the built `mtt` binary as a user would, with a database in a temporary folder.
struct MTTCommand {
    let dir = TemporaryDirectory("mtt-cli")

    var database: String { dir.file("mtt.sqlite") }

    /// A home of its own, and none of the user's database or credentials.
    var environment: [String: String] {
        [
            "HOME": dir.path, "XDG_DATA_HOME": dir.file("xdg"), "XDG_CONFIG_HOME": dir.file("config"), "MTT_DB": "",
            "MTT_MAPTHETHINGS_USER": "", "MTT_MAPTHETHINGS_TOKEN": "", "MTT_MAPTHETHINGS_SECRET": "",
        ]
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(BuiltProducts.path("mtt"), arguments, environment: self.environment.merging(environment) { _, new in new })
    }

    /// Starts mtt and returns while it runs.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Running {
        try ChildProcess.Running(BuiltProducts.path("mtt"), arguments, environment: self.environment.merging(environment) { _, new in new })
    }
}
