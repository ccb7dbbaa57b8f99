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

    @Flag(help: ArgumentHelp(
        "Also list every device heard: its own sessions, uplinks, uplinks placed, frames it sent that nobody heard (estimated), when and where it was last.",
        discussion: "A device's own session ends after [trackers] session_gap of silence or when its frame counter goes back; mtt sessions devices lists them. With --json, one object per device after the status object."))
    var devices = false

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
        var deviceList: [DeviceSummary] = []
        if devices {
            try store.records.forEachDeviceSession(splitter: settings.deviceSessions) { DeviceSummary.add($0, to: &deviceList) }
        }
        if output.json {
            try JSONLine.print(status)
            for message in messages { try JSONLine.print(message) }
            for count in unplaced { try JSONLine.print(count) }
            for device in deviceList { try JSONLine.print(device) }
        } else {
            Console.out(StatusText.render(status, path: store.path))
            if reasons {
                Console.out(StatusText.render(messages, wouldHold: upcoming?.count ?? 0))
                if let text = StatusText.render(unplaced) { Console.out(text) }
            }
            if devices { Console.out(StatusText.render(deviceList)) }
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
