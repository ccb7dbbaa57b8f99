import ArgumentParser
import Foundation
import MTTCore
import MTTHTTP
import MTTSystem
import Synchronization

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upload what is not uploaded yet to MapTheThings and TTN Mapper.",
        discussion: """
            Every record goes to each target once: what a target accepted or rejected is never sent \
            to it again, and what could not be delivered stays queued for the next run. `mtt status` \
            shows the queues.

            mapthethings: confirmed active-mode attempts to /api/v0/transmissions; listener samples \
            and matching tracks to /api/v0/samples and /api/v0/tracks on servers that have them. \
            Credentials: MTT_MAPTHETHINGS_USER, MTT_MAPTHETHINGS_TOKEN, MTT_MAPTHETHINGS_SECRET, \
            or a file (--credentials, default ~/.config/mtt/mapthethings, mode 600) with lines \
            user = NAME, token = TOKEN, secret = SECRET.

            ttnmapper: each heard uplink with its gateways and your position. Positions failing TTN \
            Mapper's quality gate (fewer than 4 satellites, accuracy over 15 m, HDOP over 5) are held \
            back from the main map and go only with --experiment.

            Behind a proxy: https_proxy (or HTTPS_PROXY), http_proxy, all_proxy and no_proxy are \
            honoured as curl honours them; https:// goes through a CONNECT tunnel, so the proxy \
            sees neither the records nor the credentials. A proxy password goes in the URL: \
            http://USER:PASSWORD@HOST:PORT.
            """)

    @Option(help: ArgumentHelp("Upload to this target only (default: both)."))
    var target: SyncTarget?

    @Option(help: ArgumentHelp(
        "The server: MapTheThings' base URL (default http://map.thethings.nyc), or with --target ttnmapper the URL documents are posted to (default https://integrations.ttnmapper.org/android/v4). Without --target, --url means MapTheThings only.",
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
        let (selection, policy, timeout) = try Self.checked(settings)
        return (settings, selection, policy, timeout)
    }

    /// The [sync] settings as the upload takes them (also `mtt config check`'s test of them).
    static func checked(_ settings: Config) throws -> (selection: SyncSelection, policy: SyncPolicy, timeout: Double) {
        let target = settings.text(.syncTarget).flatMap(SyncTarget.init(rawValue:))
        var server: URL?
        if let url = settings.text(.syncURL) {
            guard let parsed = HTTPURLText.url(url) else {
                throw settings.refuse(.syncURL, "takes an http:// or https:// URL, not \(url)")
            }
            server = parsed
        }
        let experiment = settings.text(.syncExperiment)
        if experiment != nil && target == .mapthethings { throw settings.refuse(.syncExperiment, "is for target ttnmapper") }
        if let ca = settings.text(.syncCA), !FileManager.default.isReadableFile(atPath: ca) { throw settings.refuse(.syncCA, "cannot read \(ca)") }
        var policy = SyncPolicy()
        policy.concurrency = Int(settings.amount(.syncConnections))
        policy.triesPerRecord = Int(settings.amount(.syncTries))
        let timeout = settings.amount(.syncTimeout)
        return (SyncSelection(target: target, url: server, experiment: experiment), policy, timeout)
    }

    func run() async throws {
        let (settings, selection, policy, timeout) = try settings()
        let store = try database.openStore(.existing, in: settings)
        let hooks = try HookTargets.dispatcher(for: settings.hooks)
        if let narrowing = selection.narrowing, !output.json {
            Console.error("mtt: \(narrowing) (--url without --target); use --target ttnmapper for TTN Mapper")
        }

        let proxies = try ProxyConfiguration(environment: ProcessInfo.processInfo.environment)
        let stopped = StopSignal()
        let uploading = UploadInFlight()
        // Watched from the start, before any request can be in flight: the first signal lets the
        // requests in flight finish and writes their answers down; a second one abandons them
        // (they are sent again next time).
        let interrupts = InterruptWatch {
            if stopped.fired { uploading.cancel() }
            stopped.fire()
        }
        defer { interrupts.cancel() }
        var failures: [String] = []
        // Back home, one command: what the network stored first, so it is uploaded too. A fetch
        // that fails is said, and the upload goes on with what there is.
        if fetch {
            do {
                let run = StoredUplinkFetch(options: try stored.resolved(settings), timeout: timeout, showProgress: !output.json && isatty(2) == 1)
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
        for target in selection.targets {
            if stopped.fired { break }
            do {
                guard let claim = try store.claimSync(target) else {
                    throw RuntimeFailure("another mtt sync is uploading from this database to \(target.displayName); try again when it is done")
                }
                defer { claim.release() }
                guard let destination = try destination(for: target, in: selection, store: store, credentials: settings.text(.syncCredentialsFile)) else {
                    continue
                }
                let summary = try await upload(
                    to: destination, store: store, policy: policy, timeout: timeout, trusting: settings.text(.syncCA), proxies: proxies,
                    stopped: stopped, in: uploading)
                report(summary)
                let done = FieldEvent.syncDone(summary, at: .now(), mapURL: settings.alertRules.mapURL)
                try? store.recordEvents([done])
                hooks?.offer(done)
                if let reason = summary.stopReason {
                    failures.append("\(target.rawValue): \(reason); \(summary.queued) record(s) stay queued")
                } else if summary.failed > 0 {
                    failures.append("\(target.rawValue): \(summary.failed) record(s) could not be delivered and stay queued")
                }
            } catch let failure as RuntimeFailure {
                // Said once, in the closing line with the other targets' failures.
                failures.append("\(target.rawValue): \(failure.description)")
            }
        }
        if let hooks {
            if await !hooks.settle(within: 30) {
                CommandHook.stopAll()
                Console.error("mtt: hooks still busy 30 s after the upload were ended")
            }
            if !output.json { for line in HookTargets.report(hooks) { Console.out(line) } }
        }
        if !failures.isEmpty {
            throw RuntimeFailure(failures.joined(separator: "; "))
        }
    }

    /// The target's server and settings, or nil (with a line saying why) when it has nothing to do.
    private func destination(for target: SyncTarget, in selection: SyncSelection, store: Store, credentials: String?) throws -> (any SyncDestination)? {
        do {
            guard let destination = try selection.destination(for: target, store: store, credentials: { try MapTheThingsLogin.load(file: credentials) }) else {
                report(SyncSummary(target: target))
                return nil
            }
            return destination
        } catch SyncSelection.Problem.noCredentials(let queued) {
            throw RuntimeFailure("\(queued) record(s) wait for MapTheThings but there are no credentials: \(MapTheThingsLogin.howToSet)")
        }
    }

    private func upload(
        to destination: any SyncDestination, store: Store, policy: SyncPolicy, timeout: Double, trusting ca: String?, proxies: ProxyConfiguration,
        stopped: StopSignal,
        in uploading: UploadInFlight
    ) async throws -> SyncSummary {
        let bar = !output.json && isatty(2) == 1 ? ProgressBar() : nil
        let uploader = Uploader(
            store: store, destination: destination,
            transport: HTTPTransport(timeout: timeout, connections: policy.concurrency, trusting: ca, proxies: proxies),
            policy: policy)
        let task = Task { try await uploader.run(stopRequested: { stopped.fired }) { progress in bar?.update(progress) } }
        uploading.set(task)
        let result = await task.result
        bar?.finish()
        return try result.get()
    }

    private func report(_ summary: SyncSummary) {
        if output.json {
            try? JSONLine.print(summary)
            return
        }
        var line = "\(summary.target.rawValue): \(summary.sent) sent, \(summary.rejected) rejected, \(summary.failed) failed"
        if summary.held > 0 { line += ", \(summary.held) held by the quality gate" }
        line += ", \(summary.queued) still queued"
        let settled = summary.sent + summary.rejected + summary.held
        if summary.seconds > 0 && settled > 0 {
            line += String(format: " (%.1f s, %.0f/s)", summary.seconds, Double(settled) / summary.seconds)
        }
        Console.out(line)
        for note in summary.notes { Console.out("  \(note)") }
        if summary.rejected + summary.held > 0 {
            Console.out("  mtt status --reasons lists which records and why")
        }
    }
}

extension SyncTarget: ExpressibleByArgument {}

/// The upload a second signal abandons.
final class UploadInFlight: Sendable {
    private let task = Mutex<Task<SyncSummary, any Error>?>(nil)

    func set(_ running: Task<SyncSummary, any Error>) {
        task.withLock { $0 = running }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
