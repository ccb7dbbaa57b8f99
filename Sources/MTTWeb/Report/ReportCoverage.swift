import MTTCore

/// The coverage a report carries, so that its map draws cells offline at every zoom: each gateway
/// antenna's zoom-19 cells per spreading factor, the attempts per cell, and the reach polygons.
/// The page sums the rows into tiles as `/api/cells` sums the same rows in SQL, and the tests hold
/// the two to the same tiles.
enum ReportCoverage {
    /// Writes `{"cells": [[x, y, antenna, sf, last, best, best bucket, counts…]…], "antennas": […],
    /// "attempts": [[x, y, sf, attempts, heard, known, last]…], "reach": {GeoJSON}}`; times are
    /// seconds since 1970, counts by `SignalBucket` index (the page's `config.buckets`).
    static func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws {
        let coverage = CoverageFilter(window: filter)
        var antennas: [String: Int] = [:]
        var names: [String] = []
        var separator = "\n"
        try sink.write("{\"cells\": [")
        try store.coverage.forEachGatewayCell(coverage, perSpreadingFactor: true) { cell in
            let key = "\(cell.network)\u{0}\(cell.gateway)\u{0}\(cell.antenna)"
            let index = antennas[key] ?? {
                names.append("{\"gateway\": \(JSONString.quoted(cell.gateway)), \"network\": \(JSONString.quoted(cell.network)), \"antenna\": \(cell.antenna)}")
                antennas[key] = names.count - 1
                return names.count - 1
            }()
            let fields = [cell.tile.x, cell.tile.y, index, cell.spreadingFactor ?? 0, Int(cell.lastAt.secondsSinceEpoch)].map(String.init)
                + ["\(cell.best)", String(SignalBucket(signal: cell.best).rawValue)] + cell.buckets.map(String.init)
            try sink.write(separator + "[" + fields.joined(separator: ",") + "]")
            separator = ",\n"
        }
        try sink.write("],\n\"antennas\": [" + names.joined(separator: ",\n") + "],\n\"attempts\": [")
        separator = "\n"
        try store.coverage.forEachAttemptCell(coverage) { cell in
            let fields = [
                cell.tile.x, cell.tile.y, cell.spreadingFactor, cell.attempts, cell.heard, cell.networkKnown ? 1 : 0, Int(cell.lastAt.secondsSinceEpoch),
                cell.estimated,
            ]
            try sink.write(separator + "[" + fields.map(String.init).joined(separator: ",") + "]")
            separator = ",\n"
        }
        try sink.write("],\n\"reach\": ")
        _ = try CoverageLayer.writeGeoJSON(.reach, store, filter: coverage, to: sink)
        try sink.write("}")
    }
}
