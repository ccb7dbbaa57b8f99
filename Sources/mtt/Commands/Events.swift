import ArgumentParser
import Foundation
import MTTCore
import MTTSystem

struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay what happened during a drive: the stored events, as JSON lines, or through the hooks.",
        discussion: """
            Every event a collection reports (docs/events.md: attempt, heard, lost, coverage_lost, \
            new_gateway, node_lost, gps_lost, battery_low, …) is kept in the database, in the same \
            schema as `mtt collect --json` prints and hooks receive. With --hooks (or --on) the \
            events go through the configuration's hooks, their cooldowns, mutes and rate limits \
            applied on the events' own times: try a hook on yesterday's drive before the next one.
            """)

    @Option(help: ArgumentHelp("Events since this time: RFC 3339 (2026-06-21T08:00:00Z) or a length of time ago (6h, 2d).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Only this session's events (mtt status counts them).", valueName: "n"))
    var session: Int64?

    @Option(help: ArgumentHelp("Only events of this type (repeatable).", valueName: "type"))
    var type: [String] = []

    @Flag(help: "Send the events through the hooks of the configuration instead of printing them.")
    var hooks = false

    @Option(help: ArgumentHelp("A hook for this replay (repeatable), as collect --on: TYPE[,TYPE…]=PROGRAM ARGUMENT….", valueName: "type=command"))
    var on: [String] = []

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let settings = try database.settings(hooks: on)
        var types: Set<FieldEventType> = []
        for name in type {
            guard let known = FieldEventType(named: name) else {
                throw ValidationError("--type \(name) is not an event type: \(FieldEventType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            types.insert(known)
        }
        let start: Timestamp?
        if let since {
            do throws(TimeTextError) {
                start = try SinceText.parse(since, now: .now())
            } catch {
                throw ValidationError("--since takes an RFC 3339 time (2026-06-21T08:00:00Z) or a length of time ago (6h, 2d): \(error)")
            }
        } else {
            start = nil
        }
        let store = try database.openStore(.readOnly, in: settings)
        let replay = hooks || !on.isEmpty
        let dispatcher = replay ? try HookTargets.dispatcher(for: settings.hooks) : nil
        if replay && dispatcher == nil {
            throw RuntimeFailure("no hooks to replay through: declare [[hooks]] in the configuration (mtt config show) or give --on TYPE=COMMAND")
        }
        guard let dispatcher else {
            try store.records.forEachEvent(since: start, session: session, types: types, mapURL: settings.alertRules.mapURL) { StandardOutput.write($0.json() + [0x0A]) }
            return
        }
        // Read whole first, so the database is not held open while the hooks run (their pace sets
        // the replay's): a long listener session is tens of thousands of events (each uplink's
        // `heard`), some megabytes, which --type and --since narrow.
        var events: [FieldEvent] = []
        try store.records.forEachEvent(since: start, session: session, types: types, mapURL: settings.alertRules.mapURL) { events.append($0) }
        // A stop request ends the replay and the hook programs at once: they run in process
        // groups of their own, so a terminal's Ctrl-C reaches only mtt.
        let interrupts = InterruptWatch {
            dispatcher.stop()
            CommandHook.stopAll()
        }
        defer { interrupts.cancel() }
        var offered = 0
        for event in events where !dispatcher.isStopped {
            await dispatcher.offerWhenRoom(event)
            offered += 1
        }
        // A replay offers events faster than a drive did: wait for the hooks to take them all.
        await HookTargets.windDown(dispatcher, within: 300, after: "after the replay")
        if dispatcher.isStopped {
            Console.error("mtt: stopped; the hooks were offered \(offered) of \(events.count) event(s), the programs running were ended")
        } else {
            Console.error("mtt: \(events.count) event(s) replayed")
        }
        for line in HookTargets.report(dispatcher) { Console.error("mtt: " + line) }
    }
}
