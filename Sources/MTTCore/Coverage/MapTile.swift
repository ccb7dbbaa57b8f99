import FoundationEssentials
import Glibc

/// A Web Mercator (OSM slippy-map) tile. At zoom 19 it is a coverage cell, about 76 m × cos(lat) a
/// side: the same x/y as TTN Mapper's grid cells and OSM's tiles, so cells compare one to one.
public struct MapTile: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The zoom of coverage cells; coarser tiles are made from them (`parent`), never from samples.
    public static let cellZoom = 19
    /// Web Mercator's edge: the latitude whose y is 0 (and the negative one's last row).
    public static let maximumLatitude = 85.0511287798066

    public var zoom: Int
    public var x: Int
    public var y: Int

    public init(zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// The tile holding `point` (its latitude clamped to Web Mercator's edge).
    public init(containing point: GeoPoint, zoom: Int = cellZoom) {
        self.init(zoom: zoom, x: Self.x(longitude: point.longitude, zoom: zoom), y: Self.y(latitude: point.latitude, zoom: zoom))
    }

    /// x = ⌊(lon + 180)/360 · 2^zoom⌋, within the zoom's columns.
    public static func x(longitude: Double, zoom: Int = cellZoom) -> Int {
        let n = Double(1 << zoom)
        return min(max(Int(((longitude + 180) / 360 * n).rounded(.down)), 0), (1 << zoom) - 1)
    }

    /// y = ⌊(1 − ln(tan φ + sec φ)/π)/2 · 2^zoom⌋, within the zoom's rows.
    public static func y(latitude: Double, zoom: Int = cellZoom) -> Int {
        let φ = min(max(latitude, -maximumLatitude), maximumLatitude) * .pi / 180
        let n = Double(1 << zoom)
        return min(max(Int(((1 - log(tan(φ) + 1 / cos(φ)) / .pi) / 2 * n).rounded(.down)), 0), (1 << zoom) - 1)
    }

    /// The tile at a coarser zoom that holds this one.
    public func parent(atZoom coarser: Int) -> MapTile {
        precondition(coarser <= zoom, "a parent is at a coarser zoom")
        return MapTile(zoom: coarser, x: x >> (zoom - coarser), y: y >> (zoom - coarser))
    }

    /// The tile's corner nearest the north-west (its top left on the map).
    public var northWest: GeoPoint { Self.corner(x: x, y: y, zoom: zoom) }
    public var southEast: GeoPoint { Self.corner(x: x + 1, y: y + 1, zoom: zoom) }

    /// The middle of the tile (halfway between its corners in degrees).
    public var centre: GeoPoint {
        let nw = northWest, se = southEast
        return GeoPoint(latitude: (nw.latitude + se.latitude) / 2, longitude: (nw.longitude + se.longitude) / 2)
    }

    /// The tile's outline, counter-clockwise from the south-west corner and closed (GeoJSON's and
    /// GeoPackage's order for an outer ring).
    public var ring: [GeoPoint] {
        let nw = northWest, se = southEast
        return [
            GeoPoint(latitude: se.latitude, longitude: nw.longitude), se, GeoPoint(latitude: nw.latitude, longitude: se.longitude), nw,
            GeoPoint(latitude: se.latitude, longitude: nw.longitude),
        ]
    }

    private static func corner(x: Int, y: Int, zoom: Int) -> GeoPoint {
        let n = Double(1 << zoom)
        let longitude = Double(x) / n * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * Double(y) / n))) * 180 / .pi
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    public var description: String { "\(zoom)/\(x)/\(y)" }
}
