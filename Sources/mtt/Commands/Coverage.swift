import ArgumentParser
import MTTCore

/// `mtt coverage`: the summary by default (`mtt coverage --gateway X`), and what is predicted,
/// validated and changed as subcommands of their own, each with its own options.
struct Coverage: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say where the network heard you, predict where nobody drove, and say what changed.",
        discussion: "Without a subcommand: the summary (mtt coverage summary --help lists its options).",
        subcommands: [CoverageSummaryCommand.self, CoveragePredict.self, CoverageValidate.self, CoveragePlan.self, CoverageDiffCommand.self],
        defaultSubcommand: CoverageSummaryCommand.self)
}

struct CoverageSummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Say where the network heard you: cells mapped, heard and mapped but never heard, and each gateway's part.",
        discussion: """
            A cell is a zoom-19 Web Mercator tile (about 76 m a side at the equator, less towards \
            the poles): the same grid as TTN Mapper's and OpenStreetMap's tiles. mtt keeps the \
            counts as it stores records, so this reads no samples; --rebuild recomputes them from \
            the records.

            Receptions are counted as TTN Mapper counts them: by RSSI + min(SNR, 0) in 5 dB buckets, \
            leaving out those more than 200 km from (or exactly at) their gateway's position, and \
            samples at 0,0 or beyond 85° of latitude. "Mapped but never heard" needs attempts \
            (active mode); attempts of a session with no network source (no MQTT, never fetched) \
            are "unknown", not unheard.
            """)

    @Option(help: ArgumentHelp("Only this gateway's receptions (its id, as mtt coverage and the map name it).", valueName: "id"))
    var gateway: String?

    @Option(help: ArgumentHelp("Only this spreading factor (7 to 12).", valueName: "n"))
    var sf: Int?

    @OptionGroup var window: TimeWindowOptions

    @Flag(help: "Recompute the counts from the stored records first (they must come out as they were kept).")
    var rebuild = false

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        _ = try window.filter()
        if let sf, !(7...12).contains(sf) { throw ValidationError("--sf takes a spreading factor from 7 to 12") }
    }

    func run() throws {
        let store = try database.openStore(rebuild ? .existing : .readOnly)
        try window.checkSession(in: store)
        if rebuild {
            try store.coverage.rebuildCoverage()
            if !output.json { Console.error("mtt: coverage rebuilt from the records") }
        }
        var summary = try store.coverage.coverageSummary(CoverageFilter(window: try window.filter(), gateway: gateway, spreadingFactor: sf))
        // One gateway asked about: whether the position it reports agrees with its receptions.
        if let gateway {
            summary.positionChecks = try GatewayPositionCheck.checks(store, CoverageFilter(window: try window.filter(), gateway: gateway))
            summary.moves = try store.coverage.gatewayMoves(of: gateway)
        }
        if output.json {
            try JSONLine.print(summary)
        } else {
            Console.out(CoverageText.render(summary))
        }
    }
}
