/// What `mtt export --format geojson --layer` writes, and the map's coverage API serves: the
/// samples (points, as ever), the cells, each gateway's reach, the gateways, the frames trackers
/// sent that nobody heard (estimated, placed ones only), the tiles nobody measured, predicted, and
/// the cells of places gateways moved from (history, in no other layer).
public enum CoverageLayer: String, Sendable, CaseIterable {
    case samples, cells, reach, gateways, estimated, predicted, moved

    /// A cell's colour: TTN Mapper's band of its commonest bucket; black where you sent and nobody
    /// heard, grey where nobody can say, purple where only a tracker's estimated frames say so.
    public static func color(_ cell: CoverageCell) -> String {
        switch cell.state {
        case .heard: (cell.commonest ?? .low).band.hexColor
        case .notHeard: notHeardColor
        case .unknown: unknownColor
        case .estimated: estimatedColor
        case .heardByLinkCheck: linkCheckColor
        }
    }

    public static let notHeardColor = SignalBand.black.hexColor
    public static let unknownColor = "#9e9e9e"
    /// Purple: apart from the signal bands, black and grey, so an estimate never reads as a
    /// measurement.
    public static let estimatedColor = "#7b1fa2"
    /// Teal: heard by the modem's link check alone, with no signal measured, so never one of
    /// the signal bands.
    public static let linkCheckColor = "#00897b"

    /// A reach level's colour: the band of its threshold.
    public static func color(_ level: ReachLevel) -> String {
        level.threshold.map { SignalBucket(signal: $0 + 0.1).band.hexColor } ?? SignalBand.blue.hexColor
    }

    /// Writes the layer as a GeoJSON FeatureCollection; returns how many features it holds.
    public static func writeGeoJSON(_ layer: CoverageLayer, _ store: Store, filter: CoverageFilter, to sink: TextSink) throws -> Int {
        switch layer {
        case .samples:
            return try Exporter.export(store, as: .geojson, filter: filter.window, to: sink)
        case .cells:
            return try write(try store.coverage.coverageCells(filter).map(Self.feature), to: sink)
        case .reach:
            return try write(try store.coverage.reach(gateway: filter.gateway).flatMap(Self.features), to: sink)
        case .gateways:
            let suspect = GatewayPositionCheck.contradicted(try store.coverage.predictionData(filter))
            return try write(try store.coverage.coverageGateways(filter).compactMap { Self.feature($0, positionCheck: suspect[$0.gateway]) }, to: sink)
        case .estimated:
            var features: [Feature] = []
            try store.records.forEachEstimatedAttempt(filter.window) { attempt in
                if let feature = feature(attempt) { features.append(feature) }
            }
            return try write(features, to: sink)
        case .predicted:
            return try write(try predictedTiles(store, filter, try store.coverage.predictionData(filter)).map(Self.feature), to: sink)
        case .moved:
            var features: [Feature] = []
            try store.coverage.forEachMovedCell(filter) { features.append(Self.feature(moved: $0)) }
            return try write(features, to: sink)
        }
    }

    /// GeoJSON for a cell of a place its gateway moved from: history, coloured by its best signal.
    public static func feature(moved cell: GatewayCell) -> Feature {
        Feature(geometry: .polygon([cell.tile.ring]), properties: [
            "z": .int(cell.tile.zoom), "x": .int(cell.tile.x), "y": .int(cell.tile.y), "state": .text("moved"), "gateway": .text(cell.gateway),
            "network": .text(cell.network), "antenna": .int(cell.antenna),
            "moved_at": cell.movedAt.map { .text(RFC3339.string($0, fractionDigits: 0)) } ?? .null, "receptions": .int(cell.receptions),
            "buckets": counts(cell.buckets), "best": .number(cell.best), "color": .text(SignalBucket(signal: cell.best).band.hexColor),
            "first": .text(RFC3339.string(cell.firstAt, fractionDigits: 0)), "last": .text(RFC3339.string(cell.lastAt, fractionDigits: 0)),
        ])
    }

    /// The predicted layer of what `filter` selects: the models fitted to its antennas' `data`
    /// (`StoreCoverage.predictionData`), over the tiles around those mapped.
    public static func predictedTiles(_ store: Store, _ filter: CoverageFilter, _ data: [AntennaData]) throws -> [PredictedTile] {
        let model = CoverageModel(data)
        let mapped = Set(try store.coverage.coverageCells(filter, zoom: PredictedTile.zoom).map(\.tile))
        return model.predictedTiles(around: mapped)
    }

    /// GeoJSON for a site `mtt coverage plan` ranked.
    public static func feature(_ site: GatewayPlan.Ranked, rank: Int) -> Feature {
        Feature(geometry: .point(site.site.position), properties: [
            "rank": .int(rank), "height": .number(site.site.height), "expected_unheard_cells": .number(site.expectedUnheard.rounded(toPlaces: 1)),
            "unheard_cells": .int(site.unheardCells), "mapped_cells": .int(site.mappedCells),
        ])
    }

