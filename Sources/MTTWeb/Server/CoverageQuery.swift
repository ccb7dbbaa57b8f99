import MTTCore

/// `/api/cells?z=13&bbox=west,south,east,north`, `/api/cell?z=&x=&y=` and `/api/reach?gateway=…`:
/// the map's filters and the coverage ones, each checked; a value that cannot be read is a 400
/// with the reason.
struct CoverageQuery: Sendable, Hashable {
    enum Kind: Sendable {
        /// The tiles of a view: `z` and `bbox`.
        case cells
        /// One tile's gateways: `z`, `x`, `y`.
        case cell
        /// A gateway's reach.
        case reach
    }

    /// More tiles than this in one answer is a view no map shows: zoom in or out.
    static let largestTileCount = 262_144

    var filter = CoverageFilter()
    var range: TileRange?
    /// `silent=show`: the cells of gateways silent for `silent_days` (default 5) are in the answer,
    /// marked; by default they are left out (`SilentGateways`).
    var showSilent = false
    var silentDays = SilentGateways.defaultDays

    init(_ items: [(name: String, value: String)], _ kind: Kind) throws(MapQuery.Invalid) {
        let names: Set<String> = switch kind {
        case .cells: ["z", "bbox", "gateway", "sf", "silent", "silent_days"]
        case .cell: ["z", "x", "y", "gateway", "sf", "silent", "silent_days"]
        case .reach: ["gateway"]
        }
        filter.window = try MapQuery(items, allowing: names).filter
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        filter.gateway = value("gateway")
        if let sf = value("sf") {
            guard let n = Int(sf), (7...12).contains(n) else { throw .init(description: "sf must be a spreading factor from 7 to 12, not \(sf)") }
            filter.spreadingFactor = n
        }
        switch value("silent") {
        case nil, "hide": break
        case "show": showSilent = true
        case let other?: throw .init(description: "silent must be show or hide, not \(other)")
        }
        if let days = value("silent_days") {
            guard let n = Double(days), n.isFinite, n > 0 else { throw .init(description: "silent_days must be a number of days above 0, not \(days)") }
            silentDays = n
        }
        if kind == .reach { return }
        guard let z = value("z"), let zoom = Int(z), (0...MapTile.cellZoom).contains(zoom) else {
            throw .init(description: "z must be a zoom from 0 to \(MapTile.cellZoom), not \(value("z") ?? "missing")")
        }
        if kind == .cell {
            let side = 1 << zoom
            func index(_ name: String) throws(MapQuery.Invalid) -> Int {
                guard let text = value(name), let n = Int(text), (0..<side).contains(n) else {
                    throw .init(description: "\(name) must be a tile index from 0 to \(side - 1) at zoom \(zoom), not \(value(name) ?? "missing")")
                }
                return n
            }
            let x = try index("x"), y = try index("y")
            range = TileRange(zoom: zoom, minX: x, minY: y, maxX: x, maxY: y)
            return
        }
        guard let box = value("bbox") else { throw .init(description: "bbox is missing: west,south,east,north in degrees") }
        let parts = box.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3],
              [west, south, east, north].allSatisfy(\.isFinite)
        else { throw .init(description: "bbox must be four numbers, west,south,east,north in degrees, not \(box)") }
        guard (-180...180).contains(west), (-180...180).contains(east), (-90...90).contains(south), (-90...90).contains(north) else {
            throw .init(description: "bbox \(box) is off the earth: longitudes within ±180, latitudes within ±90")
        }
        guard west <= east, south <= north else { throw .init(description: "bbox \(box) is inverted: west,south,east,north with west ≤ east and south ≤ north") }
        let range = TileRange(zoom: zoom, west: west, south: south, east: east, north: north)
        guard range.tileCount <= Self.largestTileCount else {
            throw .init(description: "bbox \(box) at zoom \(zoom) is \(range.tileCount) tiles, more than \(Self.largestTileCount): ask for a smaller view or a lower zoom")
        }
        self.range = range
    }
}
