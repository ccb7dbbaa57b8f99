import Foundation
import MTTCore
@testable import MTTPostgres
import TestSupport
import Testing

/// The community database against a real PostgreSQL with PostGIS (issue 29): the schema and its
/// migrations, the aggregates its triggers keep, and the security the database itself enforces.
@Suite("The community database", .serialized)
struct CommunityDatabaseTests {
    /// A server with one empty database, `coverage`, and the administrator connected to it.
    static func community() async throws -> (PostgresServer, CommunityDatabase) {
        let server = try await PostgresServer.start()
        try server.createDatabase("coverage")
        let admin = try PostgresConnection(server.connectionString(database: "coverage"))
        return (server, CommunityDatabase(admin))
    }

    @Test func initCreatesTheSchemaOnceAndRefusesANewerOne() async throws {
        let (server, community) = try await Self.community()
        let first = try community.migrate()
        #expect(first.from == 0 && first.to >= 1)
        let again = try community.migrate()
        #expect(again.from == first.to && again.to == first.to)
        let tables = try server.psql("SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'mtt'", database: "coverage")
        for name in ["attempts", "samples", "receptions", "tracks", "sessions", "coverage_cells", "coverage_reach", "cells", "gateways", "reach", "mappers"] {
            #expect(tables.split(separator: ",").contains(Substring(name)), "no mtt.\(name) in \(tables)")
        }
        // Geometry columns in EPSG:4326, with GiST indexes, for QGIS.
        #expect(try server.psql("SELECT srid FROM geometry_columns WHERE f_table_schema = 'mtt' AND f_table_name = 'samples'", database: "coverage") == "4326")
        #expect(try server.psql("SELECT count(*) FROM pg_indexes WHERE schemaname = 'mtt' AND indexdef LIKE '%USING gist%'", database: "coverage") != "0")

        try server.psql("INSERT INTO mtt.schema_version (version) VALUES (99)", database: "coverage")
        #expect {
            try community.migrate()
        } throws: { error in
            "\(error)" == "the community database's schema is version 99, newer than this mtt knows (\(first.to)): update mtt"
        }
    }

    /// A database made by the first schema, with a mapper's rows in it, brought up to date: the
    /// mappers' totals (version 2) count the rows already there, then the rows that come after,
    /// a repeated upload not at all.
    @Test func anUpgradedDatabaseCountsTheRowsItHadAndThoseThatCome() async throws {
        let (server, community) = try await Self.community()
        #expect(try community.migrate(through: 1).to == 1)
        let alice = try community.addMapper("alice")
        let aliceURL = server.connectionString(user: "alice", password: alice.password, database: "coverage")
        let store = try Store(path: TemporaryDirectory("mtt-community").file("alice.sqlite"))
        try MapTestData.drive(store)
        try OlderCommunityUpload.upload(Array(1...20), of: store, as: aliceURL, kind: .sample)
        try OlderCommunityUpload.upload(Array(1...30), of: store, as: aliceURL, kind: .attempt)
        #expect(try community.migrate() == (from: 1, to: CommunityDatabase.latestSchemaVersion))
        func totals() throws -> String? {
            try community.connection.execute("SELECT concat_ws(' ', sessions, attempts, heard, samples, last_record) FROM mtt.mappers WHERE mapper = 'alice'").value
        }
        let heardOfFirst30 = try store.sync.queuedAttempts(Array(1...30)).filter(\.heard).count
        #expect(try totals() == "1 30 \(heardOfFirst30) 20 2026-06-21 10:07:15+00")
        // The cells' totals (version 2) are the cells' own.
        #expect(try community.connection.execute("SELECT count(*) FROM mtt.coverage_totals").value
            == community.connection.execute("SELECT count(*) FROM (SELECT DISTINCT x, y FROM mtt.coverage_cells) c").value)
        #expect(try community.connection.execute("SELECT count(*) FROM mtt.coverage_totals").value != "0")
        try await Self.upload(Array(1...40), of: store, as: aliceURL, kind: .sample)
        try await Self.upload(Array(1...60), of: store, as: aliceURL, kind: .attempt)
        #expect(try totals() == "1 60 40 40 2026-06-21 10:14:45+00")
    }

    /// Text travels as PostgreSQL arrays: quotes, backslashes, commas, braces, a device named
    /// NULL and non-ASCII arrive as they were, and a value that is absent arrives as NULL.
    @Test func awkwardTextArrivesAsItWas() async throws {
        let (server, community) = try await Self.community()
        try community.migrate()
        let alice = try community.addMapper("alice")
        let store = try Store(path: TemporaryDirectory("mtt-community").file("alice.sqlite"))
        let gateway = #"gw "one", {two}\three Zürich"#
        try MapTestData.heardSamples(store, at: [MapTestData.here], device: "NULL", receptions: [GatewayReception(gatewayID: gateway, rssi: -90, snr: 5)])
        try await Self.upload([1], of: store, as: server.connectionString(user: "alice", password: alice.password, database: "coverage"))
        let row = try community.connection.execute("SELECT s.device_id, s.dev_eui IS NULL, r.gateway, r.gateway_eui IS NULL FROM mtt.samples s JOIN mtt.receptions r ON r.db = s.db AND r.sample_id = s.id").rows
        #expect(row == [["NULL", "t", gateway, "t"]])
    }

    /// As docs/community.md sets a server up: the database's owner may create roles but is no
    /// superuser; PostGIS was created by one beforehand.
    @Test func theOwnerNeedNotBeASuperuser() async throws {
        let server = try await PostgresServer.start()
        try server.psql("CREATE ROLE coverage_admin LOGIN CREATEROLE PASSWORD 'owner-password'")
        try server.psql("CREATE DATABASE coverage OWNER coverage_admin")
        try server.psql("CREATE EXTENSION postgis", database: "coverage")
        let community = CommunityDatabase(try PostgresConnection(server.connectionString(user: "coverage_admin", password: "owner-password", database: "coverage")))
        #expect(try community.migrate().to >= 1)
        let alice = try community.addMapper("alice")
        let connection = try PostgresConnection(server.connectionString(user: "alice", password: alice.password, database: "coverage"))
        #expect(try connection.execute("SELECT count(*) FROM mtt.cells").value == "0")
    }

    @Test func aWrongPasswordAndNoServerAreOneLineEach() async throws {
        let server = try await PostgresServer.start()
        #expect {
            try PostgresConnection(server.connectionString(password: "not-the-password"))
        } throws: { error in
            "\(error)".contains("password authentication failed for user \"\(PostgresServer.admin)\"") && !"\(error)".contains("\n")
        }
        server.stop()
        #expect {
            try PostgresConnection(server.connectionString())
        } throws: { error in
            "\(error)".contains("Connection refused") && !"\(error)".contains("\n")
        }
    }

    /// Uploads the local records `ids` as the postgis target does (its destination's batch,
    /// through its transport), as the mapper whose connection string is `url`.
    static func upload(_ ids: [Int64], of store: Store, as url: String, kind: SyncRecordKind = .sample) async throws {
        let destination = PostGISDestination(server: "test", databaseID: try store.databaseID())
        let transport = PostgresSyncTransport(url)
        for case .upload(let batch) in try destination.work(for: kind, ids: ids, store: store) {
            try await transport.send(batch.request)
        }
    }

    /// The community's cells as the local store lists them: x, y, network, gateway, antenna, SF,
    /// the bucket counts and the best signal.
    static func communityCells(_ connection: PostgresConnection) throws -> [String] {
        try connection.execute("""
            SELECT concat_ws(' ', x, y, network, gateway, antenna, sf, \(SignalBucket.allCases.map { "b_\($0.name)" }.joined(separator: ", ")), best)
            FROM mtt.coverage_cells ORDER BY y, x, gateway, network, antenna, sf
            """).rows.map { $0[0] ?? "" }
    }

    static func localCells(_ store: Store) throws -> [String] {
        var cells: [String] = []
        try store.coverage.forEachGatewayCell(CoverageFilter(), perSpreadingFactor: true) { c in
            cells.append(([c.tile.x, c.tile.y].map(String.init) + [c.network, c.gateway, String(c.antenna), String(c.spreadingFactor ?? 0)]
                + c.buckets.map(String.init) + [c.best.plainText]).joined(separator: " "))
        }
        return cells
    }

    /// The database's triggers count a drive's receptions into the same cells as the mapper's own
    /// SQLite (tile, gateway, SF, bucket counts, best signal), and a repeated upload changes nothing.
    @Test func theTriggersKeepTheCellsTheLocalStoreKeeps() async throws {
        let (server, community) = try await Self.community()
        try community.migrate()
        let alice = try community.addMapper("alice")
        let aliceURL = server.connectionString(user: "alice", password: alice.password, database: "coverage")
        let connection = try PostgresConnection(aliceURL)
        let folder = TemporaryDirectory("mtt-community")
        let store = try Store(path: folder.file("alice.sqlite"))
        try MapTestData.drive(store)
        #expect(try store.sync.queuedSamples(Array(1...40)).count == 40)
        for _ in 1...2 { try await Self.upload(Array(1...40), of: store, as: aliceURL) }
        let local = try Self.localCells(store)
        #expect(!local.isEmpty)
        #expect(try Self.communityCells(community.connection) == local)
        #expect(try connection.execute("SELECT count(*) FROM mtt.samples").value == "40")
        // The views QGIS and the map read: a polygon per cell, each gateway where it said it is.
        #expect(try connection.execute("SELECT count(*) FROM mtt.cells").value == String(Set(local.map { $0.split(separator: " ").prefix(2) }).count))
        #expect(try connection.execute("SELECT string_agg(gateway, ',' ORDER BY gateway) FROM mtt.gateways").value == "gw-north,gw-start")
        #expect(try connection.execute("SELECT ST_GeometryType(geom) FROM mtt.cells LIMIT 1").value == "ST_Polygon")
        // Reach: a polygon per antenna and level it reaches, as the local store draws them.
        let localReach = try store.coverage.reach().flatMap { reach in ReachLevel.allCases.filter(reach.reaches).map { "\(reach.gateway) \($0.rawValue)" } }.sorted()
        let communityReach = try connection.execute("SELECT gateway || ' ' || level FROM mtt.reach ORDER BY 1").rows.map { $0[0] ?? "" }
        #expect(!localReach.isEmpty && communityReach == localReach)

        // QGIS reads the views as layers: GDAL's PostgreSQL driver sees polygons in EPSG:4326.
        let ogrinfo = try await ChildProcess.run("/usr/bin/ogrinfo", [
            "-ro", "-so", "PG:host=127.0.0.1 port=\(server.port) dbname=coverage user=\(PostgresServer.admin) password=\(PostgresServer.adminPassword)",
            "mtt.cells",
        ])
        #expect(ogrinfo.status == 0, "\(ogrinfo.stderr)")
        #expect(ogrinfo.stdout.contains("Geometry: Polygon") && ogrinfo.stdout.contains("Feature Count: \(Set(local.map { $0.split(separator: " ").prefix(2) }).count)")
            && ogrinfo.stdout.contains("ID[\"EPSG\",4326]"), "\(ogrinfo.stdout)")
    }

    /// Most ChirpStack and many TTN gateways keep their position to themselves (26 of the 41
    /// receptions of a real ChirpStack corpus): their receptions count in the community's cells
    /// as in the mapper's own, not as "farther than 200 km".
    @Test func gatewaysWithoutAPositionCountAsTheyDoLocally() async throws {
        let (server, community) = try await Self.community()
        try community.migrate()
        let alice = try community.addMapper("alice")
        let store = try Store(path: TemporaryDirectory("mtt-community").file("alice.sqlite"))
        let route = (0..<6).map { MapTestData.here.offset(metres: Double($0) * 80, bearing: 45) }
        try MapTestData.heardSamples(store, at: route, receptions: [
            GatewayReception(gatewayID: "cs-hidden-1", rssi: -97, snr: 4),
            GatewayReception(gatewayID: "cs-hidden-2", rssi: -113, snr: -7),
            GatewayReception(gatewayID: "cs-placed", rssi: -105, snr: 1, location: MapTestData.here.offset(metres: 2_000, bearing: 200)),
        ])
        try await Self.upload(Array(1...6), of: store, as: server.connectionString(user: "alice", password: alice.password, database: "coverage"))
        let local = try Self.localCells(store)
        #expect(Set(local.map { $0.split(separator: " ", omittingEmptySubsequences: false)[3] }) == ["cs-hidden-1", "cs-hidden-2", "cs-placed"])
        #expect(try Self.communityCells(community.connection) == local)
        #expect(try community.connection.execute("SELECT count(*) FROM mtt.coverage_left_out").value == "0")
    }

    /// Security is the database's: a mapper inserts under its own name only, changes and deletes
    /// nothing, reads no other mapper's raw rows (but everybody's cells); the map role reads the
    /// views only. Each refusal is PostgreSQL's own error, in one line.
    @Test func aMapperWritesOnlyItsOwnRowsAndTheMapOnlyReads() async throws {
        let (server, community) = try await Self.community()
        try community.migrate()
        let alice = try community.addMapper("alice"), bob = try community.addMapper("bob"), map = try community.grantMap("citymap")
        #expect(alice.url.hasSuffix("@127.0.0.1:\(server.port)/coverage") && alice.pgpassLine.hasSuffix(":coverage:alice:\(alice.password)"))
        func connect(_ account: CommunityDatabase.Account) throws -> PostgresConnection {
            try PostgresConnection(server.connectionString(user: account.name, password: account.password, database: "coverage"))
        }
        let a = try connect(alice), b = try connect(bob), m = try connect(map)
        let folder = TemporaryDirectory("mtt-community")
        let store = try Store(path: folder.file("alice.sqlite"))
        try MapTestData.drive(store)
        try await Self.upload([1], of: store, as: server.connectionString(user: alice.name, password: alice.password, database: "coverage"))

        func refused(_ connection: PostgresConnection, _ sql: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(sourceLocation: sourceLocation) {
                try connection.execute(sql)
            } throws: { error in
                "\(error)".contains(reason) && !"\(error)".contains("\n")
            }
        }
        refused(b, "INSERT INTO mtt.sessions (db, id, mapper, mode, started_at) VALUES (gen_random_uuid(), 1, 'alice', 'active', now())",
                "new row violates row-level security policy for table \"sessions\"")
        refused(a, "UPDATE mtt.samples SET sf = 7", "permission denied for table samples")
        refused(a, "DELETE FROM mtt.samples", "permission denied for table samples")
        refused(a, "DELETE FROM mtt.coverage_cells", "permission denied for table coverage_cells")
        #expect(try b.execute("SELECT count(*) FROM mtt.samples").value == "0", "bob reads alice's samples")
        #expect(try b.execute("SELECT count(*) FROM mtt.receptions").value == "0", "bob reads alice's receptions")
        #expect(try a.execute("SELECT count(*) FROM mtt.samples").value == "1")
        #expect(try b.execute("SELECT count(*) FROM mtt.cells").value != "0", "bob does not see the community's cells")
        refused(m, "SELECT count(*) FROM mtt.samples", "permission denied for table samples")
        refused(m, "INSERT INTO mtt.sessions (db, id, mode, started_at) VALUES (gen_random_uuid(), 1, 'active', now())", "permission denied for table sessions")
        #expect(try m.execute("SELECT count(*) FROM mtt.cells").value != "0")
        #expect(try m.execute("SELECT string_agg(mapper || ' ' || samples, ',' ORDER BY mapper) FROM mtt.mappers").value == "alice 1,bob 0")
    }
}
