import ArgumentParser
import Foundation
import MTTCore
import MTTPostgres
import MTTHTTP
import MTTSystem
import Synchronization

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upload what is not uploaded yet to MapTheThings, TTN Mapper and the other targets.",
        discussion: """
            Every record goes to each target once: what a target accepted or rejected is never sent \
            to it again, and what could not be delivered stays queued for the next run. `mtt status` \
            shows the queues.

            \(SyncTarget.registered.map { "\($0.name): \($0.help)" }.joined(separator: "\n\n"))

            Behind a proxy: https_proxy (or HTTPS_PROXY), http_proxy, all_proxy and no_proxy are \
            honoured as curl honours them; https:// goes through a CONNECT tunnel, so the proxy \
            sees neither the records nor the credentials. A proxy password goes in the URL: \
            http://USER:PASSWORD@HOST:PORT.
            """)

    @Option(help: ArgumentHelp("Upload to this target only: \(SyncTarget.namesText) (default: mapthethings, ttnmapper and every other target configured)."))
    var target: SyncTarget?

    @Option(help: ArgumentHelp(
        "Where to send, with --target: "
            + SyncTarget.registered.map { "\($0.name) \($0.urlForm)" + ($0.publicURL.map { " (default \($0.absoluteString))" } ?? "") }.joined(separator: "; ")
            + ". Without --target, --url means MapTheThings only.",
        valueName: "url"))
    var url: String?

    @Option(help: ArgumentHelp(ConfigKey.syncExperiment.help, valueName: "name"))
    var experiment: String?

    @Option(help: ArgumentHelp(ConfigKey.syncCredentialsFile.help, valueName: "file"))
    var credentials: String?

    @Option(help: ArgumentHelp(
        "Also trust this CA certificate (PEM) for https:// servers, for a server with a private CA. The system's CAs are always trusted.",
        valueName: "file"))
    var ca: String?

    @Option(help: ArgumentHelp("\(ConfigKey.syncTimeout.help) (default \(ConfigKey.syncTimeout.defaultText))", valueName: "duration"))
    var timeout: DurationArgument?

    @Option(help: ArgumentHelp("\(ConfigKey.syncConnections.help) (default \(ConfigKey.syncConnections.defaultText))", valueName: "n"))
    var connections: Int?

    @Option(help: ArgumentHelp("\(ConfigKey.syncTries.help) (default \(ConfigKey.syncTries.defaultText))", valueName: "n"))
    var tries: Int?

    @Option(help: ArgumentHelp("Upload this session's records only (the numbers mtt sessions lists).", valueName: "n"))
    var session: Int64?

    @Flag(help: ArgumentHelp(
        "Also send the records of simulated sessions (fake node, fake GPS, simulated network, an emulator, a replay): only to your own server named with --url, never to a public map."))
    var includeSimulated = false

    @Flag(help: ArgumentHelp("Send nothing: say what would go to each target, and what would be held back and why."))
    var dryRun = false

    @Flag(help: ArgumentHelp(
        "First complete the sessions no fetch has completed yet with the uplinks The Things Stack stored while mtt was offline (as mtt fetch does)."))
    var fetch = false

    @OptionGroup(title: "With --fetch") var stored: StoredUplinkFetchOptions

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    /// What the command line says, for the configuration layer.
    var flags: [ConfigKey: ConfigValue] {
        var flags = stored.flags
        flags[.syncTarget] = target.map { .text($0.rawValue) }
        flags[.syncURL] = url.map { .text($0) }
        flags[.syncExperiment] = experiment.map { .text($0) }
        flags[.syncCredentialsFile] = credentials.map { .text($0) }
        flags[.syncCA] = ca.map { .text($0) }
        flags[.syncTimeout] = timeout.map { .number($0.seconds) }
        flags[.syncConnections] = connections.map { .number(Double($0)) }
        flags[.syncTries] = tries.map { .number(Double($0)) }
        return flags
    }

    /// The layered settings, each checked; a problem names the flag or the file's line.
    func settings() throws -> (config: Config, selection: SyncSelection, policy: SyncPolicy, timeout: Double) {
        let settings = try database.settings(flags)
        var (selection, policy, timeout) = try Self.checked(settings)
        policy.scope = SyncScope(session: session, includeSimulated: includeSimulated)
        return (settings, selection, policy, timeout)
    }

    /// The [sync] settings as the upload takes them (also `mtt config check`'s test of them).
    static func checked(_ settings: Config) throws -> (selection: SyncSelection, policy: SyncPolicy, timeout: Double) {
        let selection: SyncSelection
        do {
            selection = try SyncSelection(settings: settings)
        } catch {
            throw ConfigOptions.failure(error)
        }
        if let ca = settings.text(.syncCA), !FileManager.default.isReadableFile(atPath: ca) { throw settings.refuse(.syncCA, "cannot read \(ca)") }
        var policy = SyncPolicy()
        policy.concurrency = Int(settings.amount(.syncConnections))
        policy.triesPerRecord = Int(settings.amount(.syncTries))
        return (selection, policy, settings.amount(.syncTimeout))
    }

    func run() async throws {
        let (settings, selection, policy, timeout) = try settings()
        let store = try database.openStore(.existing, in: settings)
        if let session, try store.sessions.session(session) == nil {
            throw RuntimeFailure("there is no session \(session) in \(store.path) (mtt sessions lists them)")
        }
        let hooks = try HookTargets.dispatcher(for: settings.hooks)
        if let narrowing = selection.narrowing, !output.json {
            Console.error("mtt: \(narrowing) (--url without --target); use --target ttnmapper for TTN Mapper")
        }

        let proxies = try ProxyConfiguration(environment: ProcessInfo.processInfo.environment)
        let stopped = StopSignal()
        let uploading = UploadInFlight()
        // Watched from the start, before any request can be in flight: the first signal sends
        // nothing more and gives the requests in flight two seconds to have their answers written
        // down; then, or at a second signal, they are abandoned (and sent again next time).
        let interrupts = InterruptWatch {
            if stopped.fired {
                uploading.cancel()
            } else {
                DispatchQueue.global().asyncAfter(deadline: .now() + 2) { uploading.cancel() }
            }
            stopped.fire()
        }
        defer { interrupts.cancel() }
        var failures: [String] = []
        // Back home, one command: what the network stored first, so it is uploaded too. A fetch
        // that fails is said, and the upload goes on with what there is.
        if fetch {
            do {
                var run = StoredUplinkFetch(options: try stored.resolved(settings), timeout: timeout, showProgress: !output.json && isatty(2) == 1)
                run.positioning = try settings.payloadPositioning()
                run.gaps = settings.frameCounterGapRules
                if let summary = try await run.run(store: store, onlyUnfetched: true) {
                    if output.json { try JSONLine.print(summary) } else { Console.out(StoredUplinkFetch.render(summary)) }
                    if let failure = StoredUplinkFetch.failure(summary.errors) { failures.append("fetch: " + failure) }
                } else if !output.json {
                    Console.out("fetch: every session of the window is fetched already")
                }
            } catch let failure as RuntimeFailure {
                failures.append("fetch: \(failure.description)")
            }
        }
        let transports = SyncTransports(
            http: { HTTPTransport(timeout: timeout, connections: policy.concurrency, trusting: settings.text(.syncCA), proxies: proxies) },
            file: { AppendingFile() },
            database: { url in PostgresSyncTransport(url, timeout: timeout) })
        let secrets = SecretReader(
            environment: SecretInput.environment,
            file: { path, what in
                do { return try SecretInput.contents(of: path, what: what) } catch { throw SyncTargetProblem("\(error)") }
            })
        let run = SyncRun(store: store, selection: selection, settings: settings, policy: policy, transports: transports, secrets: secrets)
        if dryRun {
            for preview in try await run.preview() {
                if output.json { try JSONLine.print(preview) } else { Console.out(Self.render(preview)) }
            }
            return
        }
        let bar = Mutex<ProgressBar?>(nil)
        let json = output.json
        let observer = SyncRun.Observer(
            began: { _ in if !json && isatty(2) == 1 { bar.withLock { $0 = ProgressBar() } } },
            progress: { progress in bar.withLock { $0?.update(progress) } },
            finished: { summary in
                bar.withLock { $0?.finish(); $0 = nil }
                Self.report(summary, json: json)
            },
            event: { event in hooks?.offer(event) })
        let task = Task { try await run.run(stopRequested: { stopped.fired }, observer: observer) }
        uploading.set(task)
        failures += try await task.value
        if let hooks {
            await HookTargets.windDown(hooks, within: 30, after: "after the upload")
            if !json { for line in HookTargets.report(hooks) { Console.out(line) } }
        }
        if !failures.isEmpty {
            throw RuntimeFailure(failures.joined(separator: "; "))
        }
    }

    private static func report(_ summary: SyncSummary, json: Bool) {
        if json {
            try? JSONLine.print(summary)
            return
        }
        var line = "\(summary.target.rawValue): \(summary.sent) sent, \(summary.rejected) rejected, \(summary.failed) failed"
        if summary.held > 0 { line += ", \(summary.held) held back (mtt status --reasons says why)" }
        line += ", \(summary.queued) still queued"
        let settled = summary.sent + summary.rejected + summary.held
        if summary.seconds > 0 && settled > 0 {
            line += String(format: " (%.1f s, %.0f/s)", summary.seconds, Double(settled) / summary.seconds)
        }
        if !summary.finished.isEmpty { line += "; " + summary.finished.joined(separator: ", ") }
        Console.out(line)
        for note in summary.refused + summary.notes + heldBack(simulated: summary.simulated, excluded: summary.excluded) { Console.out("  \(note)") }
        if summary.rejected + summary.held > 0 {
            Console.out("  mtt status --reasons lists which records and why")
        }
    }
}

