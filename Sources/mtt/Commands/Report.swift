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

    @Option(help: ArgumentHelp("Only this session.", valueName: "n"))
    var session: Int64?

    @Option(help: ArgumentHelp("Only records from this time on (RFC 3339).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Map tiles when online: a URL with {z}/{x}/{y}, or none (default OpenStreetMap).", valueName: "url"))
    var tiles: String?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if session != nil && since != nil { throw ValidationError("give --session or --since, not both") }
        if let since, RFC3339.parse(since) == nil { throw ValidationError("--since takes an RFC 3339 time such as 2026-06-21T10:00:00Z") }
        if let session, session < 1 { throw ValidationError("--session takes a session number (mtt status counts them)") }
        do { _ = try MapServing.tileTemplate(tiles) } catch { throw ValidationError("--tiles \(error.reason)") }
    }

    func run() throws {
        let store = try database.openStore(.readOnly)
        if store.isOwnFile(out) { throw RuntimeFailure("--out \(out) is the database or one of its files; mtt will not overwrite it") }
        if let session, try store.session(session) == nil { throw RuntimeFailure("there is no session \(session) in \(store.path)") }
        let assets: MapAssets
        do {
            assets = try MapAssets.load(tiles: try MapServing.tileTemplate(tiles))
        } catch {
            throw RuntimeFailure("\(error)")
        }
        let sink = try TextSink(path: out)
        let count = try MapReport.write(store, filter: ExportFilter(since: since.flatMap(RFC3339.parse), session: session), assets: assets, to: sink)
        try sink.close()
        Console.error("mtt: wrote \(count) samples to \(out)")
    }
}
