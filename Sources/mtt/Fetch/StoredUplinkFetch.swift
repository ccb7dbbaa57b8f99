import ArgumentParser
import Foundation
import MTTCore
import MTTHTTP
import MTTMQTT

/// The options of `mtt fetch`, shared with `mtt sync --fetch`: where the stored uplinks are, with
/// which key, for which sessions; and the run of MTTCore's `Fetcher` over them, shown as it goes.
struct StoredUplinkFetchOptions: ParsableArguments {
    @Option(name: .customLong("ttn-url"), help: ArgumentHelp(ConfigKey.fetchTTNURL.help, valueName: "url"))
    var ttnURL: String?

    @Option(help: ArgumentHelp(ConfigKey.fetchApp.help, valueName: "app-id"))
    var app: String?

    @Option(name: .customLong("device"), help: ArgumentHelp(
        "Read this TTS device ID's uplinks (repeatable; + for every device of the application), instead of the devices each session names.",
        valueName: "id"))
    var fetchDevice: [String] = []

    @Option(help: ArgumentHelp(
        "Complete the sessions since this time: RFC 3339 (2026-06-21T08:00:00Z) or a length of time ago (6h, 2d). Default 24h, what TTN keeps.",
        valueName: "time"))
    var since: String?

    @Option(name: .customLong("api-key-file"), help: ArgumentHelp(ConfigKey.fetchAPIKeyFile.help, valueName: "file"))
    var apiKeyFile: String?

    /// What the command line says, for the configuration layer.
    var flags: [ConfigKey: ConfigValue] {
        var flags: [ConfigKey: ConfigValue] = [:]
        flags[.fetchTTNURL] = ttnURL.map { .text($0) }
        flags[.fetchApp] = app.map { .text($0) }
        flags[.fetchDevices] = fetchDevice.isEmpty ? nil : .list(fetchDevice)
        flags[.fetchSince] = since.map { .text($0) }
        flags[.fetchAPIKeyFile] = apiKeyFile.map { .text($0) }
        return flags
    }

    /// These options with what the configuration file and the environment add, each checked.
    func resolved(_ settings: Config) throws -> StoredUplinkFetchOptions {
        var options = self
        options.ttnURL = settings.text(.fetchTTNURL)
        options.app = settings.text(.fetchApp)
        options.fetchDevice = settings.list(.fetchDevices)
        options.since = settings.text(.fetchSince)
        options.apiKeyFile = settings.text(.fetchAPIKeyFile)
        if let since = options.since {
            do throws(TimeTextError) {
                _ = try SinceText.parse(since, now: .now())
            } catch {
                throw settings.refuse(.fetchSince, "takes an RFC 3339 time (2026-06-21T08:00:00Z) or a length of time ago (6h, 2d): \(error)")
            }
        }
        if let ttnURL = options.ttnURL {
            guard HTTPURLText.url(ttnURL) != nil else {
                throw settings.refuse(.fetchTTNURL, "takes the cluster's https:// URL, e.g. https://eu1.cloud.thethings.network, not \(ttnURL)")
            }
        }
        return options
    }

    /// When the window starts; nil for an unreadable `--since`.
    func sinceTime(now: Timestamp) -> Timestamp? {
        guard let since else { return now.adding(seconds: -FetchPlanner().retention) }
        return SinceText.time(since, now: now)
    }
}

/// One fetch as the command line runs it.
struct StoredUplinkFetch {
    var options: StoredUplinkFetchOptions
    var timeout: Double = 30
    /// A progress bar on stderr (a terminal, not --json).
    var showProgress: Bool
    /// How sessions recorded with `--gps payload` read positions (`[trackers]`).
    var positioning = PayloadPositioning()
    var gaps = FrameCounterGaps.Rules()

