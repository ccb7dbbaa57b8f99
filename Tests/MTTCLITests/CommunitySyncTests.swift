import Foundation
import MTTCore
import MTTPostgres
import TestSupport
import Testing

/// `mtt sync --target postgis`: mappers uploading into a community database on a real PostgreSQL
/// with PostGIS (issue 29): once each, the community's cells the sum of the mappers' own, a crash
/// or a server gone mid-upload repeating nothing and losing nothing.
@Suite("mtt sync into the community database", .serialized)
struct CommunitySyncTests {
    /// A community database `coverage` with schema, and a mapper account for each name.
    static func community(_ mappers: [String]) async throws -> (PostgresServer, CommunityDatabase, [String: CommunityDatabase.Account]) {
        let server = try await PostgresServer.start()
        try server.createDatabase("coverage")
        let community = CommunityDatabase(try PostgresConnection(server.connectionString(database: "coverage")))
        try community.migrate()
        var accounts: [String: CommunityDatabase.Account] = [:]
        for name in mappers { accounts[name] = try community.addMapper(name) }
        return (server, community, accounts)
    }

    /// A mapper's mtt: its own home, database and password (PGPASSWORD, as the README says).
    struct Mapper {
        let mtt = MTTCommand()
        let account: CommunityDatabase.Account
        var environment: [String: String] { ["PGPASSWORD": account.password] }

        func sync(_ extra: [String] = []) async throws -> ChildProcess.Result {
            try await mtt.run(["sync", "--target", "postgis", "--url", account.url, "--db", mtt.database] + extra, environment: environment)
        }

        func start() throws -> ChildProcess.Running {
            try mtt.start(["sync", "--target", "postgis", "--url", account.url, "--db", mtt.database], environment: environment)
        }
    }

    /// Cells summed over mappers' local stores, per antenna and SF, as text rows.
    static func summedLocalCells(_ stores: [Store]) throws -> [String] {
        var sums: [String: (buckets: [Int], best: Double)] = [:]
        for store in stores {
            try store.coverage.forEachGatewayCell(CoverageFilter(), perSpreadingFactor: true) { c in
                let key = "\(c.tile.x) \(c.tile.y) \(c.network) \(c.gateway) \(c.antenna) \(c.spreadingFactor ?? 0)"
                let old = sums[key] ?? ([Int](repeating: 0, count: c.buckets.count), -.infinity)
                sums[key] = (zip(old.buckets, c.buckets).map(+), max(old.best, c.best))
            }
        }
        return sums.keys.sorted().map { key in key + " " + sums[key]!.buckets.map(String.init).joined(separator: " ") + " " + sums[key]!.best.plainText }
    }

    static func communityCells(_ community: CommunityDatabase) throws -> [String] {
        try community.connection.execute("""
            SELECT concat_ws(' ', x, y, network, gateway, antenna, sf, \(SignalBucket.allCases.map { "b_\($0.name)" }.joined(separator: ", ")), best)
            FROM mtt.coverage_cells
            """).rows.map { $0[0] ?? "" }.sorted()
    }

    static func summedLocalAttempts(_ stores: [Store]) throws -> [String] {
        var sums: [String: (Int, Int, Bool)] = [:]
        for store in stores {
            try store.coverage.forEachAttemptCell(CoverageFilter()) { a in
                let key = "\(a.tile.x) \(a.tile.y) \(a.spreadingFactor)"
                let old = sums[key] ?? (0, 0, false)
                sums[key] = (old.0 + a.attempts, old.1 + a.heard, old.2 || a.networkKnown)
            }
        }
        return sums.keys.sorted().map { "\($0) \(sums[$0]!.0) \(sums[$0]!.1) \(sums[$0]!.2 ? "t" : "f")" }
    }

    static func communityAttempts(_ community: CommunityDatabase) throws -> [String] {
        try community.connection.execute("SELECT concat_ws(' ', x, y, sf, attempts, heard, network_known) FROM mtt.coverage_attempts").rows
            .map { $0[0] ?? "" }.sorted()
    }

