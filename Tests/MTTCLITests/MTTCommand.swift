import Foundation
import MTTCore
import TestSupport
import Testing

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

    /// Runs `mtt collect` (active mode, with a long `--duration` among `arguments`) until `count`
    /// transmissions of its first session are confirmed, however long a busy machine takes, then
    /// stops it as Ctrl-C would and waits for it: a fixed duration fitted fewer beside a second suite.
    func collect(_ arguments: [String], untilConfirmed count: Int) async throws -> ChildProcess.Running {
        let run = try start(arguments)
        let enough = await eventually(timeout: runProgressTimeout) {
            let store = try? Store(path: database, access: .readOnly)
            return (try? store?.records.attempts(session: 1).filter { $0.attempt.state == .confirmed }.count ?? 0) ?? 0 >= count
        }
        run.signal(SIGINT)
        _ = await run.wait(timeout: 60)
        #expect(enough, "fewer than \(count) transmissions confirmed: \(run.stderr) \(run.stdout.suffix(3_000))")
        return run
    }

    /// Starts mtt and returns while it runs.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Running {
        try ChildProcess.Running(BuiltProducts.path("mtt"), arguments, environment: self.environment.merging(environment) { _, new in new })
    }
}
