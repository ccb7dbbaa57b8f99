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
            """)

    @Option(help: ArgumentHelp("\(ExportFormat.namesText).", valueName: "format"))
    var format: ExportFormat

    @Option(help: ArgumentHelp("The file to write (default: stdout).", valueName: "file"))
    var out: String?

    @Option(help: ArgumentHelp("Only records from this time on (RFC 3339, e.g. 2026-06-21T10:00:00Z).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Only records up to this time (RFC 3339).", valueName: "time"))
    var until: String?

    @Option(help: "Only sessions of this mode: active, matching, listener or imported.")
    var mode: CollectionMode?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, RFC3339.parse(value) == nil { throw ValidationError("\(name) takes an RFC 3339 time such as 2026-06-21T10:00:00Z") }
        }
    }

    func run() throws {
        let store = try database.openStore(.readOnly)
        let filter = ExportFilter(since: since.flatMap(RFC3339.parse), until: until.flatMap(RFC3339.parse), mode: mode)
        if let out, store.isOwnFile(out) {
            throw RuntimeFailure("--out \(out) is the database or one of its files; mtt will not overwrite it")
        }
        let sink = try out.map { try TextSink(path: $0) } ?? TextSink()
        let count = try Exporter.export(store, as: format, filter: filter, to: sink)
        try sink.close()
        if let out { Console.error("mtt: wrote \(count) records to \(out)") }
    }
}

extension ExportFormat: ExpressibleByArgument {}
