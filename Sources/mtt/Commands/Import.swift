import ArgumentParser
import MTTCore

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read a MapTheThings data set (coverage JSON or lorawalk JSON) into the database.",
        discussion: """
            Each file becomes a session of its own; its samples are exported like collected ones but \
            never uploaded again. In walk tests, gaps in payload_seq are stored as lost transmissions.
            """)

    @Argument(help: "The JSON file.")
    var file: String

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    struct Result: Encodable {
        var session: Int64
        var samples: Int
        var lost: Int
        var counter_resets: Int
    }

    func run() throws {
        let store = try database.openStore()
        let summary: MapTheThingsDataSet.Summary
        do {
            summary = try MapTheThingsDataSet.importFile(file, into: store)
        } catch let error as MapTheThingsDataSet.ImportError {
            throw RuntimeFailure(error.description)
        }
        if output.json {
            try JSONLine.print(Result(session: summary.session, samples: summary.samples, lost: summary.lost, counter_resets: summary.counterResets))
        } else {
            let loss = summary.lost > 0 ? ", \(summary.lost) lost packets from gaps in payload_seq" : ""
            Console.out("imported \(summary.samples) samples into session \(summary.session) of \(store.path)\(loss)")
            if summary.counterResets > 0 {
                Console.out("  \(summary.counterResets) jump(s) in payload_seq of more than \(MapTheThingsDataSet.largestGap) were taken as the node restarting its counter, not as losses")
            }
        }
    }
}
