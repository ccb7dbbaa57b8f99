import ArgumentParser
import MTTCore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the database holds and what still waits to be uploaded.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: ArgumentHelp(
        "Also list why records were rejected by a map or held back (the quality gate, a tracker's own position), which waiting ones the next sync holds back, and why uplinks were kept without a position, by device.",
        discussion: "The newest \(Self.reasonsPerList) per target and state. With --json, one object per reason after the status object (at_next_sync: true for the next sync's), then one per reason and device an uplink was not placed for (unplaced_reason, device, uplinks)."))
    var reasons = false

    static let reasonsPerList = 20

    func run() throws {
        let settings = try database.settings()
        let store = try database.openStore(.readOnly, in: settings)
        let status = try store.status(targets: try store.sync.targetsShown(in: settings))
        // What the quality gate will hold at the next sync, said before it happens.
        let upcoming = reasons
            ? try TTNMapperGatePreview(store: store, sendsTrackers: settings.flag(.syncTTNMapperTrackers), limit: Self.reasonsPerList) : nil
        let messages = reasons ? try Self.messages(in: store) + (upcoming?.newest ?? []) : []
        let unplaced = reasons ? try store.records.unplacedCounts() : []
        if output.json {
            try JSONLine.print(status)
            for message in messages { try JSONLine.print(message) }
            for count in unplaced { try JSONLine.print(count) }
        } else {
            Console.out(StatusText.render(status, path: store.path))
            if reasons {
                Console.out(StatusText.render(messages, wouldHold: upcoming?.count ?? 0))
                if let text = StatusText.render(unplaced) { Console.out(text) }
            }
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
