import Foundation
import MTTCore
import MTTPostgres
import TestSupport
import Testing

/// The community map without the silent gateways (issue 48, schema version 8): the database keeps
/// it made (materialized views each sync refreshes as it ends) with the silent gateways it was
/// made without, and the map shows it by default: a local database's answers with the same drives,
/// as of the refresh, which `mtt community status` tells. A sync that cannot refresh it says so in
/// a line and loses nothing.
@Suite("The community map without the silent gateways", .serialized)
struct CommunityWithoutSilentTests {
    typealias Mapper = CommunitySyncTests.Mapper

    /// A gateway heard ten days before the drives, where Alice drove (`MapTestData.drive`) and Bob
    /// walked (`MapTestData.fill`): silent, and hidden by default.
    static func gone(_ store: Store) throws {
        let places = (0..<8).map { MapTestData.here.offset(metres: Double($0) * 75, bearing: 90) }
        try MapTestData.heardSamples(
            store, at: places, device: "old-node", startingAt: MapTestData.start.adding(seconds: -10 * 86_400),
            receptions: [GatewayReception(gatewayID: "gw-gone", rssi: -100, snr: 5)])
    }

    /// Twenty days after the drives, a gateway nobody heard before: every other one is silent then.
    static func later(_ store: Store) throws {
        try MapTestData.heardSamples(
            store, at: [MapTestData.here.offset(metres: 300, bearing: 0)], device: "new-node", startingAt: MapTestData.start.adding(seconds: 20 * 86_400),
            receptions: [GatewayReception(gatewayID: "gw-new", rssi: -95, snr: 6)])
    }

    /// The default view at each zoom the page asks for, and the same with the silent shown.
    static let paths = ["/api/cells?z=19", "/api/cells?z=17", "/api/cells?z=15", "/api/cells?z=14", "/api/cells?z=12", "/api/cells?z=8"]
        .flatMap { ["\($0)&bbox=5.0,52.0,5.3,52.2", "\($0)&bbox=5.0,52.0,5.3,52.2&silent=show"] }

    /// Reads of the kept views since the server started, as PostgreSQL counts them. A session
    /// reports its counts a moment after a read, and all of them as it ends: with no other session
    /// left (`othersGone`), the count is whole.
    static func viewReads(_ admin: CommunityDatabase) throws -> Int {
        Int(try admin.connection.execute("""
            SELECT COALESCE(sum(COALESCE(seq_scan, 0) + COALESCE(idx_scan, 0)), 0) FROM pg_stat_user_tables
            WHERE schemaname = 'mtt' AND relname LIKE 'coverage_totals_lately%'
            """).value ?? "") ?? -1
    }

    /// `mtt community status`'s line that says when the kept map was made.
    static func madeLine(_ status: String) -> Substring? {
        status.split(separator: "\n").first { $0.hasPrefix("Map        without the silent gateways as of ") }
    }

    /// No session but the administrator's left in the database: each reported its counts.
    static func othersGone(_ admin: CommunityDatabase) async -> Bool {
        await eventually(timeout: 60) {
            (try? admin.connection.execute("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                """).value) == "0"
        }
    }

    static func silent(_ admin: CommunityDatabase) throws -> [String] {
        try admin.connection.execute("SELECT gateway FROM mtt.silent_gateways ORDER BY gateway").rows.map { $0[0] ?? "" }
    }

    /// Each path's answer, status and body.
    static func answers(_ port: Int, _ paths: [String]) async throws -> [String: String] {
        var answers: [String: String] = [:]
        for path in paths {
            let answer = try await PlainHTTP.get(port: port, path)
            answers[path] = "\(answer.status) \(answer.text)"
        }
        return answers
    }

    /// Each path's answer from the community map differs from the merged database's: the paths that do.
    static func differences(_ community: Int, _ local: Int) async throws -> [String] {
        var differ: [String] = []
        for path in paths {
            let (ours, theirs) = (try await PlainHTTP.get(port: community, path), try await PlainHTTP.get(port: local, path))
            if ours.status != 200 || ours.text != theirs.text { differ.append("\(path) (\(ours.status)): \(ours.text.prefix(600)) | locally: \(theirs.text.prefix(600))") }
        }
        return differ
    }

    static func expectSameAnswers(_ community: Int, _ local: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let differ = try await differences(community, local)
        #expect(differ.isEmpty, "differ from the merged database's: \(differ)", sourceLocation: sourceLocation)
    }

