import Foundation
import MTTCore
@testable import MTTPostgres
import TestSupport
import Testing

/// The community's raw rows kept a month a partition (issue 48, schema version 4): a database of
/// the version before, holding two mappers' drives, is migrated in place and answers as before;
/// a month is archived and the map keeps what it counted.
@Suite("The community's months", .serialized)
struct CommunityMonthsTests {
    /// Every aggregate table, and the mappers' totals as their view sums them, row by row as text:
    /// what the migrations must leave as it was.
    static func aggregates(_ c: PostgresConnection) throws -> String {
        let tables = ["coverage_cells", "coverage_attempts", "coverage_left_out", "coverage_reach", "coverage_totals",
                      "coverage_cell_gateways", "gateway_positions", "gateway_reports", "mappers"]
        return try tables.map { table in
            "\(table)\n" + (try c.execute("SELECT t::text FROM mtt.\(table) t ORDER BY 1").rows.map { $0[0] ?? "NULL" }.joined(separator: "\n"))
        }.joined(separator: "\n")
    }

    /// What the map serves, each answer by its path.
    static func answers(_ port: Int) async throws -> [String: String] {
        let box = "bbox=5.0,52.0,5.3,52.2"
        var paths = ["/api/cells?z=19&\(box)", "/api/cells?z=16&\(box)", "/api/cells?z=13&\(box)", "/api/cells?z=17&\(box)&sf=10",
                     "/api/cells?z=18&\(box)&gateway=\(MapTestData.driveGateways.north)", "/api/gateways", "/api/reach",
                     "/api/cell?z=19&x=0&y=0"]
        for (layer, zoom) in [("cells", 12), ("unheard", 14), ("reach", 10), ("gateways", 10)] {
            let tile = MapTile(containing: MapTestData.here, zoom: zoom)
            paths.append("/tiles/\(layer)/\(zoom)/\(tile.x)/\(tile.y).mvt")
        }
        let heard = try await CoverageMapTests.features(port: port, "/api/cells?z=17&\(box)").compactMap { $0["properties"] as? [String: Any] }
        paths += heard.map { "/api/cell?z=17&x=\($0["x"] as? Int ?? -1)&y=\($0["y"] as? Int ?? -1)" }
        var answers: [String: String] = [:]
        for path in paths {
            let answer = try await PlainHTTP.get(port: port, path)
            answers[path] = "\(answer.status) \(answer.body.base64EncodedString())"
        }
        return answers
    }

    @Test func aVersion3DatabaseKeptByMonthAnswersAsBefore() async throws {
        let server = try await PostgresServer.start()
        try server.createDatabase("coverage")
        let admin = CommunityDatabase(try PostgresConnection(server.connectionString(database: "coverage")))
        try admin.migrate(through: 3)
        let directory = TemporaryDirectory("mtt-months")
        let stores = [try Store(path: directory.file("alice.sqlite")), try Store(path: directory.file("bob.sqlite"))]
        try MapTestData.drive(stores[0])
        try MapTestData.fill(stores[1])
        for (name, store) in zip(["alice", "bob"], stores) {
            let account = try admin.addMapper(name)
            for kind in SyncRecordKind.allCases {
                let ids = try store.sync.syncQueue(.postgis, kind: kind, after: 0, limit: .max, scope: SyncScope(includeSimulated: true))
                try OlderCommunityUpload.upload(ids, of: store, as: server.connectionString(user: name, password: account.password, database: "coverage"), kind: kind)
            }
        }
        let viewer = try admin.grantMap("viewer")
        let (before, port) = try await CommunityMapTests.serve(MTTCommand(), db: viewer.url, environment: ["PGPASSWORD": viewer.password])
        defer { before.kill() }
        let aggregates = try Self.aggregates(admin.connection)
        let answers = try await Self.answers(port)
        #expect(answers.count > 10 && answers.values.allSatisfy { $0.hasPrefix("200 ") } && aggregates.count > 5_000, "\(answers.filter { !$0.value.hasPrefix("200 ") }.keys)")
        let rows = "SELECT (SELECT count(*) FROM mtt.samples), (SELECT count(*) FROM mtt.receptions), (SELECT count(*) FROM mtt.attempts), (SELECT count(*) FROM mtt.tracks)"
        let counted = try admin.connection.execute(rows).rows

        #expect(try admin.migrate() == (from: 3, to: CommunityDatabase.latestSchemaVersion))
        // Every row is in its month (June 2026), none in the default partitions.
        #expect(try admin.connection.execute(rows).rows == counted)
        #expect(try admin.connection.execute("SELECT (SELECT count(*) FROM mtt.samples_2026_06) || ' ' || (SELECT count(*) FROM mtt.samples_default)").value
                == "\(counted[0][0] ?? "") 0")
        #expect(try Self.aggregates(admin.connection) == aggregates)
        #expect(try await Self.answers(port) == answers, "the map running across the migration answers otherwise")
        let (after, newPort) = try await CommunityMapTests.serve(MTTCommand(), db: viewer.url, environment: ["PGPASSWORD": viewer.password])
        defer { after.kill() }
        #expect(try await Self.answers(newPort) == answers)

