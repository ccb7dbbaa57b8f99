import ArgumentParser
import Foundation
import MTTCore

struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Complete sessions with the uplinks The Things Stack stored while mtt was offline.",
        discussion: """
            Without a network in the field, mtt records attempts and the track but hears no uplink. \
            The Things Stack keeps them in its Storage Integration (24 h on TTN's community network, \
            30 days on TTS Cloud; activate it once: Console → Applications → your app → \
            Integrations → Storage Integration → Activate). Back online, mtt fetch reads them for \
            every session of the window and completes each as if MQTT had been live: attempts heard \
            or lost, with gateways, RSSI and SNR; matching and listener uplinks placed on the track. \
            An uplink already stored (MQTT was live, or an earlier fetch) is not stored again; a \
            failed fetch changes nothing already stored. `mtt sync --fetch` fetches before uploading.
            """)

    @OptionGroup var fetch: StoredUplinkFetchOptions

    @Option(help: ArgumentHelp("\(ConfigKey.fetchTimeout.help) (default \(ConfigKey.fetchTimeout.defaultText))", valueName: "duration"))
    var timeout: DurationArgument?

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        var flags = fetch.flags
        flags[.fetchTimeout] = timeout.map { .number($0.seconds) }
        let settings = try database.settings(flags)
        let options = try fetch.resolved(settings)
        let store = try database.openStore(.existing, in: settings)
        var run = StoredUplinkFetch(options: options, timeout: settings.amount(.fetchTimeout), showProgress: !output.json && isatty(2) == 1)
        do { run.positioning = try settings.payloadPositioning() } catch { throw ConfigOptions.failure(error) }
        run.gaps = settings.frameCounterGapRules
        guard let summary = try await run.run(store: store, onlyUnfetched: false) else {
            if output.json {
                try JSONLine.print(FetchSummary())
            } else {
                Console.out("fetch: no collection session since \(options.since ?? "24 h ago") to complete")
            }
            return
        }
        if output.json {
            try JSONLine.print(summary)
        } else {
            Console.out(StoredUplinkFetch.render(summary))
        }
        if let failure = StoredUplinkFetch.failure(summary.errors) { throw RuntimeFailure(failure) }
    }
}
