import Foundation
import MTTCore
import TestSupport
import Testing

/// Issue 33, item 14 (in part): a report of one session counts that session, not the database.
@Suite("The report's counts")
struct ReportScopeTests {
    let mtt = MTTCommand()

    /// The status object the report carries in its data block.
    func status(in report: String) throws -> [String: Any] {
        let html = try String(contentsOfFile: report, encoding: .utf8)
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"mtt-data\">\n"))
        let end = try #require(html.range(of: "\n</script>", range: start.upperBound..<html.endIndex))
        let data = try #require(try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        let status = try #require(data["status"] as? [String: Any])
        return try #require(status["store"] as? [String: Any])
    }

    @Test func aReportOfOneSessionCountsThatSession() async throws {
        let store = try Store(path: mtt.database)
        try SyncTestData.addConfirmedAttempts(3, to: store)
        try SyncTestData.addConfirmedAttempts(5, to: store)
        let one = mtt.dir.file("one.html"), all = mtt.dir.file("all.html")
        #expect(try await mtt.run(["report", "--session", "1", "--out", one, "--tiles", "none", "--db", mtt.database]).status == 0)
        #expect(try await mtt.run(["report", "--out", all, "--tiles", "none", "--db", mtt.database]).status == 0)
        let session = try status(in: one), database = try status(in: all)
        // What `mtt sessions` counts for each.
        let summaries = try store.sessionSummaries()
        let first = try #require(summaries.first)
        #expect(session["attempts"] as? Int == first.attempts && session["confirmed"] as? Int == 3 && session["sessions"] as? Int == 1, "\(session)")
        #expect(session["gps_samples"] as? Int == first.fixes, "\(session)")
        #expect(database["attempts"] as? Int == summaries.map(\.attempts).reduce(0, +) && database["sessions"] as? Int == 2, "\(database)")
        #expect((session["unsynced"] as? [String: Int])?["mapthethings"] == 3, "\(session)")
        // A report is a record of what was mapped: no node "connected" from a run long over.
        #expect((session["nodes"] as? [Any])?.isEmpty ?? true)
        // Titled with the session, by name once it has one.
        #expect(try String(contentsOfFile: one, encoding: .utf8).contains("<h1>Session 1 · 2016-05-25 · mtt coverage</h1>"))
        #expect(try await mtt.run(["sessions", "name", "1", "A40 <eastbound>", "--db", mtt.database]).status == 0)
        #expect(try await mtt.run(["report", "--session", "1", "--out", one, "--tiles", "none", "--db", mtt.database]).status == 0)
        let named = try String(contentsOfFile: one, encoding: .utf8)
        #expect(named.contains("<title>A40 &lt;eastbound&gt; · 2016-05-25 · mtt coverage</title>"), "\(named.prefix(600))")
    }

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
        // Credited exactly when a tile came (none can here, with no network; if one did, the credit must show).
        try await Task.sleep(for: .seconds(2))
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
}