        // Archiving June as docs/community.md does: detached, dumped, dropped; the map as it was.
        let detached = try admin.connection.execute("SELECT mtt.detach_month('2026-06-01')").rows.map { $0[0] ?? "" }
        #expect(detached == ["mtt.attempts_2026_06", "mtt.samples_2026_06", "mtt.receptions_2026_06", "mtt.tracks_2026_06"])
        let dump = directory.file("coverage-2026-06.dump")
        try server.client("pg_dump", ["-Fc", "-t", "mtt.*_2026_06", "-f", dump], database: "coverage")
        try admin.connection.execute(detached.map { "DROP TABLE \($0);" }.joined())
        #expect(try admin.connection.execute("SELECT count(*) FROM mtt.samples").value == "0")
        #expect(try await Self.answers(port) == answers)
        // The dump reads back as plain tables, counted by nothing.
        try server.client("pg_restore", [dump], database: "coverage")
        #expect(try admin.connection.execute("SELECT count(*) FROM mtt.samples_2026_06").value == counted[0][0])
        #expect(try admin.connection.execute("SELECT count(*) FROM mtt.samples").value == "0")
        #expect(try Self.aggregates(admin.connection) == aggregates)

        // A mapper's records of the archived month are refused in one line, and stay queued.
        let carol = CommunitySyncTests.Mapper(account: try admin.addMapper("carol"))
        try MapTestData.fill(try Store(path: carol.mtt.database))
        let refused = try await carol.sync()
        #expect(refused.status != 0 && refused.stderr.contains("records of 2026-06 arrive after the community archived that month"),
                "\(refused.stdout)\(refused.stderr)")
        #expect(try Store(path: carol.mtt.database).queueCount(.postgis) > 0)
        #expect(try await Self.answers(port) == answers)
    }

    /// A mapper's upload made each month it needs, and an upload of a schema this mtt does not
    /// know is refused in one line before anything is sent.
    @Test func anUploadMakesItsMonthsAndRefusesAnOlderSchema() async throws {
        let server = try await PostgresServer.start()
        try server.createDatabase("old")
        let old = CommunityDatabase(try PostgresConnection(server.connectionString(database: "old")))
        try old.migrate(through: 3)
        let oldMapper = CommunitySyncTests.Mapper(account: try old.addMapper("dave"))
        try MapTestData.fill(try Store(path: oldMapper.mtt.database))
        let refused = try await oldMapper.sync()
        #expect(refused.status != 0 && refused.stderr.contains("the community database's schema is older than this mtt uploads into (version \(CommunityDatabase.latestSchemaVersion))"),
                "\(refused.stdout)\(refused.stderr)")
        #expect(try old.connection.execute("SELECT count(*) FROM mtt.sessions").value == "0")

        let (current, admin, accounts) = try await CommunitySyncTests.community(["erin"])
        defer { withExtendedLifetime(current) {} }
        let erin = CommunitySyncTests.Mapper(account: accounts["erin"]!)
        let store = try Store(path: erin.mtt.database)
        try MapTestData.fill(store)
        let june = try store.sync.syncQueue(.postgis, kind: .sample, after: 0, limit: .max, scope: SyncScope(includeSimulated: true)).count
        // And a walk over the turn of a month, a year earlier: two months more.
        try SyncTestData.addListenerSamples(3, to: store, from: RFC3339.parse("2025-03-31T23:59:58Z")!)
        let sync = try await erin.sync()
        #expect(sync.status == 0 && sync.stdout.contains(" 0 still queued"), "\(sync.stdout)\(sync.stderr)")
        let partitions = try admin.connection.execute("""
            SELECT c.relname || ' ' || (SELECT count(*) FROM mtt.samples s WHERE s.tableoid = c.oid)
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'mtt.samples'::regclass ORDER BY 1
            """).rows.map { $0[0] ?? "" }
        #expect(partitions == ["samples_2025_03 2", "samples_2025_04 1", "samples_2026_06 \(june)", "samples_default 0"])
    }
}
