import Foundation
import MTTCore
import MTTPostgres
import TestSupport
import Testing

/// `mtt serve --db postgresql://…` (issue 29): a community's map, read through the map's role,
/// showing everybody's coverage exactly as one local database holding all the drives would, and
/// nobody's drive.
@Suite("The community map", .serialized)
struct CommunityMapTests {
    /// Alice drove (`MapTestData.drive`), Bob mapped a listener walk and some unheard attempts
    /// (`MapTestData.fill`); both uploaded; `viewer` may read the map. `merged` is one local
    /// database with both.
    struct Community {
        let server: PostgresServer
        let database: CommunityDatabase
        let viewer: CommunityDatabase.Account
        let merged = MTTCommand()
        let stores: [Store]
    }

    static func community() async throws -> Community {
        let (server, database, accounts) = try await CommunitySyncTests.community(["alice", "bob"])
        let alice = CommunitySyncTests.Mapper(account: accounts["alice"]!), bob = CommunitySyncTests.Mapper(account: accounts["bob"]!)
        try MapTestData.drive(try Store(path: alice.mtt.database))
        try MapTestData.fill(try Store(path: bob.mtt.database))
        for mapper in [alice, bob] {
            let sync = try await mapper.sync()
            #expect(sync.status == 0 && sync.stdout.contains(" 0 still queued"), "\(sync.stdout)\(sync.stderr)")
        }
        let community = Community(
            server: server, database: database, viewer: try database.grantMap("viewer"),
            stores: [try Store(path: alice.mtt.database), try Store(path: bob.mtt.database)])
        let merged = try Store(path: community.merged.database)
        try MapTestData.drive(merged)
        try MapTestData.fill(merged)
        return community
    }