    /// The cells' totals the triggers keep (what the map reads without a filter) that differ from
    /// the totals of the cell rows, as text rows; empty when they agree.
    static func totalsNotAsTheCells(_ community: CommunityDatabase) throws -> [String] {
        let columns = SignalBucket.allCases.map { "b_\($0.name)" }
        return try community.connection.execute("""
            (SELECT x, y, \(columns.joined(separator: ", ")), best, gateways, first_at, last_at FROM mtt.coverage_totals
             EXCEPT
             SELECT x, y, \(columns.map { "sum(\($0))::integer" }.joined(separator: ", ")), max(best), count(DISTINCT gateway)::integer, min(first_at), max(last_at)
             FROM mtt.coverage_cells GROUP BY x, y)
            UNION ALL
            (SELECT x, y, \(columns.map { "sum(\($0))::integer" }.joined(separator: ", ")), max(best), count(DISTINCT gateway)::integer, min(first_at), max(last_at)
             FROM mtt.coverage_cells GROUP BY x, y
             EXCEPT
             SELECT x, y, \(columns.joined(separator: ", ")), best, gateways, first_at, last_at FROM mtt.coverage_totals)
            """).rows.map { $0.map { $0 ?? "NULL" }.joined(separator: " ") }
    }

    static func count(_ table: String, _ community: CommunityDatabase) throws -> Int {
        Int(try community.connection.execute("SELECT count(*) FROM mtt.\(table)").value ?? "") ?? -1
    }

    /// Two mappers upload different drives at the same time: every record once, and the
    /// community's cells and attempt counts are the sums of both mappers' own.
    @Test func twoMappersAtOnceEachRecordOnceCellsSummed() async throws {
        let (server, community, accounts) = try await Self.community(["alice", "bob"])
        defer { withExtendedLifetime(server) {} }
        let alice = Mapper(account: accounts["alice"]!), bob = Mapper(account: accounts["bob"]!)
        let aliceStore = try Store(path: alice.mtt.database)
        try MapTestData.drive(aliceStore)
        try MapTestData.fill(aliceStore)
        let drive = try await bob.mtt.run([
            "collect", "--mode", "active", "--node", "fake:2", "--gps", "fake", "--network", "fake", "--speed", "100", "--duration", "4s",
            "--db", bob.mtt.database,
        ])
        #expect(drive.status == 0, "\(drive.stderr)")
        let bobStore = try Store(path: bob.mtt.database)

        async let a = alice.sync()
        async let b = bob.sync(["--include-simulated"])
        let (ra, rb) = try await (a, b)
        #expect(ra.status == 0 && ra.stdout.contains("postgis: ") && ra.stdout.contains(" 0 rejected, 0 failed, 0 still queued"), "\(ra.stdout)\(ra.stderr)")
        #expect(rb.status == 0 && rb.stdout.contains(" 0 still queued"), "\(rb.stdout)\(rb.stderr)")
        // Each sync ends by making the map without the silent gateways again, waiting for the
        // other's if need be, and says how long it took.
        for r in [ra, rb] {
            #expect(r.stdout.contains("; the map without the silent gateways made in "), "\(r.stdout)")
        }

        let local = [aliceStore, bobStore]
        let samples = try local.map { try $0.status().samples }.reduce(0, +)
        #expect(try Self.count("samples", community) == samples)
        #expect(try Self.count("attempts", community) == local.map { let s = try $0.status(); return s.confirmed + s.failed }.reduce(0, +))
        #expect(try Self.count("tracks", community) == local.map { try $0.status().gpsSamples }.reduce(0, +))
        #expect(try local.allSatisfy { try $0.queueCount(.postgis) == 0 })
        #expect(try Self.communityCells(community) == Self.summedLocalCells(local))
        #expect(try Self.communityAttempts(community) == Self.summedLocalAttempts(local))
        #expect(try Self.totalsNotAsTheCells(community).isEmpty)

        // Again: nothing more to send, nothing counted twice.
        let again = try await alice.sync()
        #expect(again.status == 0 && again.stdout.contains("0 sent"), "\(again.stdout)")
        #expect(try Self.communityCells(community) == Self.summedLocalCells(local))
    }

    /// Waits until the community holds some of the mapper's samples, but not all: an upload in flight.
    static func midway(_ community: CommunityDatabase, of total: Int) async throws -> Bool {
        var n = 0
        try await eventually { n = try count("samples", community); return n > 0 }
        return n > 0 && n < total
    }