    /// Fetches every session of the window (`onlyUnfetched`: those no fetch completed yet).
    /// Nil when there was no session to complete.
    func run(store: Store, onlyUnfetched: Bool) async throws -> FetchSummary? {
        let now = Timestamp.now()
        guard let since = options.sinceTime(now: now) else { throw ValidationError("bad --since") }
        let targets = try FetchPlanner().targets(in: store, since: since, devices: options.fetchDevice, onlyUnfetched: onlyUnfetched, now: now)
        guard !targets.isEmpty else { return nil }
        let key = try apiKey()
        let transport = HTTPTransport(timeout: timeout, connections: 1, proxies: try ProxyConfiguration(environment: ProcessInfo.processInfo.environment))
        let known = try store.sessions.sessions(since: Timestamp(nanosecondsSinceEpoch: 0)).reversed()
        let readers = try targets.map { target in
            let address = try address(for: target.session, known: Array(known))
            return (target, TTSStorageReader(cluster: address.cluster, application: address.application, apiKey: key, transport: transport) as any StoredUplinkSource)
        }
        let fetcher = Fetcher(store: store, positioning: positioning, gaps: gaps)
        let bar = showProgress ? ProgressBar() : nil
        let interrupts = InterruptWatch { fetcher.stop() }
        defer { interrupts.cancel() }
        let summary = await fetcher.run(readers, now: now) { bar?.update($0) }
        bar?.finish()
        return summary
    }

    /// The cluster and application of a session, as the command line says what is missing.
    private func address(for session: StoredSession, known: [StoredSession]) throws -> TTSApplicationAddress {
        do {
            return try TTSApplicationAddress.of(session, known: known, cluster: options.ttnURL.flatMap(URL.init(string:)), application: options.app)
        } catch .cluster(let id) {
            throw RuntimeFailure("session \(id) names no MQTT server to find its uplinks by: give --ttn-url (e.g. https://eu1.cloud.thethings.network)")
        } catch .application(let id) {
            throw RuntimeFailure("session \(id) names no application: give --app APP_ID (or run collect with --mqtt-user APP_ID@ttn)")
        }
    }

    private func apiKey() throws -> String {
        if options.apiKeyFile == nil, SecretInput.environment("MTT_TTN_API_KEY") == nil, let mqtt = SecretInput.environment("MTT_MQTT_PASSWORD") {
            return mqtt
        }
        return try SecretInput.read(file: options.apiKeyFile, environment: "MTT_TTN_API_KEY", what: "the TTN API key (or MTT_MQTT_PASSWORD)")
    }

    /// A fetch's failures in one line, with where the key comes from when the key was the problem
    /// (the reader names the problem; the command line names its options).
    static func failure(_ errors: [String]) -> String? {
        guard let first = errors.first else { return nil }
        let key = errors.contains { $0.contains("API key") } ? " (the key: --api-key-file FILE, MTT_TTN_API_KEY or MTT_MQTT_PASSWORD)" : ""
        return first + (errors.count > 1 ? " (and \(errors.count - 1) more)" : "") + key
    }

    /// The summary for a person.
    static func render(_ s: FetchSummary) -> String {
        var lines = ["fetch: \(s.sessions) session(s), \(s.read) uplink(s) read: \(s.new) new, \(s.alreadyStored) already stored"
            + (s.otherDevices > 0 ? ", \(s.otherDevices) of other devices left out" : "")
            + (s.broken > 0 ? ", \(s.broken) broken line(s) skipped" : "")
            + (s.skipped > 0 ? ", \(s.skipped) simulated or not uplinks skipped" : "")]
        if s.heard + s.lost > 0 { lines.append("  attempts: \(s.heard) newly heard, \(s.lost) not heard (lost)") }
        if s.placed > 0 || !s.unplaceable.isEmpty {
            let unplaced = s.unplaceable.sorted { $0.value > $1.value }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            lines.append("  track: \(s.placed) placed" + (unplaced.isEmpty ? "" : "; not placed: \(unplaced)"))
        }
        for warning in s.warnings { lines.append("  warning: \(warning)") }
        for error in s.errors { lines.append("  error: \(error)") }
        if s.interrupted { lines.append("  stopped before the end: what was read is stored; fetch again for the rest") }
        return lines.joined(separator: "\n")
    }
}
