import ArgumentParser

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write samples and tracks as GPX, GeoJSON, CSV or KML for QGIS and Google Earth.")

    @Option(help: "gpx, geojson, csv or kml.")
    var format: String

    @Option(help: ArgumentHelp("The file to write (default: stdout).", valueName: "file"))
    var out: String?

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        throw RuntimeFailure.notImplemented("export")
    }
}
