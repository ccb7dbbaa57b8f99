import Foundation
import TestSupport

/// Runs the built `mtt` binary as a user would, with a database in a temporary folder.
struct MTTCommand {
    let dir = TemporaryDirectory("mtt-cli")

    var database: String { dir.file("mtt.sqlite") }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Result {
        var env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("xdg"), "MTT_DB": ""]
        env.merge(environment) { _, new in new }
        return try ChildProcess.run(BuiltProducts.path("mtt"), arguments, environment: env)
    }
}