    /// `mtt serve` on `db` (a file or a community URL), with `environment`; its port.
    static func serve(_ mtt: MTTCommand, db: String, environment: [String: String] = [:]) async throws -> (ChildProcess.Running, Int) {
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "127.0.0.1:\(port)", "--tiles", "none", "--db", db], environment: environment)
        #expect(await server.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(server.stderr)")
        return (server, port)
    }

    /// The community's map and the merged database's, each served: what the comparisons read.
    static func servedBesideTheMergedDatabase() async throws -> (Community, community: Int, local: Int, [ChildProcess.Running]) {
        let c = try await community()
        let (community, communityPort) = try await serveCommunity(c)
        let (local, localPort) = try await serve(c.merged, db: c.merged.database)
        return (c, communityPort, localPort, [community, local])
    }

    static func serveCommunity(_ c: Community) async throws -> (ChildProcess.Running, Int) {
        try await serve(MTTCommand(), db: c.viewer.url, environment: ["PGPASSWORD": c.viewer.password])
    }

    /// A polygon feature's outer ring, as [longitude, latitude] pairs.
    static func ring(_ feature: [String: Any]) -> [[Double]] {
        ((feature["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first ?? []
    }

    static func get(_ port: Int, _ path: String) async throws -> PlainHTTP.Answer {
        try await PlainHTTP.get(port: port, path)
    }

    /// The community's cells, a cell's gateways and a gateway's reach, at the zooms the page asks
    /// for, are byte for byte what a local database holding both mappers' records serves.
    @Test func theCommunityMapServesWhatOneDatabaseWithBothDrivesWould() async throws {
        let (c, communityPort, localPort, servers) = try await Self.servedBesideTheMergedDatabase()
        defer { servers.forEach { $0.kill() }; withExtendedLifetime(c.server) {} }

        let box = "bbox=5.0,52.0,5.3,52.2"
        var compared = 0
        for path in [
            "/api/cells?z=19&\(box)", "/api/cells?z=16&\(box)", "/api/cells?z=13&\(box)", "/api/cells?z=17&\(box)&sf=10",
            "/api/cells?z=18&\(box)&gateway=\(MapTestData.driveGateways.north)",
        ] {
            let (ours, theirs) = (try await Self.get(communityPort, path), try await Self.get(localPort, path))
            #expect(ours.status == 200 && ours.text == theirs.text, "\(path) differs from the merged database's: \(ours.status)")
            await compared += try CoverageMapTests.features(port: communityPort, path).count
        }
        #expect(compared > 100, "too few cells to compare: \(compared)")
        // Reach: the same polygons, to a ten-millionth of a metre (PostgreSQL's sines and Swift's
        // differ in the last bit).
        for path in ["/api/reach?gateway=\(MapTestData.driveGateways.start)", "/api/reach"] {
            let (ours, theirs) = (try await CoverageMapTests.features(port: communityPort, path), try await CoverageMapTests.features(port: localPort, path))
            #expect(ours.count == theirs.count && ours.count > 1, "\(path): \(ours.count) polygons, \(theirs.count) locally")
            for (a, b) in zip(ours, theirs) {
                #expect(NSDictionary(dictionary: a["properties"] as? [String: Any] ?? [:]).isEqual(to: b["properties"] as? [String: Any] ?? [:]))
                let (ringA, ringB) = (Self.ring(a), Self.ring(b))
                #expect(ringA.count == ringB.count && zip(ringA, ringB).allSatisfy { abs($0[0] - $1[0]) < 1e-12 && abs($0[1] - $1[1]) < 1e-12 },
                        "\(path): \(a["properties"] ?? "") is drawn elsewhere")
            }
        }

        // A click on each heard zoom-17 cell: the same gateways, in the same order.
        let heard = try await CoverageMapTests.features(port: localPort, "/api/cells?z=17&\(box)").map { $0["properties"] as? [String: Any] ?? [:] }
            .filter { $0["state"] as? String == "heard" }
        #expect(heard.count > 3)
        for cell in heard {
            let path = "/api/cell?z=17&x=\(cell["x"] as? Int ?? -1)&y=\(cell["y"] as? Int ?? -1)"
            await #expect(try Self.get(communityPort, path).text == Self.get(localPort, path).text, "\(path)")
        }

        // The gateways: the same antennas, cells, receptions and positions (all of these publish one).
        let gateways = try await #require(try CoverageMapTests.json(try Self.get(communityPort, "/api/gateways").text) as? [[String: Any]])
        let expected = try c.stores.flatMap { try $0.coverage.coverageGateways(CoverageFilter()) }
        #expect(Set(gateways.compactMap { $0["gateway"] as? String }) == Set(expected.map(\.gateway)))
        let merged = try Store(path: c.merged.database).coverage.coverageGateways(CoverageFilter())
        for g in merged {
            let row = gateways.first { $0["gateway"] as? String == g.gateway } ?? [:]
            #expect(row["cells"] as? Int == g.cells && row["receptions"] as? Int == g.receptions, "\(g.gateway): \(row)")
            let (lat, lon) = (row["lat"] as? Double ?? 0, row["lon"] as? Double ?? 0)
            #expect(abs(lat - (g.position?.latitude ?? 0)) < 1e-12 && abs(lon - (g.position?.longitude ?? 0)) < 1e-12, "\(g.gateway): \(row)")
        }
    }

    /// The community's vector tiles (issue 48) are the bytes a local database with both drives
    /// serves: one encoder over the same aggregates.
    @Test func theCommunitysVectorTilesAreTheLocalOnes() async throws {
        let (c, communityPort, localPort, servers) = try await Self.servedBesideTheMergedDatabase()
        defer { servers.forEach { $0.kill() }; withExtendedLifetime(c.server) {} }
        var compared = 0
        for zoom in [12, 14, 16] {
            let tile = MapTile(containing: MapTestData.here.offset(metres: 1_000, bearing: 90), zoom: zoom)
            for layer in ["cells", "unheard", "gateways"] {
                let path = "/tiles/\(layer)/\(zoom)/\(tile.x)/\(tile.y).mvt"
                let (ours, theirs) = (try await Self.get(communityPort, path), try await Self.get(localPort, path))
                #expect(ours.status == 200 && ours.body == theirs.body && ours.headers["etag"] == theirs.headers["etag"], "\(path): \(ours.status), \(ours.body.count) bytes against \(theirs.body.count)")
                compared += ours.body.count
            }
        }
        #expect(compared > 1_000, "\(compared) bytes of tiles compared")
    }

    /// The community's predicted layer (issue 45), fitted to the cells the map's role reads: where
    /// a local database with both drives predicts, the community does too, within what the cells'
    /// 5 dB buckets cost (the models' own test holds the fits to each other).
    @Test func theCommunityMapPredictsFromItsCells() async throws {
        let (c, communityPort, localPort, servers) = try await Self.servedBesideTheMergedDatabase()
        defer { servers.forEach { $0.kill() }; withExtendedLifetime(c.server) {} }
        let path = "/api/predicted?z=14&bbox=5.0,52.0,5.3,52.2"
        let answer = try await Self.get(communityPort, path)
        #expect(answer.status == 200, "\(answer.text)")
        func signals(_ port: Int) async throws -> [String: Double] {
            var signals: [String: Double] = [:]
            for feature in try await CoverageMapTests.features(port: port, path) {
                let p = feature["properties"] as? [String: Any] ?? [:]
                if let signal = p["signal"] as? Double { signals["\(p["x"] as? Int ?? -1)/\(p["y"] as? Int ?? -1)"] = signal }
            }
            return signals
        }
        let (ours, theirs) = (try await signals(communityPort), try await signals(localPort))
        #expect(ours.count > 20 && theirs.count > 20, "community \(ours.count) predicted tiles, local \(theirs.count)")
        let both = Set(ours.keys).intersection(theirs.keys)
        #expect(Double(both.count) >= 0.9 * Double(max(ours.count, theirs.count)), "\(both.count) tiles in both of \(ours.count) and \(theirs.count)")
        let differences = both.map { abs(ours[$0]! - theirs[$0]!) }.sorted()
        #expect(differences.last ?? 99 < 1, "the community's predictions differ from the local ones by up to \(differences.last ?? -1) dB")

        // mtt coverage predict and plan read the community as its map does.
        let viewer = MTTCommand(), password = ["PGPASSWORD": c.viewer.password]
        let place = MapTestData.here.offset(metres: 1_000, bearing: 90)
        let at = "\(place.latitude),\(place.longitude)"
        func predicted(_ result: ChildProcess.Result) throws -> Double? {
            let point = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let gateways = point?["gateways"] as? [[String: Any]] ?? []
            return gateways.first { $0["gateway_id"] as? String == MapTestData.driveGateways.start }?["signal"] as? Double
        }
        let shared = try await viewer.run(["coverage", "predict", "--at", at, "--json", "--db", c.viewer.url], environment: password)
        let own = try await c.merged.run(["coverage", "predict", "--at", at, "--json", "--db", c.merged.database])
        let (sharedSignal, ownSignal) = (try predicted(shared), try predicted(own))
        #expect(shared.status == 0 && sharedSignal != nil && ownSignal != nil, "\(shared.stdout)\(shared.stderr)")
        #expect(abs((sharedSignal ?? 0) - (ownSignal ?? 99)) < 1, "community \(String(describing: sharedSignal)), local \(String(describing: ownSignal))")
        let plan = try await viewer.run(["coverage", "plan", "--grid", "--top", "3", "--json", "--db", c.viewer.url], environment: password)
        #expect(plan.status == 0 && plan.stdout.split(separator: "\n").count == 3, "\(plan.stdout)\(plan.stderr)")
        let windowed = try await viewer.run(["coverage", "predict", "--at", at, "--since", "1d", "--db", c.viewer.url], environment: password)
        #expect(windowed.status != 0 && windowed.stderr.contains("no sessions and no time window"), "\(windowed.stderr)")
    }

    /// Each mapper's totals in the status, as their own databases count them; and where the map opens.
    @Test func theStatusCountsEachMappersRecords() async throws {
        let c = try await Self.community()
        defer { withExtendedLifetime(c.server) {} }
        let (community, port) = try await Self.serveCommunity(c)
        defer { community.kill() }
        let status = try await #require(try CoverageMapTests.json(try Self.get(port, "/api/status").text) as? [String: Any])
        let mappers = status["mappers"] as? [[String: Any]] ?? []
        #expect(mappers.compactMap { $0["name"] as? String } == ["alice", "bob"])
        for (row, store) in zip(mappers, c.stores) {
            let own = try store.status()
            #expect(row["samples"] as? Int == own.samples && row["attempts"] as? Int == own.confirmed + own.failed, "\(row)")
            #expect(row["heard"] as? Int == own.heard && row["sessions"] as? Int == own.sessions, "\(row)")
        }
        let summary = try Store(path: c.merged.database).coverage.coverageSummary(CoverageFilter())
        #expect(status["cells"] as? Int == summary.area.mapped && status["heard_cells"] as? Int == summary.area.heard, "\(status)")
        let bounds = status["bounds"] as? [Double] ?? []
        #expect(bounds.count == 4 && bounds[0] < MapTestData.here.longitude + 0.001 && bounds[3] > MapTestData.here.latitude, "\(bounds)")
    }

    /// The page in Chromium: it opens on the mapped area, draws the cells of both mappers (the
    /// drive's and the walk's) as the API gives them, lists both mappers, and draws no dots, even
    /// zoomed in.
    @Test func theCommunityPageShowsBothMappersCells() async throws {
        let c = try await Self.community()
        defer { withExtendedLifetime(c.server) {} }
        let (community, port) = try await Self.serveCommunity(c)
        defer { community.kill() }
        let page = try HeadlessBrowser(url: "http://127.0.0.1:\(port)/")
        #expect(try await page.wait(until: "document.getElementById('status').dataset.mappers === '2' && document.getElementById('drawn').dataset.cells > 0"))
        #expect(try await CoverageMapTests.drawn(page, "layer") == "cells")
        let total = c.stores.map { (try? $0.status().samples) ?? 0 }.reduce(0, +)
        #expect(try await page.evaluate("document.getElementById('status').dataset.samples") == "\"\(total)\"")
        let statusText = try await page.evaluate("document.getElementById('status').textContent")
        #expect(statusText.contains("alice") && statusText.contains("bob"), "\(statusText)")

        // What the page drew is what the API gives for its view: the drive's cells east of the
        // centre, the walk's north of it, both in the view.
        let drawnZoom = try await CoverageMapTests.drawn(page, "cellZoom")
        #expect((Int(drawnZoom) ?? 0) >= 18, "cells of zoom \(drawnZoom): the page did not open on the mapped area")
        let cells = try await CoverageMapTests.features(port: port, "/api/cells?z=\(drawnZoom)&bbox=5.0,52.0,5.3,52.2")
        let drawnColours = try await CoverageMapTests.drawn(page, "cellColours")
        let colours = try #require(try CoverageMapTests.json(drawnColours) as? [String: Int])
        #expect(colours == CoverageMapTests.colours(cells), "the page drew \(colours), the API has \(CoverageMapTests.colours(cells))")
        for band in ["#ff0000", "#0000ff", "#000000"] { #expect(colours[band] ?? 0 > 0, "no \(band) cell drawn: \(colours)") }
        let gatewaysTable = try await page.evaluate("document.getElementById('gateways').textContent")
        #expect(gatewaysTable.contains(MapTestData.driveGateways.start) && gatewaysTable.contains("utrecht-dom"), "\(gatewaysTable)")
        let shot = TemporaryDirectory("mtt-community-map")
        let onScreen = try await MapServerTests.coloursOnTheMap(page, shot: shot.path + "/map.png")
        for colour in colours.keys {
            #expect(CoverageMapTests.pixels(CoverageMapTests.cell(colour), onScreen) > 0, "\(colour) is not on the screenshot:\n\(onScreen)")
        }

        // Zoomed in as far as the map goes: still cells, the zoom-19 ones, and never a dot.
        _ = try await page.evaluate("location.hash = '#view=\(MapTestData.here.latitude),\(MapTestData.here.longitude),18'")
        #expect(try await page.wait(until: "document.getElementById('drawn').dataset.cellZoom === '19'"))
        #expect(try await CoverageMapTests.drawn(page, "layer") == "cells")

        // The predicted layer, offered and drawn from the community's cells.
        #expect(try await page.evaluate("document.getElementById('predicted-choice').hidden") == "false")
        _ = try await page.evaluate("document.getElementById('predicted').click()")
        #expect(try await page.wait(until: "document.getElementById('drawn').dataset.predicted > 0"))
    }

    /// Nothing of anybody's drive is served, and a query a community map cannot answer says why.
    @Test func aCommunityMapServesNoDrive() async throws {
        let c = try await Self.community()
        defer { withExtendedLifetime(c.server) {} }
        let (community, port) = try await Self.serveCommunity(c)
        defer { community.kill() }
        for path in ["/api/samples.geojson", "/api/track.geojson", "/api/sessions", "/api/events", "/metrics"] {
            let answer = try await Self.get(port, path)
            #expect(answer.status == 404 && answer.text.contains("not anybody's drive"), "\(path): \(answer.status) \(answer.text)")
        }
        let windowed = try await Self.get(port, "/api/cells?z=15&bbox=5.0,52.0,5.3,52.2&session=1")
        #expect(windowed.status == 400 && windowed.text.contains("no sessions and no time window"), "\(windowed.text)")
        let page = try await Self.get(port, "/")
        #expect(page.status == 200 && page.text.contains("mtt community coverage") && page.text.contains("\"community\": true"))
    }

    /// A wrong password, a role that may not read the map, a database without the schema, a
    /// password on the command line: each one line, before the map starts.
    @Test func whatKeepsTheCommunityMapFromStartingIsOneLine() async throws {
        let c = try await Self.community()
        defer { withExtendedLifetime(c.server) {} }
        let mtt = MTTCommand()
        func refusal(_ db: String, _ environment: [String: String]) async throws -> String {
            let result = try await mtt.run(["serve", "--listen", "127.0.0.1:\(LoopbackPort.free())", "--db", db], environment: environment)
            let lines = result.stderr.split(separator: "\n")
            #expect(result.status != 0 && lines.count == 1, "\(db): \(result.status) \(result.stderr)")
            return result.stderr
        }
        #expect(try await refusal(c.viewer.url, ["PGPASSWORD": "wrong"]).contains("password authentication failed"))
        try c.server.psql("CREATE ROLE stranger LOGIN PASSWORD 'stranger-password'", database: "coverage")
        let stranger = c.viewer.url.replacingOccurrences(of: "viewer@", with: "stranger@")
        let denied = try await refusal(stranger, ["PGPASSWORD": "stranger-password"])
        #expect(denied.contains("may not read the community map") && denied.contains("grant-map"), "\(denied)")
        try c.server.createDatabase("empty")
        let empty = try await refusal(c.server.url(database: "empty"), ["PGPASSWORD": PostgresServer.adminPassword])
        #expect(empty.contains("no community map") && empty.contains("mtt community init"), "\(empty)")
        let inline = c.viewer.url.replacingOccurrences(of: "viewer@", with: "viewer:\(c.viewer.password)@")
        let usage = try await mtt.run(["serve", "--db", inline])
        #expect(usage.status == 64 && usage.stderr.hasPrefix("Error: --db carries a password") && !usage.stderr.contains(c.viewer.password),
                "\(usage.stderr)")
    }

    /// A table locked by its owner (a migration, a VACUUM FULL) holds a read for the map's query
    /// timeout, not for as long as the lock lasts: the map answers 503 with the reason, and answers
    /// again once the lock is gone.
    @Test func aLockedTableHoldsAReadOnlyForTheQueryTimeout() async throws {
        let c = try await Self.community()
        let (community, port) = try await Self.serve(MTTCommand(), db: c.viewer.url,
                                                       environment: ["PGPASSWORD": c.viewer.password, "MTT_SERVE_QUERY_TIMEOUT": "2s"])
        defer { community.kill() }
        let path = "/api/cells?z=16&bbox=5.0,52.0,5.3,52.2"
        let before = try await Self.get(port, path)
        #expect(before.status == 200)
        let owner = c.database.connection
        try owner.execute("BEGIN; LOCK TABLE mtt.coverage_totals IN ACCESS EXCLUSIVE MODE")
        let locked = try await Self.get(port, path)
        try owner.execute("ROLLBACK")
        #expect(locked.status == 503 && locked.text.contains("canceling statement due to statement timeout"), "\(locked.status) \(locked.text.prefix(300))")
        let after = try await Self.get(port, path)
        #expect(after.status == 200 && after.text == before.text)
    }

    /// The database restarts under a running map: a request while it is down says so, the map
    /// keeps running, and the next request after it is back is answered again.
    @Test func theMapOutlivesARestartOfItsDatabase() async throws {
        let c = try await Self.community()
        let (community, port) = try await Self.serveCommunity(c)
        defer { community.kill() }
        let before = try await Self.get(port, "/api/cells?z=16&bbox=5.0,52.0,5.3,52.2")
        #expect(before.status == 200)
        c.server.stop()
        let down = try await Self.get(port, "/api/status")
        #expect(down.status == 503 && down.text.hasPrefix("{\"error\":") && down.text.split(separator: "\n").count == 1, "\(down.status) \(down.text)")
        try c.server.start()
        let after = try await Self.get(port, "/api/cells?z=16&bbox=5.0,52.0,5.3,52.2")
        #expect(after.status == 200 && after.text == before.text, "\(after.status) \(after.text.prefix(200))")
        #expect(!community.hasExited)
    }
}
