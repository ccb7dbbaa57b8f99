import ArgumentParser
import MTTCore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the database holds and what still waits to be uploaded.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: ArgumentHelp(
        "Also list why records were rejected by a map or held back by the quality gate, and which waiting ones the next sync holds back.",
        discussion: "The newest \(Self.reasonsPerList) per target and state. With --json, one object per reason after the status object (at_next_sync: true for the next sync's)."))
    var reasons = false

    static let reasonsPerList = 20

    func run() throws {
        let settings = try database.settings()
        let store = try database.openStore(.readOnly, in: settings)
        let status = try store.status(targets: try store.sync.targetsShown(in: settings))
        // What the quality gate will hold at the next sync, said before it happens.
        let upcoming = reasons ? try TTNMapperGatePreview(store: store, limit: Self.reasonsPerList) : nil
        let messages = reasons ? try Self.messages(in: store) + (upcoming?.newest ?? []) : []
        if output.json {
            try JSONLine.print(status)
            for message in messages { try JSONLine.print(message) }
        } else {
            Console.out(StatusText.render(status, path: store.path))
            if reasons { Console.out(StatusText.render(messages, wouldHold: upcoming?.count ?? 0)) }
        }
    }

    static func messages(in store: Store) throws -> [SyncMessage] {
        var messages: [SyncMessage] = []
        for target in SyncTarget.allCases {
            for state in [SyncOutcome.State.rejected, .held] {
                messages += try store.sync.syncMessages(target, state: state, limit: reasonsPerList)
            }
        }
        return messages
    }
}
