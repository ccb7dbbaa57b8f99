import ArgumentParser
import Foundation
import MTTCore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write samples and tracks for QGIS, Google Earth, spreadsheets and scripts.",
        discussion: """
            Each heard sample is a point with its best gateway, RSSI and SNR; attempts the network did \
            not hear are points too (status lost or failed; black in KML). GPX adds the track. \
            KML colours follow TTN Mapper: RSSI + min(SNR, 0) above −100 red … −120 and below blue.

            Formats:
            \(ExportFormat.registered.map { "  \($0.name): \($0.help)" }.joined(separator: "\n"))

            GeoJSON also writes the coverage (mtt coverage): --layer cells (zoom-19 tiles, coloured by \
            their commonest signal bucket; black where you sent and nobody heard, purple where only a \
            tracker's estimated frames went unheard), --layer reach (a polygon per gateway and signal \
            level), --layer gateways (points; estimated positions flagged), --layer estimated (the \
            frames trackers sent that nobody heard, estimated from the gaps in their frame counters: \
            never mixed with the measured samples and attempts).
            """)

    @Option(help: ArgumentHelp("\(ExportFormat.namesText).", valueName: "format"))
    var format: ExportFormat

    @Option(help: ArgumentHelp("The file to write (default: stdout); a file already there is replaced only once the new one is complete.", valueName: "file"))
    var out: String?

    @Option(help: ArgumentHelp("With --format geojson: \(CoverageLayer.allCases.map(\.rawValue).joined(separator: ", ")) (default samples).", valueName: "layer"))
    var layer: CoverageLayer = .samples

    @Option(help: ArgumentHelp("With a coverage layer: only this gateway's receptions.", valueName: "id"))
    var gateway: String?

    @OptionGroup var window: TimeWindowOptions

    @Option(help: "Only sessions of this mode: active, matching, listener or imported.")
    var mode: CollectionMode?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        _ = try window.filter()
        if layer != .samples && format.name != ExportFormat.geojson.name {
            throw ValidationError("--layer \(layer.rawValue) is written as GeoJSON only: add --format geojson")
        }
        if format.writer.needsFile && out == nil { throw ValidationError("--format \(format.name) writes a database file, not a stream: give --out FILE") }
        if gateway != nil && layer == .samples { throw ValidationError("--gateway goes with --layer cells, reach or gateways") }
    }

    func run() throws {
        let store = try database.openStore(.readOnly)
        var filter = try window.filter()
        filter.mode = mode
        try window.checkSession(in: store)
        if let out, store.isOwnFile(out) {
            throw RuntimeFailure("--out \(out) is the database or one of its files; mtt will not overwrite it")
        }
        let interrupts = InterruptWatch.leavingOutputAsItWas(out)
        defer { interrupts.cancel() }
        let sink = try out.map { try TextSink(path: $0) } ?? TextSink()
        let count = layer == .samples
            ? try Exporter.export(store, as: format, filter: filter, to: sink)
            : try CoverageLayer.writeGeoJSON(layer, store, filter: CoverageFilter(window: filter, gateway: gateway), to: sink)
        try sink.close()
        if let out { Console.error("mtt: wrote \(count) \(layer == .samples ? "records" : "\(layer.rawValue) features") to \(out)") }
    }
}

extension ExportFormat: ExpressibleByArgument {}
extension CoverageLayer: ExpressibleByArgument {}