    /// SIGKILL in the middle of an upload, then again: nothing missing, nothing counted twice.
    @Test func aKilledUploadRepeatsNothingAndLosesNothing() async throws {
        let (server, community, accounts) = try await Self.community(["alice"])
        defer { withExtendedLifetime(server) {} }
        let alice = Mapper(account: accounts["alice"]!)
        let store = try Store(path: alice.mtt.database)
        try MapTestData.manySamples(store, count: 30_000)
        let sync = try alice.start()
        #expect(try await Self.midway(community, of: 30_000), "the upload was not caught in flight")
        sync.kill()
        // Gone, as a user's killed sync is before they run it again: its lock goes with it, but
        // only once the kernel has ended it (a process in an fsync under load took a while).
        #expect(await sync.wait(timeout: 60))
        let kept = try Self.count("samples", community)
        #expect(kept < 30_000)
        let again = try await alice.sync()
        #expect(again.status == 0 && again.stdout.contains(" 0 still queued"), "\(again.stdout)\(again.stderr)")
        #expect(try Self.count("samples", community) == 30_000)
        #expect(try Self.communityCells(community) == Self.summedLocalCells([store]))
        #expect(try Self.totalsNotAsTheCells(community).isEmpty)
        #expect(try store.queueCount(.postgis) == 0)
    }

    /// The server goes away in the middle of an upload: one line says so, what was not stored
    /// stays queued, and the next sync, with the server back, completes it with nothing twice.
    @Test func aServerGoneMidwayLeavesTheRestQueued() async throws {
        let (server, community, accounts) = try await Self.community(["alice"])
        let alice = Mapper(account: accounts["alice"]!)
        let store = try Store(path: alice.mtt.database)
        try MapTestData.manySamples(store, count: 30_000)
        let sync = try alice.start()
        #expect(try await Self.midway(community, of: 30_000), "the upload was not caught in flight")
        server.stop()
        #expect(await sync.wait(timeout: 120), "the sync did not end without its server")
        #expect(sync.result.status == 1, "\(sync.stdout)\(sync.stderr)")
        let said = sync.stderr.split(separator: "\n").filter { $0.hasPrefix("mtt: ") }
        #expect(said.count == 1 && said[0].contains("postgis") , "\(sync.stderr)")
        #expect(try store.queueCount(.postgis) > 0)
        try server.start()
        let reconnected = CommunityDatabase(try PostgresConnection(server.connectionString(database: "coverage")))
        let stored = try Self.count("samples", reconnected)
        #expect(try store.queueCount(.postgis) >= 30_000 - stored, "records the server lost are not queued")
        let again = try await alice.sync()
        #expect(again.status == 0 && again.stdout.contains(" 0 still queued"), "\(again.stdout)\(again.stderr)")
        #expect(try Self.count("samples", reconnected) == 30_000)
        #expect(try Self.communityCells(reconnected) == Self.summedLocalCells([store]))
    }

