import ArgumentParser
import MTTCore

/// `--session`, `--since` and `--until` of the commands that read records back (export, report):
/// the grammar of `events --since` and of the map's `?since=&until=` (`ExportFilter.setWindow`).
struct TimeWindowOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only this session (its number; mtt status counts them).", valueName: "n"))
    var session: Int64?

    @Option(help: ArgumentHelp("Only records from this time on: RFC 3339 (2026-06-21T10:00:00Z) or a length of time ago (6h, 2d).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Only records up to this time: RFC 3339 or a length of time ago.", valueName: "time"))
    var until: String?

    /// The filter these options ask for, or the usage error that says what is wrong with them.
    func filter(now: Timestamp = .now()) throws -> ExportFilter {
        if let session, session < 1 { throw ValidationError("--session takes a session number (mtt status counts them)") }
        var filter = ExportFilter(session: session)
        do throws(TimeTextError) {
            try filter.setWindow(since: since, until: until, now: now, names: ("--since", "--until"))
        } catch {
            throw ValidationError("\(error)")
        }
        return filter
    }

    /// A session that is not in the database is an error, not an empty file.
    func checkSession(in store: Store) throws {
        if let session, try store.sessions.session(session) == nil { throw RuntimeFailure("there is no session \(session) in \(store.path)") }
    }
}
