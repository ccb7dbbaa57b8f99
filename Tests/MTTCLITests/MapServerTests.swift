import Foundation
import MTTCore
import TestSupport
import Testing

/// `mtt serve` and `mtt report` as a user opens them: the API next to the command line, bad
/// requests, the token off loopback, and the page itself in headless Chromium.
@Suite("The map", .serialized)
struct MapServerTests {
    let mtt = MTTCommand()

    /// `mtt serve` on the map test database; returns it and the link it printed.
    func serve(_ extra: [String] = [], listen: String = "127.0.0.1") async throws -> (ChildProcess.Running, String, Int) {
        if !FileManager.default.fileExists(atPath: mtt.database) { try MapTestData.fill(try Store(path: mtt.database)) }
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "\(listen):\(port)", "--tiles", "none", "--db", mtt.database] + extra)
        #expect(await server.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(server.stderr)")
        let link = server.stdout.split(separator: "\n").first { $0.contains("the map is at") }.map { String($0.split(separator: " ").last ?? "") } ?? ""
        return (server, link, port)
    }

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) }

    /// The dots the page says it drew, by colour.
    static func drawnBands(_ browser: HeadlessBrowser) async throws -> [String: Int]? {
        let value = try await browser.evaluate("document.getElementById('drawn').dataset.bands")
        guard let text = try json(value) as? String else { return nil }
        return try json(text) as? [String: Int]
    }

    /// The colours of a screenshot's map area (without the legend's swatches), one "#rrggbb count"
    /// per line.
    static func coloursOnTheMap(_ browser: HeadlessBrowser, shot: String) async throws -> String {
        // A person looks at the map once it stops moving: a zoom is animated, and a shot taken in
        // its quarter second shows the old layer scaled over the new one.
        #expect(try await browser.wait(until: """
            (function () {
              var pane = document.querySelector('.leaflet-map-pane'), at = pane ? pane.style.transform : '';
              var still = !document.querySelector('.leaflet-zoom-anim') && window.mttPaneWas === at;
              window.mttPaneWas = at;
              return still;
            })()
            """), "the map never stopped moving")
        try await browser.screenshot(to: shot)
        let box = try await browser.evaluate("(function () { var r = document.getElementById('map').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom].join(','); })()")
        let result = try await ChildProcess.run("/usr/bin/python3", [
            FixtureFiles.repositoryRoot + "/Tests/Browser/pngcolours.py", shot, box.trimmingCharacters(in: CharacterSet(charactersIn: "\"")),
        ])
        return result.stdout
    }

    @Test func theAPIAnswersAsTheCommandLineDoes() async throws {
        let (server, _, port) = try await serve()
        defer { server.kill() }
        let cli = try await mtt.run(["status", "--db", mtt.database, "--json"])
        let api = try await PlainHTTP.get(port: port, "/api/status")
        #expect(api.status == 200 && api.headers["content-type"] == "application/json")
        #expect(try Self.json(api.text) as? NSDictionary == Self.json(cli.stdout) as? NSDictionary)

        // GeoJSON (RFC 7946): every record a Point at [longitude, latitude], in its band.
        let samples = try await PlainHTTP.get(port: port, "/api/samples.geojson")
        let collection = try #require(try Self.json(samples.text) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == MapTestData.dots)
        var bands: [String: Int] = [:]
        for feature in features {
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let coordinates = try #require(geometry["coordinates"] as? [Double])
            #expect(geometry["type"] as? String == "Point")
            #expect((5.0...5.2).contains(coordinates[0]) && (52.0...52.2).contains(coordinates[1]), "not [lon, lat]: \(coordinates)")
            bands[(feature["properties"] as? [String: Any])?["color"] as? String ?? "", default: 0] += 1
        }
        #expect(bands == MapTestData.expectedBands)
        let one = try await PlainHTTP.get(port: port, "/api/samples.geojson?session=2")
        #expect((try Self.json(one.text) as? [String: Any])?["features"].map { ($0 as? [Any])?.count } == MapTestData.unheard)

        let sessions = try #require(try Self.json(try await PlainHTTP.get(port: port, "/api/sessions").text) as? [[String: Any]])
        #expect(sessions.map { $0["mode"] as? String } == ["listener", "active"])
        let gateways = try #require(try Self.json(try await PlainHTTP.get(port: port, "/api/gateways").text) as? [[String: Any]])
        #expect(gateways.count == 1 && gateways[0]["uplinks"] as? Int == MapTestData.levels.count * MapTestData.perBand)
        #expect(gateways[0]["lat"] as? Double != nil)
        let track = try #require(try Self.json(try await PlainHTTP.get(port: port, "/api/track.geojson").text) as? [String: Any])
        #expect(((track["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any])?["type"] as? String == "LineString")
        let metrics = try await PlainHTTP.get(port: port, "/metrics")
        #expect(metrics.text.contains("mtt_attempts \(Double(MapTestData.unheard))"), "\(metrics.text)")
        #expect(metrics.text.contains(#"mtt_upload_queue{target="ttnmapper"}"#))
    }

    /// `/api/cells` and `/api/reach` (issue 28): read from the aggregates, the same cells as
    /// `mtt coverage`, coarser zooms summing them; a request that cannot be answered is a 400 that
    /// says why.
    @Test func theCoverageAPIAnswersFromTheAggregates() async throws {
        let (server, _, port) = try await serve()
        defer { server.kill() }
        let coverage = try #require(try Self.json(try await mtt.run(["coverage", "--json", "--db", mtt.database]).stdout) as? [String: Any])
        let mapped = try #require((coverage["area"] as? [String: Int])?["mapped"])
        func features(_ query: String) async throws -> [[String: Any]] {
            let answer = try await PlainHTTP.get(port: port, "/api/cells?" + query)
            #expect(answer.status == 200 && answer.headers["content-type"] == "application/geo+json", "\(answer.text)")
            return (try Self.json(answer.text) as? [String: Any])?["features"] as? [[String: Any]] ?? []
        }
        let cells = try await features("z=19&bbox=5.0,52.0,5.3,52.2")
        #expect(cells.count == mapped && mapped == MapTestData.dots, "\(cells.count) cells, \(mapped) mapped")
        var colours: [String: Int] = [:]
        for cell in cells { colours[(cell["properties"] as? [String: Any])?["color"] as? String ?? "", default: 0] += 1 }
        // One reception per heard cell: its colour is its sample's band. The unheard attempts' run
        // had no network source: grey, not black.
        var expected = MapTestData.expectedBands
        expected["#9e9e9e"] = expected.removeValue(forKey: "#000000")
        #expect(colours == expected, "\(colours)")
        let coarse = try await features("z=13&bbox=5.0,52.0,5.3,52.2")
        let receptions = coarse.compactMap { ($0["properties"] as? [String: Any])?["receptions"] as? Int }.reduce(0, +)
        #expect(coarse.count < cells.count && receptions == MapTestData.levels.count * MapTestData.perBand, "\(coarse.count) tiles, \(receptions)")
        await #expect(try features("z=19&bbox=13.0,52.0,13.1,52.1").isEmpty)

        for (query, reason) in [
            ("cells?z=20&bbox=5,52,5.3,52.2", "z must be a zoom from 0 to 19"), ("cells?z=13&bbox=5.3,52,5,52.2", "is inverted"),
            ("cells?z=13&bbox=5,52,five,52.2", "bbox must be four numbers"), ("cells?z=19&bbox=-180,-85,180,85", "ask for a smaller view or a lower zoom"),
            ("cells?z=13", "bbox is missing"), ("cells?z=13&bbox=5,52,5.3,52.2&sf=6", "sf must be a spreading factor"),
            ("cell?z=18&x=1", "y must be a tile index from 0 to 262143 at zoom 18, not missing"),
            ("cell?z=3&x=8&y=1", "x must be a tile index from 0 to 7 at zoom 3, not 8"), ("cell?z=3&x=1&y=1&bbox=1,2,3,4", "bbox"),
        ] {
            let refused = try await PlainHTTP.get(port: port, "/api/" + query)
            #expect(refused.status == 400 && refused.text.contains(reason), "\(query): \(refused.status) \(refused.text)")
        }
        // One cell's gateways: the heard sample's cell lists the gateway with its one reception.
        let heard = try #require(cells.first { ($0["properties"] as? [String: Any])?["state"] as? String == "heard" }?["properties"] as? [String: Any])
        let cell = try #require(try Self.json(try await PlainHTTP.get(port: port, "/api/cell?z=19&x=\(heard["x"] ?? 0)&y=\(heard["y"] ?? 0)").text) as? [String: Any])
        let listed = (cell["features"] as? [[String: Any]] ?? []).compactMap { $0["properties"] as? [String: Any] }
        #expect(listed.map { "\($0["gateway"] ?? "") \($0["receptions"] ?? "")" } == ["utrecht-dom 1"], "\(cell)")
        let reach = try #require(try Self.json(try await PlainHTTP.get(port: port, "/api/reach?gateway=utrecht-dom").text) as? [String: Any])
        let polygons = reach["features"] as? [[String: Any]] ?? []
        #expect(!polygons.isEmpty && polygons.allSatisfy { ($0["properties"] as? [String: Any])?["gateway"] as? String == "utrecht-dom" }, "\(reach)")
    }

    @Test func badRequestsAreRefusedAndNothingOutsideTheTableIsServed() async throws {
        let (server, _, port) = try await serve()
        defer { server.kill() }
        #expect(try await PlainHTTP.get(port: port, "/nothing").status == 404)
        for path in ["/../../etc/passwd", "/leaflet/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/leaflet/%2e%2e%2fleaflet.js", "/app.js/../../etc/passwd"] {
            let answer = try await PlainHTTP.get(port: port, path)
            #expect(answer.status == 404 && !answer.text.contains("root:"), "\(path): \(answer.status)")
        }
        let badSession = try await PlainHTTP.get(port: port, "/api/samples.geojson?session=x")
        #expect(badSession.status == 400 && badSession.text == "session must be a session number, not x\n")
        #expect(try await PlainHTTP.get(port: port, "/api/gateways?since=yesterday").status == 400)
        #expect(try await PlainHTTP.get(port: port, "/api/samples.geojson?sesion=1").text.contains("unknown parameter sesion"))
        let huge = try await PlainHTTP.get(port: port, "/", headers: ["X-Junk: " + String(repeating: "a", count: 1 << 20)])
        #expect(huge.status == 431)
        let body = try await PlainHTTP.send(port: port, Array("POST /api/status HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello".utf8))
        #expect(body.status == 413)
        #expect(try await PlainHTTP.send(port: port, Array("DELETE /api/status HTTP/1.1\r\nHost: x\r\n\r\n".utf8)).status == 405)
        // The server still answers after all that.
        #expect(try await PlainHTTP.get(port: port, "/api/status").status == 200)
    }

    @Test func offLoopbackTheTokenIsRequired() async throws {
        let tokenFile = mtt.dir.file("map-token")
        try "field-token-4242\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        let (server, link, port) = try await serve(["--token-file", tokenFile], listen: "0.0.0.0")
        defer { server.kill() }
        #expect(link.hasSuffix("/?token=field-token-4242"), "\(link)")
        let refused = try await PlainHTTP.get(port: port, "/api/status")
        #expect(refused.status == 401 && refused.text.contains("needs its token"))
        #expect(try await PlainHTTP.get(port: port, "/").status == 401)
        #expect(try await PlainHTTP.get(port: port, "/api/status", headers: ["Authorization: Bearer field-token-4242"]).status == 200)
        #expect(try await PlainHTTP.get(port: port, "/api/status?token=field-token-4242").status == 200)
        #expect(try await PlainHTTP.get(port: port, "/api/status?token=field-token-4").status == 401)
        // Leaflet and the page's script are the same for everyone.
        #expect(try await PlainHTTP.get(port: port, "/leaflet/leaflet.js").status == 200)
    }

    @Test func thePageDrawsOneDotPerSampleInItsBand() async throws {
        let (server, link, _) = try await serve()
        defer { server.kill() }
        // Dots are drawn from zoom 16 on (cells below): the heard samples' grid, at 16.
        let grid = MapTestData.here.offset(metres: 150, bearing: 0).offset(metres: 375, bearing: 90)
        let browser = try HeadlessBrowser(url: link + "#view=\(grid.latitude),\(grid.longitude),16")
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.count == '\(MapTestData.dots)'"), "the page did not draw the dots")
        #expect(try await Self.drawnBands(browser) == MapTestData.expectedBands)
        #expect(try await browser.evaluate("document.querySelectorAll('#gateways tr').length") == "2")
        // What a person sees: each band's colour on the map.
        let colours = try await Self.coloursOnTheMap(browser, shot: mtt.dir.file("map.png"))
        for colour in MapTestData.expectedBands.keys where colour != "#000000" {
            #expect(colours.contains(colour), "\(colour) is not on the map")
        }
    }

    @Test func theReportOpensOfflineAndShowsTheSame() async throws {
        try MapTestData.fill(try Store(path: mtt.database))
        let report = mtt.dir.file("coverage.html")
        let written = try await mtt.run(["report", "--db", mtt.database, "--out", report])
        #expect(written.status == 0, "\(written.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        // Nothing from the network but tiles: no script or style by URL.
        #expect(!html.contains("<script src=") && !html.contains("<link"))
        let browser = try HeadlessBrowser(url: "file://" + report)
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.count == '\(MapTestData.dots)'"))
        #expect(try await Self.drawnBands(browser) == MapTestData.expectedBands)
        #expect(try await browser.evaluate("document.querySelectorAll('#sfs tr').length") == "5")

        // An event's link (a hook's notification) opens the map on its place.
        let focused = try HeadlessBrowser(url: "file://" + report + "#at=52.1,5.13")
        #expect(try await focused.wait(until: "document.getElementById('drawn').dataset.focus == '52.1,5.13'"))
        #expect(try await focused.wait(until: "document.getElementById('drawn').dataset.count == '\(MapTestData.dots)'"))
    }

    /// While a collection writes to the database, the page's status block follows it without a
    /// reload, showing only counts the database had, and each new sample arrives as an event and a
    /// dot. (That it follows within the feed's second is MTTWebTests' `LiveFeedTests`, on a
    /// clock the test moves: measured here against the wall clock, a loaded two-core machine lagged
    /// past any bound that says something.)
    @Test func theStatusBlockFollowsARun() async throws {
        let (server, link, port) = try await serve()
        defer { server.kill() }
        let events = try ChildProcess.Running("/usr/bin/curl", ["-sN", "--max-time", "600", "http://127.0.0.1:\(port)/api/events"], environment: [:])
        defer { events.stop() }
        let browser = try HeadlessBrowser(url: link)
        #expect(try await browser.wait(until: "document.getElementById('status').dataset.attempts == '\(MapTestData.unheard)'"))
        let store = try Store(path: mtt.database)
        let before = try store.status()
        let run = try mtt.start(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "6s", "--db", mtt.database])
        var stored: Set<Int> = [before.attempts], shown: Set<Int> = []
        // The run lasts 6 s of its own; a run that hangs ends the looking after a minute.
        let giveUp = ContinuousClock.now + .seconds(60)
        while !run.hasExited && ContinuousClock.now < giveUp {
            stored.insert(try store.status().attempts)
            if let count = Int(try await browser.evaluate("document.getElementById('status').dataset.attempts").trimmingCharacters(in: CharacterSet(charactersIn: "\""))) {
                shown.insert(count)
            }
            // A look at the page and the database while the run writes, ten times a second.
            try await Task.sleep(for: .milliseconds(100))
        }
        _ = await run.wait(timeout: 30)
        let after = try store.status()
        stored.insert(after.attempts)
        #expect(after.attempts > before.attempts + 3, "the run wrote too little to follow: exit \(run.result.status), \(run.result.stderr)")
        #expect(try await browser.wait(until: "document.getElementById('status').dataset.attempts == '\(after.attempts)'", seconds: 30), "the status block never showed the run's last attempt")
        // No count the database never reached: each shown lies between the start and the end (one
        // stored between two looks of this test may be shown without this test having seen it).
        #expect(shown.allSatisfy { $0 <= after.attempts && $0 >= before.attempts }, "shown \(shown.sorted()), stored \(stored.sorted())")
        // Every sample the run stored came as an event and became a dot (the last may come a
        // second of the feed's after the run ends, or later on a loaded machine).
        func sampleEvents() -> Int { events.stdout.components(separatedBy: "event: sample\n").count - 1 }
        #expect(await eventually(timeout: 120) { sampleEvents() >= after.samples - before.samples })
        #expect(sampleEvents() == after.samples - before.samples, "\(sampleEvents()) sample events for \(after.samples - before.samples) samples")
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.count == '\(MapTestData.dots + after.samples - before.samples)'", seconds: 5))
    }

    // The unheard attempt's grace on the live map: MTTWebTests' LiveFeedTests, on a clock
    // the test moves (it waited 45 s of wall time here).

    // The report as a mapper reads it (issue 33, item 14); here because each opens Chromium, and
    // this suite runs one at a time (several at once starved a two-core machine for seconds).

    /// A reception that names no gateway gets a name in the tables; with no tile loaded (offline,
    /// as in the field), nobody's map is credited.
    @Test func noBlankGatewayAndNoCreditForTilesThatNeverCame() async throws {
        try MapTestData.oneHeardSample(try Store(path: mtt.database), receptions: [GatewayReception(gatewayID: "", rssi: -90, snr: 5)])

        let report = mtt.dir.file("offline.html")
        #expect(try await mtt.run(["report", "--out", report, "--db", mtt.database]).status == 0)
        let browser = try HeadlessBrowser(url: "file://" + report)
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.count === '1'"), "the page drew nothing")
        let table = try await browser.evaluate("document.getElementById('gateways').textContent")
        #expect(table.contains("(unnamed gateway)"), "\(table)")
        // Credited exactly when a tile came (none can here, with no network; if one did, the credit
        // must show). The credit is added in the same task that marks the tile loaded, so the two
        // agree whenever they are read.
        let loaded = try await browser.evaluate("document.querySelectorAll('.leaflet-tile-loaded').length")
        let credit = try await browser.evaluate("document.querySelector('.leaflet-control-attribution') ? document.querySelector('.leaflet-control-attribution').textContent : ''")
        #expect(credit.contains("OpenStreetMap") == (loaded != "0"), "tiles loaded: \(loaded), credit: \(credit)")
    }

    /// The first view shows the dots and the gateways that heard them, named, and the legend says
    /// what a gateway looks like.
    @Test func theFirstViewShowsWhoHeardYouFromWhere() async throws {
        // Three kilometres off: outside a view fitted to the one dot.
        let far = MapTestData.here.offset(metres: 3_000, bearing: 60)
        try MapTestData.oneHeardSample(try Store(path: mtt.database), receptions: [GatewayReception(gatewayID: "gw-hill", rssi: -110, snr: -2, location: far)])

        let report = mtt.dir.file("view.html")
        #expect(try await mtt.run(["report", "--out", report, "--tiles", "none", "--db", mtt.database]).status == 0)
        let browser = try HeadlessBrowser(url: "file://" + report)
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.count === '1'"), "the page drew nothing")
        let label = try await browser.evaluate("""
            (function () {
              var t = document.querySelector('.leaflet-tooltip'), m = document.getElementById('map').getBoundingClientRect();
              if (!t) return 'no label';
              var r = t.getBoundingClientRect();
              return t.textContent + (r.left >= m.left && r.right <= m.right && r.top >= m.top && r.bottom <= m.bottom ? ' in view' : ' out of view');
            })()
            """)
        #expect(label == "\"gw-hill in view\"", "\(label)")
        let legend = try await browser.evaluate("document.getElementById('legend').textContent")
        #expect(legend.contains("gateway that heard you"), "\(legend)")
    }

    /// Two nodes mapping together send from the same places: each node's dots stay visible (here
    /// one is heard strongly, red; the other weakly, blue: both colours are on the screen).
    @Test func twoNodesDotsDoNotHideEachOther() async throws {
        let store = try Store(path: mtt.database)
        // 150 m end to end: the view fits them at the zoom the dots start at (16) even in a small
        // window (a CI run whose page laid out narrower fitted 600 m at 15, and showed cells).
        let route = (0..<4).map { MapTestData.here.offset(metres: Double($0) * 50, bearing: 90) }
        try MapTestData.heardSamples(store, at: route, device: "node-a", devEUI: "0004A30B00000001",
                                     receptions: [GatewayReception(gatewayID: "gw-1", rssi: -95, snr: 8)])
        try MapTestData.heardSamples(store, at: route, device: "node-b", devEUI: "0004A30B00000002",
                                     receptions: [GatewayReception(gatewayID: "gw-1", rssi: -119, snr: -6)])
        let report = mtt.dir.file("two-nodes.html")
        #expect(try await mtt.run(["report", "--out", report, "--tiles", "none", "--db", mtt.database]).status == 0)
        let browser = try HeadlessBrowser(url: "file://" + report)
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.count === '8'"), "the page drew too little")
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.layer === 'dots'"), "the view opened on cells, not dots")
        let colours = try await Self.coloursOnTheMap(browser, shot: mtt.dir.file("two-nodes.png"))
        #expect(colours.contains("#ff0000") && colours.contains("#0000ff"), "\(colours)")
        let legend = try await browser.evaluate("document.getElementById('legend').textContent")
        #expect(legend.contains("Nodes, side by side from left to right: node-a, node-b"), "\(legend)")
    }

    /// A database of drives in two cities opens on the one with more dots, not on a view of half a
    /// country, and a button jumps to the other.
    @Test func twoCitiesOpenOnOneWithAWayToTheOther() async throws {
        let store = try Store(path: mtt.database)
        let berlin = GeoPoint(latitude: 52.52, longitude: 13.405)
        try MapTestData.heardSamples(store, at: (0..<5).map { MapTestData.here.offset(metres: Double($0) * 150, bearing: 0) })
        try MapTestData.heardSamples(store, at: (0..<3).map { berlin.offset(metres: Double($0) * 150, bearing: 0) },
                                     startingAt: MapTestData.start.adding(seconds: 86_400))
        let report = mtt.dir.file("two-cities.html")
        #expect(try await mtt.run(["report", "--out", report, "--tiles", "none", "--db", mtt.database]).status == 0)
        let browser = try HeadlessBrowser(url: "file://" + report)
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.count === '8'"), "the page drew too little")
        func view() async throws -> GeoPoint {
            let text = try await browser.evaluate("document.getElementById('drawn').dataset.view || ''").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            let parts = text.split(separator: ",").compactMap { Double($0) }
            return GeoPoint(latitude: parts.first ?? 0, longitude: parts.last ?? 0)
        }
        // Set when the map's move to its first view ends (Leaflet may animate it).
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.view"))
        let first = try await view()
        #expect(first.distance(to: MapTestData.here) < 2_000, "the first view is centred on \(first)")
        let places = try Self.json(try await browser.evaluate("Array.from(document.querySelectorAll('#places button')).map(function (b) { return b.textContent; }).join(' | ')")) as? String ?? ""
        #expect(places.contains("° N, 5.121° E · 5 dots") && places.contains("° N, 13.4") && places.contains("3 dots"), "places: \(places)")
        #expect(try await browser.evaluate("document.getElementById('summary').textContent").contains("around 52.09"))
        _ = try await browser.evaluate("document.querySelectorAll('#places button')[1].click()")
        let jumped = try await browser.wait(until: "Math.abs(Number((document.getElementById('drawn').dataset.view || '0,0').split(',')[1]) - 13.405) < 0.05")
        let after = try await view()
        #expect(jumped, "after the jump the view is centred on \(after)")
        #expect(try await browser.evaluate("document.getElementById('summary').textContent").contains("around 52.52"))
    }
}
