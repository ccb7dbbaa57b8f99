import Dispatch
import Glibc
import Synchronization

/// One tile of the predicted layer: a place nobody measured, within some antenna's reach, with the
/// chance anyone hears you there and the antenna expected to hear you best.
public struct PredictedTile: Sendable {
    public var tile: MapTile
    public var pHeardAny: Double
    public var best: PointPrediction.Antenna

    /// Zoom 17: four zoom-19 cells a side (about 300 m × cos(lat)), fine enough for a street
    /// pattern and coarse enough that a town is a few thousand tiles.
    public static let zoom = 17
    /// How far around the mapped area the layer goes.
    public static let margin = 2_000.0
}

extension CoverageModel {
    /// The tiles at `PredictedTile.zoom` within `margin` of a `mapped` one that none of them is,
    /// and that at least one antenna's model reaches: predicted at their centre. Around each mapped
    /// tile, not over the box of them all: two cities mapped in one database are two areas.
    public func predictedTiles(around mapped: Set<MapTile>, within view: TileRange? = nil) -> [PredictedTile] {
        let zoom = PredictedTile.zoom
        var candidates = Set<MapTile>()
        for tile in mapped {
            // A tile's side at its latitude: the equator's 40,075 km over 2^zoom, times cos(lat).
            let side = 40_075_016.7 / Double(1 << zoom) * max(cos(tile.northWest.latitude * .pi / 180), 0.01)
            let k = Int((PredictedTile.margin / side).rounded(.up))
            for dy in -k...k {
                for dx in -k...k {
                    let x = tile.x + dx, y = tile.y + dy
                    guard (0..<(1 << zoom)).contains(x), (0..<(1 << zoom)).contains(y) else { continue }
                    if let view, !(view.minX...view.maxX).contains(x) || !(view.minY...view.maxY).contains(y) { continue }
                    candidates.insert(MapTile(zoom: zoom, x: x, y: y))
                }
            }
        }
        let unmapped = candidates.subtracting(mapped).sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) })
        // In runs on every core, put back in order.
        let runs = max(1, min(unmapped.count / 64, 64))
        let predicted = Mutex([[PredictedTile]](repeating: [], count: runs))
        DispatchQueue.concurrentPerform(iterations: runs) { run in
            var tiles: [PredictedTile] = []
            for tile in unmapped[(run * unmapped.count / runs)..<((run + 1) * unmapped.count / runs)] {
                let point = predict(at: tile.centre)
                guard let best = point.gateways.filter({ $0.prediction != nil }).max(by: { $0.prediction!.pHeard < $1.prediction!.pHeard }) else { continue }
                tiles.append(PredictedTile(tile: tile, pHeardAny: point.pHeardAny, best: best))
            }
            predicted.withLock { $0[run] = tiles }
        }
        return predicted.withLock { $0 }.flatMap { $0 }
    }
}

