/// What the models are fitted to, made from coverage cells instead of receptions: all a community
/// map's role may read (its cells per antenna and SF, and the attempts per cell), never anybody's
/// samples. A local store fits to its receptions (`StoreCoverage.predictionData`); this is the
/// same data seen through the cells:
/// - a reception is placed at its cell's centre (a zoom-19 cell is some 50 m across, nothing
///   beside a gateway's kilometres);
/// - its signal is its TTN Mapper bucket's middle (a 5 dB bucket: at most 2.5 dB off, 1.4 dB RMS
///   for signals spread evenly in it, against the 6 to 8 dB a model misses by), but for the cell's
///   best reception, which is kept as it was;
/// - where an antenna heard fewer uplinks in a cell than another antenna of its network heard
///   there (at the same SF), the difference were not heard by it: the cells cannot say which
///   uplinks they were, so the most any antenna heard there stands for how many were sent. A
///   data set that kept only the best gateway of each uplink (some imports) makes this count too
///   many misses, as it does locally for imported sessions' uplinks;
/// - attempts sent from a cell that the network's side of is known and nobody heard are misses
///   for every antenna in whose reach the cell lies, as locally.
public enum CellObservations {
    /// The signal a reception counted in `bucket` stands for: its middle, and 2.5 dB past the edge
    /// of the two open-ended buckets.
    public static func signal(of bucket: SignalBucket) -> Double {
        switch bucket {
        case .high: -92.5
        case .low: -147.5
        default: -92.5 - 5 * Double(bucket.rawValue)
        }
    }

    /// The middle of `bucket` below `best`, the strongest reception of a cell, which lies in it.
    static func signal(of bucket: SignalBucket, under best: Double) -> Double {
        let lower = bucket == .low ? best - 5 : -95 - 5 * Double(bucket.rawValue)
        return (lower + best) / 2
    }

    /// Attempts sent from a zoom-19 cell at one SF that nobody heard, the network's side known.
    public struct Unheard: Sendable, Hashable {
        public var tile: MapTile
        public var spreadingFactor: Int
        public var count: Int

        public init(tile: MapTile, spreadingFactor: Int, count: Int) {
            self.tile = tile
            self.spreadingFactor = spreadingFactor
            self.count = count
        }
    }

    /// Each antenna's data from `cells` (zoom 19, one per antenna and SF), the cells' `unheard`
    /// attempts, and `gateways`' positions (reported or estimated); only `gateway`'s antennas when
    /// given.
    public static func antennaData(
        cells: [GatewayCell], unheard: [Unheard], gateways: [CoverageSummary.Gateway], only gateway: String? = nil
    ) -> [AntennaData] {
        struct Place: Hashable {
            var tile: MapTile
            var network: String
            var sf: Int
        }
        var heard: [AntennaKey: [AntennaObservation]] = [:]
        var sent: [Place: Int] = [:]
        var heardAt: [Place: [AntennaKey: Int]] = [:]
        for cell in cells {
            let key = AntennaKey(network: cell.network, gateway: cell.gateway, antenna: cell.antenna)
            let place = Place(tile: cell.tile, network: cell.network, sf: Self.spreadingFactor(cell.spreadingFactor))
            sent[place] = max(sent[place] ?? 0, cell.receptions)
            heardAt[place, default: [:]][key, default: 0] += cell.receptions
            guard gateway == nil || cell.gateway == gateway else { continue }
            var best: Double? = cell.best
            for bucket in SignalBucket.allCases where cell.buckets[bucket.rawValue] > 0 {
                // The strongest non-empty bucket holds the best reception, and the others in it
                // lie between its lower edge and the best.
                let others = best.map { Self.signal(of: bucket, under: $0) } ?? Self.signal(of: bucket)
                for _ in 0..<cell.buckets[bucket.rawValue] {
                    heard[key, default: []].append(AntennaObservation(point: cell.tile.centre, signal: best ?? others, spreadingFactor: place.sf))
                    best = nil
                }
            }
        }
        var positions: [AntennaKey: (at: GeoPoint, estimated: Bool)] = [:]
        for g in gateways {
            if let position = g.position { positions[AntennaKey(network: g.network, gateway: g.gateway, antenna: g.antenna)] = (position, g.estimated) }
        }
        var antennas: [AntennaData] = []
        for (key, receptions) in heard {
            guard let position = positions[key] else {
                antennas.append(AntennaData(key: key, position: nil, observations: receptions))
                continue
            }
            let reach = receptions.map { position.at.distance(to: $0.point) / 1000 }.max() ?? 0
            let near = NearTest(position.at, metres: AntennaModel.limit(reach: reach) * 1000)
            var observations = receptions
            for (place, uplinks) in sent where place.network == key.network && near.holds(place.tile.centre) {
                let missed = uplinks - (heardAt[place]?[key] ?? 0)
                for _ in 0..<max(missed, 0) {
                    observations.append(AntennaObservation(point: place.tile.centre, signal: nil, spreadingFactor: place.sf))
                }
            }
            for cell in unheard where near.holds(cell.tile.centre) {
                for _ in 0..<cell.count {
                    observations.append(AntennaObservation(point: cell.tile.centre, signal: nil, spreadingFactor: Self.spreadingFactor(cell.spreadingFactor)))
                }
            }
            var antenna = AntennaData(key: key, position: position.at, observations: observations)
            antenna.positionEstimated = position.estimated
            antennas.append(antenna)
        }
        return antennas.sorted { $0.key < $1.key }
    }

    /// A cell's SF; 0 (the uplink did not say) counts as SF12, as the receptions' data takes it.
    private static func spreadingFactor(_ sf: Int?) -> Int {
        guard let sf, sf != 0 else { return 12 }
        return sf
    }
}
