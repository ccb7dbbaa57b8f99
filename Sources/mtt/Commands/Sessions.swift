import ArgumentParser
import MTTCore

struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the sessions (collection runs and imports), name them, leave them out of sync, delete them.",
        discussion: """
            Every record belongs to one session: a collect run, a demo, or an import. The numbers \
            listed here are what --session takes in report, export, events and sync.

            A simulated session (fake node, fake GPS, simulated network, an emulator, a replayed \
            track, --speed) is never sent by a plain mtt sync.
            """,
        subcommands: [List.self, Devices.self, Name.self, Exclude.self, Include.self, Delete.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show each session: when, what mode and parts, what it holds, what is uploaded.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let settings = try database.settings()
            let store = try database.openStore(.readOnly, in: settings)
            let summaries = try store.sessions.sessionSummaries(targets: SyncTarget.defaultRun(in: settings))
            if output.json {
                for summary in summaries { try JSONLine.print(summary) }
                return
            }
            guard !summaries.isEmpty else {
                Console.out("No session yet in \(store.path): mtt collect or mtt demo records one.")
                return
            }
            Console.out(summaries.map(SessionText.render).joined(separator: "\n\n"))
        }
    }

    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show each device's own sessions: a tracker's trips, whatever runs or imports heard them.",
            discussion: """
                A device's session ends after [trackers] session_gap (30 minutes) without an uplink, \
                or when its frame counter goes back (the device restarted). Unheard counts the frames \
                it sent that no gateway heard, estimated from the gaps in its frame counters.
                """)

        @Option(help: "Only the uplinks this session (a run or an import) stored.") var session: Int64?
        @Option(help: "Only this device (its device id).") var device: String?
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let settings = try database.settings()
            let store = try database.openStore(.readOnly, in: settings)
            if let session, try store.sessions.session(session) == nil { throw Sessions.missing(session, store) }
            var lines: [String] = []
            try store.records.forEachDeviceSession(of: session, device: device, splitter: settings.deviceSessions) { trip in
                if output.json { try JSONLine.print(trip) } else { lines.append(SessionText.render(trip)) }
            }
            guard !output.json else { return }
            Console.out(lines.isEmpty ? "No uplink stored\(device.map { " of \($0)" } ?? "")\(session.map { " in session \($0)" } ?? ""): mtt collect --mode listener hears devices." : lines.joined(separator: "\n"))
        }
    }

    struct Name: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Name a session (shown in lists and report titles); an empty name takes it away.")

        @Argument(help: "The session's number.") var session: Int64
        @Argument(help: "The name, e.g. \"A40 eastbound\".") var name: String
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let store = try database.openStore(.existing)
            guard try store.sessions.nameSession(session, name) else { throw Sessions.missing(session, store) }
            Console.out(name.isEmpty ? "session \(session): name taken away" : "session \(session) is now \"\(name)\"")
        }
    }

    struct Exclude: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Leave a session out of every sync (its records stay here, held back).")

        @Argument(help: "The session's number.") var session: Int64
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let store = try database.openStore(.existing)
            guard try store.sessions.setSyncExcluded(session, true) else { throw Sessions.missing(session, store) }
            Console.out("session \(session) is left out of sync (mtt sessions include \(session) takes it back)")
        }
    }

    struct Include: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take an excluded session back into sync.")

        @Argument(help: "The session's number.") var session: Int64
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let store = try database.openStore(.existing)
            guard try store.sessions.setSyncExcluded(session, false) else { throw Sessions.missing(session, store) }
            let simulated = try store.sessions.session(session)?.isSimulated == true
            Console.out("session \(session) is synced again" + (simulated ? " (it is simulated: only mtt sync --include-simulated sends it)" : ""))
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a session with all its records: attempts, uplinks, samples, track, events and sync state.",
            discussion: "Nothing is deleted without --yes; without it, mtt says what would go.")

        @Argument(help: "The session's number.") var session: Int64
        @Flag(help: "Really delete.") var yes = false
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let store = try database.openStore(.existing)
            guard let stored = try store.sessions.session(session), let takes = try store.sessions.deletion(of: session) else {
                throw Sessions.missing(session, store)
            }
            guard yes else {
                let what = "\(takes.attempts) attempts, \(takes.uplinks) uplinks, \(takes.samples) samples and \(takes.fixes) fixes"
                throw RuntimeFailure("session \(session) (\(stored.title)) holds \(what); nothing deleted: add --yes to delete it")
            }
            guard let deleted = try store.sessions.deleteSession(session) else { throw Sessions.missing(session, store) }
            Console.out("session \(session) deleted: \(deleted.attempts) attempts, \(deleted.uplinks) uplinks, \(deleted.samples) samples, \(deleted.fixes) fixes, \(deleted.events) events")
        }
    }

    static func missing(_ session: Int64, _ store: Store) -> RuntimeFailure {
        RuntimeFailure("there is no session \(session) in \(store.path) (mtt sessions lists them)")
    }
}