    /// A database nobody ran `mtt community init` on: what to do and the database's own words,
    /// once, and the records stay queued.
    @Test func aDatabaseWithoutTheSchemaStopsTheUploadInOneLine() async throws {
        let server = try await PostgresServer.start()
        let mtt = MTTCommand()
        try MapTestData.fill(try Store(path: mtt.database))
        let result = try await mtt.run(["sync", "--target", "postgis", "--url", server.url(), "--db", mtt.database],
                                       environment: ["PGPASSWORD": PostgresServer.adminPassword])
        #expect(result.status == 1 && result.stderr.contains("this database has no community schema (its administrator makes it with mtt community init)")
                && result.stderr.contains("relation \"mtt.schema_version\" does not exist"), "\(result.stdout)\(result.stderr)")
        #expect(try Store(path: mtt.database).queueCount(.postgis) > 0)
    }

    /// A server with no room for the upload's second connection: the first takes its batches, and
    /// every record arrives once.
    @Test func aServerFullOfClientsTakesTheUploadOnOneConnection() async throws {
        // Seven connections, three kept for superusers, one of them the administrator's below, two
        // Bob's: one left for Alice's upload.
        let server = try await PostgresServer.start(settings: ["max_connections=7", "superuser_reserved_connections=3"])
        try server.createDatabase("coverage")
        let community = CommunityDatabase(try PostgresConnection(server.connectionString(database: "coverage")))
        try community.migrate()
        let alice = Mapper(account: try community.addMapper("alice")), bob = try community.addMapper("bob")
        let idle = try (0..<2).map { _ in try PostgresConnection(server.connectionString(user: "bob", password: bob.password, database: "coverage")) }
        let store = try Store(path: alice.mtt.database)
        try MapTestData.drive(store)
        let queued = try store.queueCount(.postgis)
        let fixes = try store.sync.syncQueue(.postgis, kind: .fix, after: 0, limit: .max, scope: SyncScope(includeSimulated: true)).count
        let sync = try await alice.sync()
        #expect(sync.status == 0 && sync.stdout.contains("\(queued) sent") && sync.stdout.contains(" 0 still queued"), "\(sync.stdout)\(sync.stderr)")
        // Not a batch tried twice: the refused second connection handed its batches on at once.
        #expect(!sync.stdout.contains("later try"), "\(sync.stdout)")
        #expect(try community.connection.execute("SELECT samples + attempts FROM mtt.mappers WHERE mapper = 'alice'").value == String(queued - fixes))
        withExtendedLifetime(idle) {}
    }

    /// Another mapper's transaction holding a lock (issue 47, item 4): the upload waits no longer
    /// than the sync's timeout and says why, and a stop request ends a waiting upload at once.
    /// Either way the records stay queued.
    @Test func aLockHeldByAnotherMapperHoldsTheUploadOnlyForItsTimeout() async throws {
        let (server, _, accounts) = try await Self.community(["alice", "mallory"])
        let alice = Mapper(account: accounts["alice"]!)
        try MapTestData.fill(try Store(path: alice.mtt.database))
        // Mallory's reception in the cell of Alice's first sample, in a transaction she keeps open:
        // the cell's totals row stays locked until she ends it.
        let mallory = try PostgresConnection(server.connectionString(user: "mallory", password: accounts["mallory"]!.password, database: "coverage"))
        let own = UUID().uuidString.lowercased(), here = MapTestData.here
        try mallory.execute("""
            BEGIN;
            INSERT INTO mtt.samples (db, id, session_id, time, method, geom) VALUES ('\(own)', 1, 1, now(), 'tx_time', ST_SetSRID(ST_MakePoint(\(here.longitude), \(here.latitude)), 4326));
            INSERT INTO mtt.receptions (db, sample_id, time, n, gateway, rssi, snr) SELECT db, id, time, 0, 'utrecht-dom', -90, 5 FROM mtt.samples WHERE db = '\(own)';
            """)
        let waited = ContinuousClock.now
        let bounded = try await alice.sync(["--timeout", "2s", "--tries", "1"])
        #expect(bounded.status != 0 && bounded.stdout.contains("canceling statement due to statement timeout")
                && bounded.stdout.contains("stay queued"), "\(bounded.stdout)\(bounded.stderr)")
        // Bounded: without the timeouts it waited as long as Mallory's transaction lasted.
        #expect(ContinuousClock.now - waited < .seconds(120), "the upload waited \(ContinuousClock.now - waited)")

        let stopped = try alice.mtt.start(["sync", "--target", "postgis", "--url", alice.account.url, "--timeout", "10m", "--db", alice.mtt.database],
                                          environment: alice.environment)
        try await Task.sleep(for: .seconds(2))  // a measurement: the upload has reached the lock
        let signalled = ContinuousClock.now
        stopped.signal(SIGTERM)
        #expect(await stopped.wait(timeout: 60), "a stop request did not end a waiting upload")
        #expect(ContinuousClock.now - signalled < .seconds(30))
        try mallory.execute("ROLLBACK")
        #expect(try Store(path: alice.mtt.database).queueCount(.postgis) > 0)
    }
}

extension Store {
    /// What still waits for `target` in this database, simulated sessions included.
    func queueCount(_ target: SyncTarget) throws -> Int {
        try sync.syncQueueCount(target, scope: SyncScope(includeSimulated: true))
    }
}
