import Benchmark
import Foundation
import MTTCore
import MTTPostgres
import TestSupport

/// A copy of a city store (`storeWithCitySamples`) with its queue whole: each seed is another
/// walk and another database id, a mapper of its own to the community. Nothing writes to the
/// template while its file (and write-ahead log) is copied.
func copyOfCityStore(_ count: Int, seed: UInt64, into folder: TemporaryDirectory, as name: String) throws -> Store {
    let template = try storeWithCitySamples(count, seed: seed)
    let path = folder.file(name + ".sqlite")
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: template.path + suffix) {
        try FileManager.default.copyItem(atPath: template.path + suffix, toPath: path + suffix)
    }
    return try Store(path: path)
}

/// The community map's reader, and the server it reads, kept running for the benchmark.
struct CityReader: Sendable {
    let server: PostgresServer
    let reader: CommunityMapReader
}

/// A community database on the benchmark's own PostgreSQL: schema, and a mapper account per name.
func communityDatabase(on server: PostgresServer, _ name: String, mappers: [String]) throws -> (CommunityDatabase, [String: String]) {
    try server.createDatabase(name)
    let community = CommunityDatabase(try PostgresConnection(server.connectionString(database: name)))
    try community.migrate()
    var urls: [String: String] = [:]
    for mapper in mappers {
        let account = try community.addMapper(mapper)
        urls[mapper] = server.connectionString(user: mapper, password: account.password, database: name)
    }
    return (community, urls)
}

/// Uploads everything of `store` as the postgis target does, on `connections` connections;
/// returns how many records it sent.
func uploadToCommunity(_ store: Store, as url: String, connections: Int = 2) async throws -> Int {
    let uploader = Uploader(
        store: store, destination: PostGISDestination(server: "bench", databaseID: try store.databaseID()),
        transport: PostgresSyncTransport(url, connections: connections))
    let summary = try await uploader.run()
    precondition(summary.failed == 0 && summary.rejected == 0, "\(summary)")
    return summary.sent
}

let communityBenchmarks: @Sendable () -> Void = {
    // Each iteration a fresh database; the records are a city's samples, each with its one to
    // three receptions (a sample and its receptions are one record, as the ledger counts).
    // On one connection, as before issue 48, and on the two the transport takes by default.
    for connections in [1, 2, 3] {
        Benchmark("sync of 100,000 city samples into PostGIS on loopback (triggers on), \(connections) connection(s)",
                  configuration: .init(metrics: [.wallClock, .cpuTotal], scalingFactor: .one, maxDuration: .seconds(600), maxIterations: 3)) { benchmark, server in
            let folder = TemporaryDirectory("mtt-bench")
            for iteration in benchmark.scaledIterations {
                let name = "sync\(iteration)_\(UInt32.random(in: 0...UInt32.max))"
                let (_, urls) = try communityDatabase(on: server, name, mappers: [name])
                let store = try copyOfCityStore(100_000, seed: 28, into: folder, as: name)
                benchmark.startMeasurement()
                let sent = try await uploadToCommunity(store, as: urls[name]!, connections: connections)
                benchmark.stopMeasurement()
                precondition(sent == 100_000)
            }
        } setup: {
            try await PostgresServer.start()
        }
    }

    // Eight mappers, each a different walk, all uploading at once into one database: every record
    // once, and the community's cells the sum of the eight mappers' own (checked after the clock).
    Benchmark("8 mappers × 100,000 city samples into PostGIS at once",
              configuration: .init(metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(900), maxIterations: 2)) { benchmark, server in
        let folder = TemporaryDirectory("mtt-bench")
        for iteration in benchmark.scaledIterations {
            let base = "eight\(iteration)_\(UInt32.random(in: 0...UInt32.max))"
            let names = (1...8).map { "\(base)_m\($0)" }
            let (community, urls) = try communityDatabase(on: server, base, mappers: names)
            let stores = try names.enumerated().map { i, name in try copyOfCityStore(100_000, seed: 100 + UInt64(i), into: folder, as: name) }
            benchmark.startMeasurement()
            let sent = try await withThrowingTaskGroup(of: Int.self) { group in
                for (name, store) in zip(names, stores) { group.addTask { try await uploadToCommunity(store, as: urls[name]!) } }
                return try await group.reduce(0, +)
            }
            benchmark.stopMeasurement()
            precondition(sent == 800_000, "sent \(sent)")
            let stored = try community.connection.execute("SELECT count(*) FROM mtt.samples").value
            precondition(stored == "800000", "stored \(stored ?? "")")
            let communityReceptions = try community.connection.execute(
                "SELECT sum(\(SignalBucket.allCases.map { "b_\($0.name)" }.joined(separator: " + "))) FROM mtt.coverage_cells").value
            var local = 0
            for store in stores { try store.coverage.forEachGatewayCell(CoverageFilter()) { local += $0.receptions } }
            precondition(communityReceptions == String(local), "community cells count \(communityReceptions ?? "") receptions, the mappers' own \(local)")
        }
    } setup: {
        try await PostgresServer.start()
    }

    // The map's question (as the local store's benchmarks ask it) put to a community database
    // holding the city's million samples, through the map's reader.
    Benchmark("/api/cells from PostGIS: a city view (map zoom 12: zoom-17 tiles) over 1 million samples",
              configuration: .init(scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 50)) { benchmark, reader in
        let centre = CitySamples.centre
        let range = TileRange(zoom: 17, west: centre.longitude - 0.158, south: centre.latitude - 0.075, east: centre.longitude + 0.158, north: centre.latitude + 0.075)
        for _ in benchmark.scaledIterations {
            let cells = try reader.reader.coverageCells(CoverageFilter(), zoom: 17, within: range)
            let sink = try TextSink(path: "/dev/null")
            blackHole(try CoverageLayer.write(cells.map(CoverageLayer.feature), to: sink))
            try sink.close()
        }
    } setup: { () async throws -> CityReader in
        let server = try await PostgresServer.start()
        // Roles are the cluster's: names of their own, should the harness set up twice.
        let suffix = String(UInt32.random(in: 0...UInt32.max))
        let (community, urls) = try communityDatabase(on: server, "city_\(suffix)", mappers: ["city_mapper_\(suffix)"])
        let store = try copyOfCityStore(1_000_000, seed: 28, into: TemporaryDirectory("mtt-bench"), as: "city")
        let sent = try await uploadToCommunity(store, as: urls["city_mapper_\(suffix)"]!)
        precondition(sent == 1_000_000, "sent \(sent)")
        try community.connection.execute("VACUUM ANALYZE")
        let viewer = try community.grantMap("city_viewer_\(suffix)")
        return CityReader(server: server, reader: try CommunityMapReader(
            url: server.connectionString(user: "city_viewer_\(suffix)", password: viewer.password, database: "city_\(suffix)")))
    }
}
