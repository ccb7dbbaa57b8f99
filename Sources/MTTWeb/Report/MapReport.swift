import FoundationEssentials
import Glibc
import MTTCore

/// `mtt report`: the map as one HTML file that opens anywhere, offline — Leaflet, the page's
/// script and style, and the data (status, sessions, gateways, track, samples, coverage) inlined; nothing is
/// fetched but map tiles, and those only when the browser is online. Written as the database is
/// read: 100,000 samples never sit in memory at once.
public enum MapReport {
    /// Writes the report of the records `filter` selects; returns how many samples it holds.
    @discardableResult
    public static func write(_ store: Store, filter: ExportFilter, assets: MapAssets, to sink: TextSink) throws -> Int {
        let encoder = JSONEncoder.stable()
        func json(_ value: some Encodable) throws -> String {
            JSONString.scriptSafe(String(decoding: try encoder.encode(value), as: UTF8.self))
        }
        // The counts of what the report shows: a report of one session said the whole database's.
        let status = LiveStatus(store: try store.status(session: filter.session), run: nil)
        // The data goes in as data blocks; what runs carries this file's nonce (MapPage.reportPolicy).
        let nonce = WebAccess.generateToken()
        let page = MapPage.html(title: try title(store, filter), .init(
            head: "<meta http-equiv=\"Content-Security-Policy\" content=\"\(MapPage.reportPolicy(nonce: nonce))\">\n"
                + "<style nonce=\"\(nonce)\">\n\(MapPage.scriptSafe(assets.leafletStyle))\n</style>\n<style nonce=\"\(nonce)\">\n\(MapStyle.text)\n</style>",
            scripts: "@DATA@"))
        let parts = page.components(separatedBy: "@DATA@")
        try sink.write(parts[0])
        try sink.write("<script nonce=\"\(nonce)\">\n\(MapPage.scriptSafe(assets.leafletScript))\n</script>\n")
        try sink.write(MapPage.dataBlock("mtt-config", assets.configuration) + "\n")
        // Every string in the data is written by JSONString, which escapes `<`: none can end the block.
        try sink.write("<script type=\"application/json\" id=\"mtt-data\">\n{\"status\": \(try json(status)),\n\"sessions\": \(try json(try store.sessions.sessions(since: Timestamp(nanosecondsSinceEpoch: 0)).filter { filter.session == nil || $0.id == filter.session })),\n")
        try sink.write("\"gateways\": \(try json(try store.coverage.gatewaySummaries(filter))),\n\"track\": ")
        try TrackGeoJSONWriter.write(store, filter: filter, to: sink)
        try sink.write(",\n\"samples\": ")
        let count = try Exporter.export(store, as: .geojson, filter: filter, to: sink)
        try sink.write(",\n\"coverage\": ")
        try ReportCoverage.write(store, filter: filter, to: sink)
        try sink.write("}\n</script>\n<script nonce=\"\(nonce)\">\n\(MapPage.scriptSafe(MapScript.text))\n</script>")
        try sink.write(parts.count > 1 ? parts[1] : "")
        try sink.flush()
        return count
    }

    /// "A40 eastbound · 2026-06-21 · mtt coverage" for one session (its name, else its number);
    /// "mtt coverage report" for all.
    static func title(_ store: Store, _ filter: ExportFilter) throws -> String {
        guard let id = filter.session, let session = try store.sessions.session(id) else { return "mtt coverage report" }
        let day = String(RFC3339.string(session.startedAt, fractionDigits: 0).prefix(10))
        return "\(session.name ?? "Session \(id)") · \(day) · mtt coverage"
    }
}
