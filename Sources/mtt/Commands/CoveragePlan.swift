import ArgumentParser
import Foundation
import MTTCore

struct CoveragePlan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Rank sites for the next gateway by the cells you mapped and nobody heard that it would probably hear.",
        discussion: """
            Each site is judged by a network-wide model: the median line of your antennas' fits (mtt \
            coverage predict), raised 20·log10(h / 10 m) for a site h metres high and by --gain for a \
            better antenna. Ranked by the expected number of your cells mapped and never heard that it \
            would hear, then by the cells mapped at all it would cover (P(heard) ≥ 50 %). With --db \
            postgresql://USER@HOST/DATABASE (a role mtt community grant-map made): from a community's \
            shared coverage.
            """)

    @Option(help: ArgumentHelp("A CSV file of lat,lon[,height in metres] lines (a header line is skipped), or - for standard input.", valueName: "file"))
    var candidates: String?

    @Flag(help: "Try sites on a grid over the mapped area instead (see --spacing, --height).")
    var grid = false

    @Option(help: ArgumentHelp("With --grid: metres between sites (100 to 5,000).", valueName: "m"))
    var spacing = 500.0

    @Option(help: ArgumentHelp("Antenna height above ground, metres, for the grid's sites and candidates without one (default 10).", valueName: "m"))
    var height = GatewayPlan.ordinaryHeight

    @Option(help: ArgumentHelp("The new antenna's gain over your gateways' antennas, dB (default 0).", valueName: "dB"))
    var gain = 0.0

    @Option(help: ArgumentHelp("How many sites to print (default 10).", valueName: "n"))
    var top = 10

    @Option(help: ArgumentHelp("Also write the ranked sites as GeoJSON points to this file, for the map and QGIS.", valueName: "file"))
    var out: String?

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if (candidates == nil) == !grid { throw ValidationError("give the sites: --candidates FILE (- for standard input) or --grid") }
        if !(100...5_000).contains(spacing) { throw ValidationError("--spacing takes 100 to 5000 metres") }
        if !(1...300).contains(height) { throw ValidationError("--height takes 1 to 300 metres") }
        if !(-20...30).contains(gain) { throw ValidationError("--gain takes -20 to 30 dB") }
        if top < 1 { throw ValidationError("--top takes 1 or more") }
    }

    func run() throws {
        let source = try database.openCoverage()
        guard var plan = GatewayPlan(CoverageModel(try source.coverage.predictionData(CoverageFilter()))) else {
            throw RuntimeFailure("no antenna has a model yet (mtt coverage predict says why): nothing to judge a site by")
        }
        plan.gain = gain
        let cells = try source.coverage.coverageCells(CoverageFilter(), zoom: MapTile.cellZoom, within: nil)
        // Mapped and never heard: your attempts, and the frames trackers sent that nobody heard.
        let mapped = cells.map(\.tile.centre), unheard = cells.filter { $0.state == .notHeard || $0.state == .estimated }.map(\.tile.centre)
        var sites: [GatewayPlan.Site]
        if let candidates {
            sites = try PointsFile.read(candidates).map { GatewayPlan.Site(position: $0, height: $0.altitude ?? height) }
        } else {
            sites = GatewayPlan.grid(over: mapped, spacing: spacing).map { GatewayPlan.Site(position: $0.position, height: height) }
        }
        let ranked = Array(plan.rank(sites, unheard: unheard, mapped: mapped).prefix(top))
        if let out {
            if case .local(let store) = source, store.isOwnFile(out) { throw RuntimeFailure("--out \(out) is the database or one of its files; mtt will not overwrite it") }
            let interrupts = InterruptWatch.leavingOutputAsItWas(out)
            defer { interrupts.cancel() }
            let sink = try TextSink(path: out)
            _ = try CoverageLayer.write(ranked.enumerated().map { CoverageLayer.feature($0.element, rank: $0.offset + 1) }, to: sink)
            try sink.close()
        }
        if output.json {
            for site in ranked { try JSONLine.print(site) }
            return
        }
        Console.out("Sites      \(sites.count) tried against \(CountText.of(unheard.count, "cell")) mapped and never heard, \(mapped.count) mapped")
        for (index, site) in ranked.enumerated() {
            Console.out(String(
                format: "%3d  %.5f, %.5f  %.0f m: %.1f unheard cells expected (%d likely), %d mapped cells covered", index + 1,
                site.site.position.latitude, site.site.position.longitude, site.site.height, site.expectedUnheard, site.unheardCells, site.mappedCells))
        }
    }
}
