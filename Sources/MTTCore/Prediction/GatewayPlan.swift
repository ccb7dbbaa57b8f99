import Glibc

/// Where the next gateway should go (`mtt coverage plan`): candidate sites ranked by how many of
/// the cells you mapped and nobody heard a gateway there would probably hear, then by how much of
/// the mapped area (your drives) it would cover.
///
/// The model is network-wide, as no candidate has data of its own: the median line of the fitted
/// antennas (intercept, slope, scatter), moved by the candidate's height against the 10 m an
/// ordinary rooftop gateway has (+20·log10(h / 10 m), the height-gain rule of thumb: about 6 dB a
/// doubling), and by its antenna's gain against theirs (`gain`, dB). P(heard) at a cell is the
/// chance the level there is above the floor of the SF most of the data was sent at.
public struct GatewayPlan: Sendable {
    public struct Site: Sendable, Hashable {
        public var position: GeoPoint
        /// Metres above ground.
        public var height: Double

        public init(position: GeoPoint, height: Double = GatewayPlan.ordinaryHeight) {
            self.position = position
            self.height = height
        }
    }

    /// One site's figures.
    public struct Ranked: Sendable, Encodable {
        public var site: Site
        /// Expected number of the cells mapped and never heard that it would hear (Σ P(heard)), and
        /// those it hears with P ≥ 0.5.
        public var expectedUnheard: Double
        public var unheardCells: Int
        /// Of every cell mapped, those it hears with P ≥ 0.5.
        public var mappedCells: Int

        enum CodingKeys: String, CodingKey { case lat, lon, height, expectedUnheard = "expected_unheard_cells", unheardCells = "unheard_cells", mappedCells = "mapped_cells" }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(site.position.latitude.rounded(toPlaces: 6), forKey: .lat)
            try c.encode(site.position.longitude.rounded(toPlaces: 6), forKey: .lon)
            try c.encode(site.height, forKey: .height)
            try c.encode(expectedUnheard.rounded(toPlaces: 1), forKey: .expectedUnheard)
            try c.encode(unheardCells, forKey: .unheardCells)
            try c.encode(mappedCells, forKey: .mappedCells)
        }
    }

    public static let ordinaryHeight = 10.0

    public let fit: PathLossFit
    public let floor: Double
    /// The candidate antenna's gain over the fitted ones', dB.
    public var gain = 0.0

    /// The network-wide line from the fitted antennas; nil without any.
    public init?(_ model: CoverageModel) {
        guard !model.models.isEmpty else { return nil }
        func median(_ values: [Double]) -> Double { let s = values.sorted(); return s[s.count / 2] }
        fit = PathLossFit(
            intercept: median(model.models.map(\.fit.intercept)), slope: median(model.models.map(\.fit.slope)), sigma: median(model.models.map(\.fit.sigma)))
        var counts: [Int: Int] = [:]
        for m in model.models { counts[m.spreadingFactor, default: 0] += m.receptions }
        let sf = counts.max { $0.value < $1.value }?.key ?? 12
        // The lowest of the antennas' floors at that SF: where the network's receivers stop.
        floor = model.models.map { $0.floors[sf] }.min() ?? LoRaReceiver.signalFloor(spreadingFactor: sf)
    }

    /// The chance a site hears a transmission at `point`.
    public func pHeard(from site: Site, at point: GeoPoint) -> Double {
        let level = fit.mean(kilometres: site.position.distance(to: point) / 1000) + 20 * log10(max(site.height, 1) / Self.ordinaryHeight) + gain
        return StandardNormal.cdf((level - floor) / fit.sigma)
    }

    /// The sites ranked, best first: `unheard` are the cells mapped and never heard, `mapped` every
    /// cell mapped (their centres).
    public func rank(_ sites: [Site], unheard: [GeoPoint], mapped: [GeoPoint]) -> [Ranked] {
        sites.map { site in
            var expected = 0.0, likely = 0, covered = 0
            for p in unheard {
                let chance = pHeard(from: site, at: p)
                expected += chance
                if chance >= 0.5 { likely += 1 }
            }
            for p in mapped where pHeard(from: site, at: p) >= 0.5 { covered += 1 }
            return Ranked(site: site, expectedUnheard: expected, unheardCells: likely, mappedCells: covered)
        }.sorted { ($0.expectedUnheard, $0.mappedCells) > ($1.expectedUnheard, $1.mappedCells) }
    }

    /// Sites every `spacing` metres over the box of `points` (`--grid`), at the ordinary height.
    public static func grid(over points: [GeoPoint], spacing: Double = 500) -> [Site] {
        guard let north = points.map(\.latitude).max(), let south = points.map(\.latitude).min(),
              let west = points.map(\.longitude).min(), let east = points.map(\.longitude).max()
        else { return [] }
        let dLat = spacing / 110_574, dLon = spacing / (111_320 * max(cos((north + south) / 2 * .pi / 180), 0.01))
        var sites: [Site] = []
        var lat = south
        while lat <= north + dLat / 2 {
            var lon = west
            while lon <= east + dLon / 2 {
                sites.append(Site(position: GeoPoint(latitude: lat, longitude: lon)))
                lon += dLon
            }
            lat += dLat
        }
        return sites
    }
}
