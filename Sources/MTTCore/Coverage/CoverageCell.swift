/// One tile of the coverage map, summed over the gateways (and sessions) a filter selects: at zoom
/// 19 a cell, coarser tiles sum the cells inside them.
public struct CoverageCell: Sendable, Hashable {
    public enum State: String, Sendable, Codable {
        /// At least one gateway heard you here.
        case heard
        /// You sent here, the network's side is known, and nobody heard.
        case notHeard = "not-heard"
        /// You sent here with no network source; heard or not is not known.
        case unknown
        /// Nobody heard here, and the only frames sent here are a tracker's estimated ones (the
        /// gaps in its frame counters): drawn apart from measured attempts.
        case estimated = "not-heard-estimated"
        /// No uplink of the network's says so, but a link check sent from here was answered: the
        /// network heard you (`--linkcheck`, with no network access).
        case heardByLinkCheck = "heard-linkcheck"
    }

    public var tile: MapTile
    /// Receptions per bucket, indexed by `SignalBucket.rawValue`.
    public var buckets: [Int]
    /// The best RSSI + min(SNR, 0) heard here.
    public var best: Double?
    /// Gateways that heard you in the cell; in a coarser tile, the most that heard you in any one
    /// of its cells (how many can hear you at one spot).
    public var gateways: Int
    /// Attempts sent here (active mode) and how many of them were heard.
    public var attempts: Int
    public var heardAttempts: Int
    /// Frames trackers sent here that nobody heard, estimated from their frame counters; never
    /// counted in `attempts`.
    public var estimatedAttempts: Int = 0
    /// Link checks sent here (`--linkcheck`), when any was.
    public var linkChecks: LinkCheckCount?
    public var firstAt: Timestamp
    public var lastAt: Timestamp
    public var state: State

    public init(
        tile: MapTile, buckets: [Int], best: Double?, gateways: Int, attempts: Int, heardAttempts: Int, firstAt: Timestamp, lastAt: Timestamp,
        state: State
    ) {
        self.tile = tile
        self.buckets = buckets
        self.best = best
        self.gateways = gateways
        self.attempts = attempts
        self.heardAttempts = heardAttempts
        self.firstAt = firstAt
        self.lastAt = lastAt
        self.state = state
    }

    public var receptions: Int { buckets.reduce(0, +) }

    /// The bucket with the most receptions, as TTN Mapper colours a tile (the stronger of equals).
    public var commonest: SignalBucket? {
        guard receptions > 0 else { return nil }
        return SignalBucket.allCases.max { a, b in
            buckets[a.rawValue] != buckets[b.rawValue] ? buckets[a.rawValue] < buckets[b.rawValue] : a.rawValue > b.rawValue
        }
    }

    /// The bucket of the best signal: the other way to colour a cell.
    public var bestBucket: SignalBucket? { best.map(SignalBucket.init(signal:)) }

    /// Adds a tile's attempts to the tiles heard: to its heard tile, or as a tile nobody heard
    /// (mapped, not heard; not known when no network source could say; estimated when only a
    /// tracker's estimated frames were sent there).
    public static func add(
        attempts: Int, heard: Int, estimated: Int, networkKnown: Bool, firstAt: Timestamp, lastAt: Timestamp, in tile: MapTile,
        to cells: inout [MapTile: CoverageCell]
    ) {
        if var cell = cells[tile] {
            cell.attempts = attempts
            cell.heardAttempts = heard
            cell.estimatedAttempts = estimated
            cell.firstAt = min(cell.firstAt, firstAt)
            cell.lastAt = max(cell.lastAt, lastAt)
            cells[tile] = cell
        } else {
            var cell = unheard(tile, firstAt: firstAt, lastAt: lastAt, state: !networkKnown ? .unknown : attempts == 0 ? .estimated : .notHeard)
            cell.attempts = attempts
            cell.heardAttempts = heard
            cell.estimatedAttempts = estimated
            cells[tile] = cell
        }
    }

    /// A tile no gateway's reception reached, in `state`, with nothing counted yet.
    private static func unheard(_ tile: MapTile, firstAt: Timestamp, lastAt: Timestamp, state: State) -> CoverageCell {
        CoverageCell(
            tile: tile, buckets: [Int](repeating: 0, count: SignalBucket.allCases.count), best: nil, gateways: 0, attempts: 0, heardAttempts: 0,
            firstAt: firstAt, lastAt: lastAt, state: state)
    }

    /// Adds a tile's link checks: an answered one makes a tile nobody's uplink reached "heard by
    /// LinkCheck"; unanswered ones make a tile whose network side was not known "not heard".
    public static func add(linkChecks: LinkCheckCount, firstAt: Timestamp, lastAt: Timestamp, in tile: MapTile, to cells: inout [MapTile: CoverageCell]) {
        var cell = cells[tile] ?? unheard(tile, firstAt: firstAt, lastAt: lastAt, state: .unknown)
        cell.linkChecks = linkChecks
        cell.firstAt = min(cell.firstAt, firstAt)
        cell.lastAt = max(cell.lastAt, lastAt)
        if cell.state != .heard {
            if linkChecks.answered > 0 {
                cell.state = .heardByLinkCheck
            } else if cell.state == .unknown {
                cell.state = .notHeard
            }
        }
        cells[tile] = cell
    }

    /// The tiles row by row, west to east: the order the map's API answers in.
    public static func inRows(_ cells: [MapTile: CoverageCell]) -> [CoverageCell] {
        cells.values.sorted { ($0.tile.y, $0.tile.x) < ($1.tile.y, $1.tile.x) }
    }
}

/// A rectangle of tiles at one zoom, both corners included: what a map view asks for.
public struct TileRange: Sendable, Hashable {
    public var zoom: Int
    public var minX: Int, minY: Int, maxX: Int, maxY: Int

    public init(zoom: Int, minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.zoom = zoom
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The tiles covering a bounding box (west, south, east, north in degrees).
    public init(zoom: Int, west: Double, south: Double, east: Double, north: Double) {
        let nw = MapTile(containing: GeoPoint(latitude: north, longitude: west), zoom: zoom)
        let se = MapTile(containing: GeoPoint(latitude: south, longitude: east), zoom: zoom)
        self.init(zoom: zoom, minX: nw.x, minY: nw.y, maxX: se.x, maxY: se.y)
    }

    public var tileCount: Int { (maxX - minX + 1) * (maxY - minY + 1) }
}
