import ArgumentParser
import Foundation
import MTTCore
import MTTHTTP
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

    @Option(help: "mapthethings or ttnmapper (default: both).")
    var target: SyncTarget?

    @Option(help: ArgumentHelp(
        "The server: MapTheThings' base URL (default http://map.thethings.nyc), or with --target ttnmapper the URL documents are posted to (default https://integrations.ttnmapper.org/android/v4). Without --target, --url means MapTheThings only.",
        valueName: "url"))
    var url: String?

    @Option(help: ArgumentHelp("TTN Mapper: upload to this experiment instead of the main map.", valueName: "name"))
    var experiment: String?

    @Option(help: ArgumentHelp("MapTheThings credentials file (user = …, token = …, secret = …; mode 600).", valueName: "file"))
    var credentials: String?

    @Option(help: ArgumentHelp(
        "Also trust this CA certificate (PEM) for https:// servers, for a server with a private CA. The system's CAs are always trusted.",
        valueName: "file"))
    var ca: String?

    @Option(help: ArgumentHelp("Give up on one request after this long.", valueName: "duration"))
    var timeout = DurationArgument(seconds: 20)

    @Option(help: ArgumentHelp("Requests in flight at once.", valueName: "n"))
    var connections = 8

    @Option(help: ArgumentHelp("Requests per record before it is left queued for the next run.", valueName: "n"))
    var tries = 6

    @Flag(help: ArgumentHelp(
        "First complete the sessions no fetch has completed yet with the uplinks The Things Stack stored while mtt was offline (as mtt fetch does)."))
    var fetch = false

    @OptionGroup(title: "With --fetch") var stored: StoredUplinkFetchOptions

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let url {
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  parsed.host?.isEmpty == false else {
                throw ValidationError("--url takes an http:// or https:// URL, not \(url)")
            }
        }
        if experiment != nil && target == .mapthethings { throw ValidationError("--experiment is for --target ttnmapper") }
        if connections < 1 || connections > 64 { throw ValidationError("--connections takes 1 to 64") }
        if let ca, !FileManager.default.isReadableFile(atPath: ca) { throw ValidationError("--ca: cannot read \(ca)") }
        if tries < 1 { throw ValidationError("--tries must be at least 1") }
        if timeout.seconds <= 0 { throw ValidationError("--timeout must be above 0") }
    }

    func run() async throws {
        let store = try database.openStore(.existing)
        let selection = SyncSelection(target: target, url: url.flatMap(URL.init(string:)), experiment: experiment)
        if let narrowing = selection.narrowing, !output.json {
            Console.error("mtt: \(narrowing) (--url without --target); use --target ttnmapper for TTN Mapper")
        }
        var policy = SyncPolicy()
        policy.concurrency = connections
        policy.triesPerRecord = tries

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
                let run = StoredUplinkFetch(options: stored, timeout: timeout.seconds, showProgress: !output.json && isatty(2) == 1)
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
                guard let destination = try destination(for: target, in: selection, store: store) else { continue }
                let summary = try await upload(to: destination, store: store, policy: policy, proxies: proxies, stopped: stopped, in: uploading)
                report(summary)
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
        if !failures.isEmpty {
            throw RuntimeFailure(failures.joined(separator: "; "))
        }
    }

    /// The target's server and settings, or nil (with a line saying why) when it has nothing to do.
    private func destination(for target: SyncTarget, in selection: SyncSelection, store: Store) throws -> (any SyncDestination)? {
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
        to destination: any SyncDestination, store: Store, policy: SyncPolicy, proxies: ProxyConfiguration, stopped: StopSignal,
        in uploading: UploadInFlight
    ) async throws -> SyncSummary {
        let bar = !output.json && isatty(2) == 1 ? ProgressBar() : nil
        let uploader = Uploader(
            store: store, destination: destination,
            transport: HTTPTransport(timeout: timeout.seconds, connections: policy.concurrency, trusting: ca, proxies: proxies),
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
