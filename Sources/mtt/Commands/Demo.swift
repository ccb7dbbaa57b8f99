import ArgumentParser
import Foundation
import MTTCore

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Try mtt with no hardware: a minute of active mapping with a fake node, GPS and network.",
        discussion: """
            An emulated MapTheThings node (real ATT over a socket pair) rides a simulated drive through \
            Brooklyn at ten times real speed, so the minute covers ten minutes of driving; three \
            simulated gateways hear it or not, with RSSI and SNR from a path-loss model. Everything \
            goes into its own database, shown at the end.
            """)

    @Option(name: .customLong("db"), help: ArgumentHelp("The demo's database (default: demo.sqlite beside the main one).", valueName: "path"))
    var path: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("How long to run.", valueName: "duration"))
    var duration = DurationArgument(seconds: 60)

    func validate() throws {
        try duration.check("--duration")
    }

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let mainPath = StoreLocation.resolve(explicit: nil)
        let path = self.path ?? ((mainPath as NSString).deletingLastPathComponent + "/demo.sqlite")
        if !output.json {
            Console.out("mtt demo: \(duration) of active mapping with a fake node, fake GPS and a fake network (10× speed)")
        }
        var policy = SendPolicy()
        policy.every = 30
        let plan = CollectPlan(
            mode: .active, nodes: [try NodeKind.spec("fake")], gps: try FixSourceKind.spec("fake"), fakeNetwork: true, mqtt: nil, topics: [],
            databasePath: path, policy: policy, interval: 5, speed: 10, duration: duration.seconds)
        try await CollectSession.run(plan, style: output.json ? .json : (isatty(1) == 1 ? .live : .lines))
        if !output.json {
            // The demo keeps out of the main database, so the commands that look at it need --db.
            let db = path.contains(" ") ? "'\(path)'" : path
            Console.out("""

                The demo wrote to \(path) (its own database: mtt sync never sends simulated data anyway).
                Look at it:  mtt sessions --db \(db)
                             mtt report --db \(db) --out demo.html
                             mtt serve --db \(db)
                """)
        }
    }
}
