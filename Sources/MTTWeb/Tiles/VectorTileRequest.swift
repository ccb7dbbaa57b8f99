import MTTCore

/// `GET /tiles/{layer}/{z}/{x}/{y}.mvt`: the coverage as Mapbox vector tiles, for QGIS's "Vector
/// Tiles" connection and anything else that reads them, cacheable by whatever stands between.
/// Made from the same aggregates as the JSON routes, by the same code for a local database and a
/// community's, so one tile is the same bytes from either holding the same data.
struct VectorTileRequest {
    enum Layer: String, CaseIterable {
        /// The cells as the page draws them at the tile's zoom: of zoom z + 5 (a 256-pixel tile
        /// holds 32 a side), zoom 19 from tile zoom 14 on; what `/api/cells` gives for the tile.
        case cells
        /// The same cells where you sent and nobody heard.
        case unheard
        case reach
        case gateways
        /// From tile zoom 12, as `/api/predicted`.
        case predicted
    }

    static let prefix = "/tiles/"
    /// The cells' zoom is the tile's plus this, as the page's.
    static let cellZoomStep = 5

    let layer: Layer
    let tile: MapTile

    /// Nil for a path that is not a tile's.
    init?(path: String) throws(MapQuery.Invalid) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        let parts = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasSuffix(".mvt") else {
            throw MapQuery.Invalid(description: "a tile is /tiles/LAYER/Z/X/Y.mvt, not \(path)")
        }
        guard let layer = Layer(rawValue: String(parts[0])) else {
            throw MapQuery.Invalid(description: "no layer \(parts[0]): the tiles' layers are \(Layer.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let z = Int(parts[1]), (0...MapTile.cellZoom).contains(z), let x = Int(parts[2]), let y = Int(parts[3].dropLast(".mvt".count)),
              (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y)
        else {
            throw MapQuery.Invalid(description: "no tile \(parts[1])/\(parts[2])/\(parts[3]): z is 0 to \(MapTile.cellZoom), x and y 0 to 2^z − 1")
        }
        self.layer = layer
        tile = MapTile(zoom: z, x: x, y: y)
    }

    /// The tile's cells' zoom, and their range.
    var cells: TileRange {
        let zoom = min(tile.zoom + Self.cellZoomStep, MapTile.cellZoom), shift = zoom - tile.zoom
        return TileRange(zoom: zoom, minX: tile.x << shift, minY: tile.y << shift, maxX: ((tile.x + 1) << shift) - 1, maxY: ((tile.y + 1) << shift) - 1)
    }

    /// Whether a feature's bounding box meets the tile.
    func meets(_ geometry: CoverageLayer.Feature.Geometry) -> Bool {
        let nw = tile.northWest, se = tile.southEast
        let points: [GeoPoint]
        switch geometry {
        case .point(let p): points = [p]
        case .polygon(let rings): points = rings.first ?? []
        }
        guard let west = points.map(\.longitude).min(), let east = points.map(\.longitude).max(),
              let south = points.map(\.latitude).min(), let north = points.map(\.latitude).max()
        else { return false }
        return west <= se.longitude && east >= nw.longitude && south <= nw.latitude && north >= se.latitude
    }
}