    /// GeoJSON for a predicted tile: never a measurement, so `state` is `predicted` and the colour
    /// is the band of the best antenna's predicted signal (a map draws it pale or hatched).
    public static func feature(_ p: PredictedTile) -> Feature {
        let s = p.best.prediction
        return Feature(geometry: .polygon([p.tile.ring]), properties: [
            "z": .int(p.tile.zoom), "x": .int(p.tile.x), "y": .int(p.tile.y), "state": .text("predicted"), "predicted": .bool(true),
            "p_heard_any": .number(p.pHeardAny.rounded(toPlaces: 3)), "gateway": .text(p.best.key.gateway), "network": .text(p.best.key.network),
            "antenna": .int(p.best.key.antenna), "signal": s.map { .number($0.signal.rounded(toPlaces: 1)) } ?? .null,
            "low": s.map { .number($0.low.rounded(toPlaces: 1)) } ?? .null, "high": s.map { .number($0.high.rounded(toPlaces: 1)) } ?? .null,
            "p_heard": s.map { .number($0.pHeard.rounded(toPlaces: 3)) } ?? .null,
            "color": .text(s.map { SignalBucket(signal: $0.signal).band.hexColor } ?? unknownColor),
        ])
    }

    /// GeoJSON for one cell: its outline, counts and colour.
    public static func feature(_ cell: CoverageCell) -> Feature {
        Feature(geometry: .polygon([cell.tile.ring]), properties: [
            "z": .int(cell.tile.zoom), "x": .int(cell.tile.x), "y": .int(cell.tile.y), "state": .text(cell.state.rawValue),
            "color": .text(color(cell)), "bucket": cell.commonest.map { .text($0.name) } ?? .null,
            "best": cell.best.map { .number($0) } ?? .null, "best_bucket": cell.bestBucket.map { .text($0.name) } ?? .null,
            "best_color": cell.bestBucket.map { .text($0.band.hexColor) } ?? .null,
            "receptions": .int(cell.receptions), "buckets": counts(cell.buckets), "gateways": .int(cell.gateways),
            "attempts": .int(cell.attempts), "heard_attempts": .int(cell.heardAttempts), "estimated_attempts": .int(cell.estimatedAttempts),
            "linkcheck_checked": .int(cell.linkChecks?.checked ?? 0), "linkcheck_answered": .int(cell.linkChecks?.answered ?? 0),
            "linkcheck_gateways": cell.linkChecks.map { .int($0.gateways) } ?? .null,
            "linkcheck_margin": cell.linkChecks?.margin.map { .int($0) } ?? .null,
            "first": .text(RFC3339.string(cell.firstAt, fractionDigits: 0)), "last": .text(RFC3339.string(cell.lastAt, fractionDigits: 0)),
        ])
    }

    /// GeoJSON for each cell a `CoverageDiff` found changed: `change` is `new` (newly heard) or
    /// `lost` (heard before, mapped again since and not heard).
    public static func features(_ diff: CoverageDiff) -> [Feature] {
        diff.newlyHeard.map { ($0, "new") }.map(changed) + diff.lost.map { ($0, "lost") }.map(changed)
    }

    private static func changed(_ tile: MapTile, _ change: String) -> Feature {
        Feature(geometry: .polygon([tile.ring]), properties: ["z": .int(tile.zoom), "x": .int(tile.x), "y": .int(tile.y), "change": .text(change)])
    }

    /// GeoJSON for one gateway antenna's share of a tile: what a click on a map's cell lists.
    public static func feature(_ cell: GatewayCell) -> Feature {
        Feature(geometry: .polygon([cell.tile.ring]), properties: [
            "z": .int(cell.tile.zoom), "x": .int(cell.tile.x), "y": .int(cell.tile.y),
            "gateway": .text(cell.gateway), "network": .text(cell.network), "antenna": .int(cell.antenna),
            "receptions": .int(cell.receptions), "buckets": counts(cell.buckets), "best": .number(cell.best),
            "first": .text(RFC3339.string(cell.firstAt, fractionDigits: 0)), "last": .text(RFC3339.string(cell.lastAt, fractionDigits: 0)),
        ])
    }

    /// Bucket counts by TTN Mapper's names, the empty ones left out.
    static func counts(_ buckets: [Int]) -> Feature.Value {
        var named: [String: Int] = [:]
        for bucket in SignalBucket.allCases where buckets[bucket.rawValue] > 0 { named[bucket.name] = buckets[bucket.rawValue] }
        return .counts(named)
    }