    @Test func theKeptMapAnswersAsALocalDatabaseAsOfItsRefresh() async throws {
        let (server, admin, accounts) = try await CommunitySyncTests.community(["alice", "bob"])
        defer { withExtendedLifetime(server) {} }
        let alice = Mapper(account: accounts["alice"]!), bob = Mapper(account: accounts["bob"]!)
        let merged = MTTCommand()
        let mergedStore = try Store(path: merged.database)
        for store in [try Store(path: alice.mtt.database), mergedStore] {
            try MapTestData.drive(store)
            try Self.gone(store)
        }
        for store in [try Store(path: bob.mtt.database), mergedStore] { try MapTestData.fill(store) }
        for mapper in [alice, bob] {
            let sync = try await mapper.sync()
            #expect(sync.status == 0 && !sync.stdout.contains("not made again"), "\(sync.stdout)\(sync.stderr)")
        }
        // Made as the syncs ended: without the one gateway silent.
        #expect(try Self.silent(admin) == ["gw-gone"])

        // (The refreshes read the views too: counted before the map starts.)
        #expect(await Self.othersGone(admin))
        let before = try Self.viewReads(admin)
        let viewer = try admin.grantMap("viewer")
        var (map, mapPort) = try await CommunityMapTests.serve(MTTCommand(), db: viewer.url, environment: ["PGPASSWORD": viewer.password])
        defer { map.kill() }
        var (local, localPort) = try await CommunityMapTests.serve(merged, db: merged.database)
        defer { local.kill() }
        let shown = try await CoverageMapTests.features(port: mapPort, Self.paths[0])
        #expect(shown.count > 30, "too few cells to compare: \(shown.count)")
        try await Self.expectSameAnswers(mapPort, localPort)
        #expect(await eventually(timeout: 30) { ((try? Self.viewReads(admin)) ?? 0) > before }, "the kept map was not read")

        // Bob's next sync cannot refresh it (the right taken away): his records are stored, he is
        // told in a line, and the map's default view stays as it was made, which it says.
        let made = try await Self.answers(mapPort, Self.paths.filter { !$0.contains("silent=show") })
        let madeAt = try await merged.run(["community", "status", "--url", viewer.url], environment: ["PGPASSWORD": viewer.password])
        #expect(madeAt.stdout.contains("Map        without the silent gateways as of "), "\(madeAt.stdout)\(madeAt.stderr)")
        _ = try admin.connection.execute("REVOKE EXECUTE ON FUNCTION mtt.refresh_lately() FROM coverage_mapper")
        try Self.later(try Store(path: bob.mtt.database))
        try Self.later(mergedStore)
        let behind = try await bob.sync()
        #expect(behind.status == 0 && behind.stdout.contains(" 0 still queued"), "\(behind.stdout)\(behind.stderr)")
        #expect((behind.stdout + behind.stderr).contains("the community map without the silent gateways was not made again"), "\(behind.stdout)\(behind.stderr)")
        #expect(try Self.silent(admin) == ["gw-gone"])
        #expect(try await Self.answers(mapPort, Array(made.keys)) == made)
        let stillMadeAt = try await merged.run(["community", "status", "--url", viewer.url], environment: ["PGPASSWORD": viewer.password])
        #expect(Self.madeLine(stillMadeAt.stdout) == Self.madeLine(madeAt.stdout), "\(stillMadeAt.stdout)")

        // Refreshed by hand: made without every gateway but gw-new. Maps started now read it (a
        // running one reads its silent gateways again within 30 s), and both answer alike.
        let refresh = try await merged.run(["community", "refresh", "--url", server.url(database: "coverage")], environment: ["PGPASSWORD": PostgresServer.adminPassword])
        #expect(refresh.status == 0 && refresh.stdout.hasPrefix("mtt: the map without the silent gateways is made as of "), "\(refresh.stdout)\(refresh.stderr)")
        #expect(try Self.silent(admin) == ["gw-gone", "gw-north", "gw-start", "utrecht-dom"])
        map.kill()
        local.kill()
        #expect(await Self.othersGone(admin))
        let reads = try Self.viewReads(admin)
        (map, mapPort) = try await CommunityMapTests.serve(MTTCommand(), db: viewer.url, environment: ["PGPASSWORD": viewer.password])
        (local, localPort) = try await CommunityMapTests.serve(merged, db: merged.database)
        try await Self.expectSameAnswers(mapPort, localPort)
        #expect(await eventually(timeout: 30) { ((try? Self.viewReads(admin)) ?? 0) > reads }, "the refreshed map was not read")
        let status = try await merged.run(["community", "status", "--url", viewer.url], environment: ["PGPASSWORD": viewer.password])
        #expect(Self.madeLine(status.stdout) != nil && Self.madeLine(status.stdout) != Self.madeLine(madeAt.stdout), "\(status.stdout)\(status.stderr)")
        // And the page says it, as the status line does.
        let page = try HeadlessBrowser(url: "http://127.0.0.1:\(mapPort)/")
        #expect(try await page.wait(until: "document.getElementById('status').dataset.silentHiddenAsOf !== undefined && document.getElementById('status').dataset.silentHiddenAsOf !== ''"))
        let asOf = try await page.evaluate("document.getElementById('status').dataset.silentHiddenAsOf").trimmingCharacters(in: ["\""])  // a JSON string
        let statusText = try await page.evaluate("document.getElementById('status').textContent")
        #expect(Self.madeLine(status.stdout)?.hasSuffix("as of \(asOf) (mtt community refresh)") == true && statusText.contains("Silent hidden") && statusText.contains("as of \(asOf)"), "\(asOf) \(Self.madeLine(status.stdout) ?? "none") \(statusText)")
    }
}
