import Glibc
import MTTCore

/// One layer of a Mapbox vector tile (MVT 2.1) being made from the features the GeoJSON routes
/// give: geometry in the tile's own grid (`extent` units a side, y down, Web Mercator),
/// properties dictionary-coded as the format wants. A feature's bucket counts, an object in
/// GeoJSON, become one field per bucket (`buckets_high`, `buckets_100`, …), as the GeoPackage's
/// columns are.
struct VectorTileLayer {
    static let extent: UInt32 = 4096
    private let tile: MapTile
    private(set) var layer = VectorTile_Tile.Layer()
    private var keys: [String: UInt32] = [:]
    private var values: [ValueKey: UInt32] = [:]

    /// Values told apart as the format stores them (a double and an integer are two values).
    private enum ValueKey: Hashable {
        case text(String), int(Int), number(Double), bool(Bool)
    }

    init(name: String, tile: MapTile) {
        self.tile = tile
        layer.version = 2
        layer.name = name
        layer.extent = Self.extent
    }

    var isEmpty: Bool { layer.features.isEmpty }

    /// Adds `feature` unless its geometry vanishes at this zoom (a ring thinner than a unit).
    mutating func add(_ feature: CoverageLayer.Feature) {
        var f = VectorTile_Tile.Feature()
        switch feature.geometry {
        case .point(let p):
            let (x, y) = grid(p)
            f.type = .point
            f.geometry = [Self.command(1, count: 1), Self.zigzag(x), Self.zigzag(y)]
        case .polygon(let rings):
            var geometry: [UInt32] = []
            var cursor = (x: Int32(0), y: Int32(0))
            for (index, ring) in rings.enumerated() {
                var points = ring.map(grid)
                // A ring's closing point is the format's ClosePath, and repeats are no vertices.
                if points.count > 1, points.first! == points.last! { points.removeLast() }
                points = points.enumerated().filter { $0.offset == 0 || $0.element != points[$0.offset - 1] }.map(\.element)
                guard points.count >= 3 else {
                    if index == 0 { return }
                    continue
                }
                // The exterior ring runs clockwise on screen (y down), holes the other way.
                if (Self.area(points) > 0) != (index == 0) { points.reverse() }
                geometry.append(Self.command(1, count: 1))
                geometry += [Self.zigzag(points[0].x - cursor.x), Self.zigzag(points[0].y - cursor.y)]
                geometry.append(Self.command(2, count: points.count - 1))
                for (a, b) in zip(points, points.dropFirst()) { geometry += [Self.zigzag(b.x - a.x), Self.zigzag(b.y - a.y)] }
                geometry.append(Self.command(7, count: 1))
                cursor = points[points.count - 1]
            }
            f.type = .polygon
            f.geometry = geometry
        }
        for (key, value) in feature.properties.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .null: continue
            case .counts(let counts):
                for (bucket, n) in counts.sorted(by: { $0.key < $1.key }) { f.tags += [self.key("\(key)_\(bucket)"), self.value(.int(n))] }
            case .text(let v): f.tags += [self.key(key), self.value(.text(v))]
            case .int(let v): f.tags += [self.key(key), self.value(.int(v))]
            case .number(let v): f.tags += [self.key(key), self.value(.number(v))]
            case .bool(let v): f.tags += [self.key(key), self.value(.bool(v))]
            }
        }
        layer.features.append(f)
    }

    private mutating func key(_ name: String) -> UInt32 {
        if let known = keys[name] { return known }
        let index = UInt32(layer.keys.count)
        layer.keys.append(name)
        keys[name] = index
        return index
    }

    private mutating func value(_ v: ValueKey) -> UInt32 {
        if let known = values[v] { return known }
        var value = VectorTile_Tile.Value()
        switch v {
        case .text(let s): value.stringValue = s
        case .int(let n): value.sintValue = Int64(n)
        case .number(let d): value.doubleValue = d
        case .bool(let b): value.boolValue = b
        }
        let index = UInt32(layer.values.count)
        layer.values.append(value)
        values[v] = index
        return index
    }

    /// A place in the tile's grid: Web Mercator, the tile's north-west corner at 0, 0.
    private func grid(_ p: GeoPoint) -> (x: Int32, y: Int32) {
        let n = Double(1 << tile.zoom)
        let φ = min(max(p.latitude, -MapTile.maximumLatitude), MapTile.maximumLatitude) * .pi / 180
        let x = ((p.longitude + 180) / 360 * n - Double(tile.x)) * Double(Self.extent)
        let y = ((1 - log(tan(φ) + 1 / cos(φ)) / .pi) / 2 * n - Double(tile.y)) * Double(Self.extent)
        return (Int32(x.rounded()), Int32(y.rounded()))
    }

    /// Twice the signed area of a ring (the surveyor's formula), positive for clockwise on screen.
    private static func area(_ ring: [(x: Int32, y: Int32)]) -> Int64 {
        var sum: Int64 = 0
        for (a, b) in zip(ring, ring.dropFirst() + [ring[0]]) { sum += Int64(a.x) * Int64(b.y) - Int64(b.x) * Int64(a.y) }
        return sum
    }

    private static func command(_ id: UInt32, count: Int) -> UInt32 { (id & 0x7) | (UInt32(count) << 3) }
    private static func zigzag(_ n: Int32) -> UInt32 { UInt32(bitPattern: (n << 1) ^ (n >> 31)) }
}

extension Array where Element == VectorTileLayer {
    /// The tile's bytes: its layers that hold a feature.
    func encoded() throws -> [UInt8] {
        var tile = VectorTile_Tile()
        tile.layers = filter { !$0.isEmpty }.map(\.layer)
        return try tile.serializedBytes()
    }
}