    /// One polygon per level the gateway antenna reaches.
    public static func features(_ reach: GatewayReach) -> [Feature] {
        ReachLevel.allCases.filter(reach.reaches).map { level in
            Feature(geometry: .polygon([reach.polygon(level)]), properties: [
                "gateway": .text(reach.gateway), "network": .text(reach.network), "antenna": .int(reach.antenna),
                "level": .text(level.name), "threshold": level.threshold.map { .number($0) } ?? .null, "color": .text(color(level)),
                "samples": .int(reach.beams.filter { $0.level == level }.reduce(0) { $0 + $1.samples }),
            ])
        }
    }

    /// A frame a tracker sent that nobody heard, where it was estimated to be; nil when unplaced.
    public static func feature(_ attempt: EstimatedAttempt) -> Feature? {
        guard let position = attempt.position else { return nil }
        return Feature(geometry: .point(position), properties: [
            "time": .text(RFC3339.string(attempt.sentAt, fractionDigits: 3)), "session": .int(Int(attempt.sessionID)),
            "device": .text(attempt.deviceID), "dev_eui": attempt.devEUI.map { .text($0) } ?? .null, "f_cnt": .int(Int(attempt.fCnt)),
            "sf": attempt.spreadingFactor.map { .int($0) } ?? .null, "estimated": .bool(true), "color": .text(estimatedColor),
        ])
    }

    /// `positionCheck`: what the gateway's receptions say of the position it reports, when they
    /// contradict it (`GatewayPositionCheck`).
    public static func feature(_ g: CoverageSummary.Gateway, positionCheck: String? = nil) -> Feature? {
        guard let position = g.position else { return nil }
        return Feature(geometry: .point(position), properties: [
            "position_check": positionCheck.map { .text($0) } ?? .null,
            "gateway": .text(g.gateway), "network": .text(g.network), "antenna": .int(g.antenna), "estimated": .bool(g.estimated),
            "cells": .int(g.cells), "receptions": .int(g.receptions), "best": .number(g.best),
            "first_heard": .text(RFC3339.string(g.firstHeard, fractionDigits: 0)), "last_heard": .text(RFC3339.string(g.lastHeard, fractionDigits: 0)),
            // To the centimetre: a community's PostgreSQL computes it with sines that differ from
            // Swift's in the last bits, and a tile or a file is then the same bytes from either.
            "farthest_m": g.farthest.map { .number($0.metres.rounded(toPlaces: 2)) } ?? .null,
        ])
    }

    /// Writes features as a FeatureCollection.
    /// A lazy sequence is made into features one at a time, as they are written.
    public static func write(_ features: some Sequence<Feature>, to sink: TextSink) throws -> Int {
        try sink.write(#"{"type":"FeatureCollection","features":["#)
        var count = 0
        for feature in features {
            try sink.write((count == 0 ? "\n" : ",\n") + feature.json)
            count += 1
        }
        try sink.write("\n]}\n")
        return count
    }

    /// A GeoJSON Feature (RFC 7946: `[longitude, latitude]`, outer rings counter-clockwise).
    ///
    /// Written by hand, as the samples' GeoJSON is: a city view's 2,000 tiles took 100 ms through
    /// JSONEncoder, as long as reading them. Properties in key order; strings through
    /// `JSONString`, so `<` is escaped (a report carries the text inside a script block).
    public struct Feature: Sendable {
        public enum Geometry: Sendable {
            case point(GeoPoint)
            case polygon([[GeoPoint]])

            var json: String {
                func position(_ p: GeoPoint) -> String { "[\(JSONString.number(p.longitude)),\(JSONString.number(p.latitude))]" }
                switch self {
                case .point(let p):
                    return #"{"type":"Point","coordinates":"# + position(p) + "}"
                case .polygon(let rings):
                    let text = rings.map { "[" + $0.map(position).joined(separator: ",") + "]" }.joined(separator: ",")
                    return #"{"type":"Polygon","coordinates":["# + text + "]}"
                }
            }
        }

        public enum Value: Sendable {
            case text(String), int(Int), number(Double), bool(Bool), counts([String: Int]), null

            var json: String {
                switch self {
                case .text(let v): JSONString.quoted(v)
                case .int(let v): String(v)
                case .number(let v): JSONString.number(v)
                case .bool(let v): v ? "true" : "false"
                case .counts(let v): "{" + v.sorted { $0.key < $1.key }.map { JSONString.quoted($0.key) + ":" + String($0.value) }.joined(separator: ",") + "}"
                case .null: "null"
                }
            }
        }

        public var geometry: Geometry
        public var properties: [String: Value]

        public var json: String {
            let properties = self.properties.sorted { $0.key < $1.key }.map { JSONString.quoted($0.key) + ":" + $0.value.json }.joined(separator: ",")
            return #"{"geometry":"# + geometry.json + #","properties":{"# + properties + #"},"type":"Feature"}"#
        }
    }
}