extension Sync {
    /// Why records of held sessions did not go, one line each.
    static func heldBack(simulated: Int, excluded: Int) -> [String] {
        var lines: [String] = []
        if simulated > 0 {
            lines.append("\(simulated) record(s) of simulated sessions held back: never sent to a public map (--include-simulated --url YOUR-SERVER sends them to your own)")
        }
        if excluded > 0 {
            lines.append("\(excluded) record(s) of sessions excluded from sync held back (mtt sessions include N takes one back)")
        }
        return lines
    }

    /// One target of `mtt sync --dry-run`.
    static func render(_ preview: SyncPreview) -> String {
        var line = "\(preview.target.rawValue): "
        if let problem = preview.problem {
            line += "would not run: \(problem)"
        } else if preview.sendCount == 0 {
            line += "nothing to send"
        } else {
            let kinds = SyncRecordKind.allCases.compactMap { kind in preview.wouldSend[kind].map(kind.counted) }
            line += "would send \(kinds.joined(separator: ", "))"
        }
        var lines = [line]
        if preview.wouldHold > 0 {
            lines.append("  \(preview.wouldHold) would be held back, e.g. \(preview.holdReasons.joined(separator: "; ")) (the quality gate's go with --experiment)")
        }
        lines += heldBack(simulated: preview.simulated, excluded: preview.excluded).map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    func validate() throws {
        if dryRun && fetch { throw ValidationError("--dry-run sends and writes nothing, and --fetch writes what it fetches: run mtt fetch first") }
    }
}

extension SyncTarget: ExpressibleByArgument {}

/// The upload a second signal abandons.
final class UploadInFlight: Sendable {
    private let task = Mutex<Task<[String], any Error>?>(nil)

    func set(_ running: Task<[String], any Error>) {
        task.withLock { $0 = running }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
