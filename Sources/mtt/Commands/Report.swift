import ArgumentParser
import Foundation
import MTTCore
import MTTWeb

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the coverage map as one HTML file that opens offline, to share.",
        discussion: """
            The file holds everything: Leaflet, the page, the samples, track, gateways and tables. \
            It needs no server and no network; map tiles appear under the dots when the browser is \
            online.
            """)

    @Option(help: ArgumentHelp("The HTML file to write.", valueName: "file.html"))
    var out: String

    @OptionGroup var window: TimeWindowOptions

    @Option(help: ArgumentHelp("Map tiles when online: a URL with {z}/{x}/{y}, or none (default OpenStreetMap).", valueName: "url"))
    var tiles: String?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        _ = try window.filter()
        do { _ = try MapServing.tileTemplate(tiles) } catch { throw ValidationError("--tiles \(error.reason)") }
    }

    func run() throws {
        let store = try database.openStore(.readOnly)
        if store.isOwnFile(out) { throw RuntimeFailure("--out \(out) is the database or one of its files; mtt will not overwrite it") }
        try window.checkSession(in: store)
        let assets: MapAssets
        do {
            assets = try MapAssets.load(tiles: try MapServing.tileTemplate(tiles))
        } catch {
            throw RuntimeFailure("\(error)")
        }
        let interrupts = InterruptWatch.leavingOutputAsItWas(out)
        defer { interrupts.cancel() }
        let sink = try TextSink(path: out)
        let count = try MapReport.write(store, filter: try window.filter(), assets: assets, to: sink)
        try sink.close()
        Console.error("mtt: wrote \(count) samples to \(out)")
    }
}
