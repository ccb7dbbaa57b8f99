import Benchmark
import Foundation
import MTTCore
import TestSupport

/// A city's worth of listener samples: `count` placed uplinks on a random walk through a 20 km
/// square round Utrecht, each heard by one to three of eight gateways with public positions, at a
/// signal that falls with distance; each seed another walk. Made once and kept in /tmp between
/// runs (it takes a while).
func storeWithCitySamples(_ count: Int, seed: UInt64 = 28) throws -> Store {
    let path = "/tmp/mtt-benchmark-\(count)-city-samples" + (seed == 28 ? "" : "-\(seed)") + ".sqlite"
    if FileManager.default.fileExists(atPath: path), let store = try? Store(path: path), try store.status().samples == count {
        return store
    }
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let store = try Store(path: path)
    var left = count, index = 0
    var generator = SplitMix64(seed: seed)
    var here = CitySamples.centre
    while left > 0 {
        let chunk = min(left, 50_000)
        let session = try store.sessions.startSession(mode: .listener, at: SyncTestData.start.adding(seconds: Double(index)))
        try store.batch { batch in
            for _ in 0..<chunk {
                here = CitySamples.step(from: here, using: &generator)
                let time = SyncTestData.start.adding(seconds: Double(index))
                let uplink = CitySamples.uplink(heardAt: here, fCnt: UInt32(truncatingIfNeeded: index), at: time, using: &generator)
                let id = try batch.record(uplink, session: session)
                try batch.record(Sample(sessionID: session, subject: .uplink(id), time: time, position: here, method: .interpolated))
                index += 1
            }
        }
        left -= chunk
    }
    return store
}

enum CitySamples {
    static let centre = GeoPoint(latitude: 52.0907, longitude: 5.1214)
    static let gateways: [GeoPoint] = (0..<8).map { centre.destination(metres: 1_000 + Double($0) * 1_000, bearing: Double($0) * 45) }

    /// About 15 m on, turning a little, kept within 10 km of the centre.
    static func step(from p: GeoPoint, using g: inout SplitMix64) -> GeoPoint {
        let bearing = p.distance(to: centre) > 10_000 ? centre.bearing(to: p) + 180 : Double.random(in: 0..<360, using: &g)
        return p.destination(metres: 15, bearing: bearing)
    }

    static func uplink(heardAt p: GeoPoint, fCnt: UInt32, at time: Timestamp, using g: inout SplitMix64) -> Uplink {
        let nearest = gateways.enumerated().sorted { $0.element.distance(to: p) < $1.element.distance(to: p) }.prefix(Int.random(in: 1...3, using: &g))
        return Uplink(
            deviceID: "city-1", devEUI: "0004A30B001C0530", fCnt: fCnt, spreadingFactor: 7 + Int(fCnt % 3), receivedAt: time,
            networkID: "NS_TTS_V3://ttn@000013",
            receptions: nearest.map { i, gateway in
                let metres = gateway.distance(to: p)
                return GatewayReception(
                    gatewayID: "gw-\(i)", rssi: -40 - 30 * log10(max(metres, 10)) + Double.random(in: -5...5, using: &g),
                    snr: Double.random(in: -12...9, using: &g), location: gateway)
            })
    }
}

/// Stores `count` placed samples into a fresh file, 500 per transaction: what a listener burst
/// stores, coverage included.
func storePlacedSamples(_ count: Int, into folder: TemporaryDirectory, iteration: Int) throws {
    let path = folder.file("placed-\(iteration).sqlite")
    let store = try Store(path: path)
    let session = try store.sessions.startSession(mode: .listener)
    var generator = SplitMix64(seed: 7)
    var here = CitySamples.centre
    var made = 0
    while made < count {
        try store.batch { batch in
            for i in made..<min(made + 500, count) {
                here = CitySamples.step(from: here, using: &generator)
                let time = SyncTestData.start.adding(seconds: Double(i))
                let id = try batch.record(CitySamples.uplink(heardAt: here, fCnt: UInt32(i), at: time, using: &generator), session: session)
                try batch.record(Sample(sessionID: session, subject: .uplink(id), time: time, position: here, method: .interpolated))
            }
        }
        made += 500
    }
}

let coverageBenchmarks: @Sendable () -> Void = {
    // 115 ms (p50) before coverage was kept (commit 1e74527, the same benchmark on this machine).
    Benchmark("store 10,000 placed samples (1-3 gateways), 500 per transaction",
              configuration: .init(scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 10)) { benchmark in
        let folder = TemporaryDirectory("mtt-bench")
        for iteration in benchmark.scaledIterations {
            try storePlacedSamples(10_000, into: folder, iteration: iteration)
        }
    }

    Benchmark("coverage rebuild of 1 million samples", configuration: .init(scalingFactor: .one, maxDuration: .seconds(300), maxIterations: 3)) { benchmark, store in
        for _ in benchmark.scaledIterations {
            try store.coverage.rebuildCoverage()
        }
    } setup: {
        try storeWithCitySamples(1_000_000)
    }

    // What the page asks for in a 1280×800 window (the map 920×712 px) over the city, tiles five
    // zooms finer than the view: the whole city at map zoom 12 (zoom-17 tiles, 21.6 × 16.7 km),
    // a district at 15 (zoom-19 cells); and one gateway's cells of the city.
    for (name, zoom, halfLongitude, halfLatitude, gateway) in [
        ("a city view (map zoom 12: zoom-17 tiles)", 17, 0.158, 0.075, nil as String?),
        ("a district view (map zoom 15: zoom-19 cells)", 19, 0.0197, 0.0094, nil),
        ("a city view of one gateway's cells (map zoom 12)", 17, 0.158, 0.075, "gw-3"),
    ] {
        Benchmark("/api/cells: \(name) over 1 million samples",
                  configuration: .init(scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 50)) { benchmark, store in
            let centre = CitySamples.centre
            let range = TileRange(
                zoom: zoom, west: centre.longitude - halfLongitude, south: centre.latitude - halfLatitude,
                east: centre.longitude + halfLongitude, north: centre.latitude + halfLatitude)
            for _ in benchmark.scaledIterations {
                let cells = try store.coverage.coverageCells(CoverageFilter(gateway: gateway), zoom: zoom, within: range)
                let sink = try TextSink(path: "/dev/null")
                blackHole(try CoverageLayer.write(cells.map(CoverageLayer.feature), to: sink))
                try sink.close()
            }
        } setup: {
            try storeWithCitySamples(1_000_000)
        }
    }

    Benchmark("GeoPackage export of 1 million samples", configuration: .init(scalingFactor: .one, maxDuration: .seconds(300), maxIterations: 3)) { benchmark, store in
        let folder = TemporaryDirectory("mtt-bench")
        for iteration in benchmark.scaledIterations {
            let sink = try TextSink(path: folder.file("export-\(iteration).gpkg"))
            blackHole(try Exporter.export(store, as: .gpkg, to: sink))
            try sink.close()
        }
    } setup: {
        try storeWithCitySamples(1_000_000)
    }
}
