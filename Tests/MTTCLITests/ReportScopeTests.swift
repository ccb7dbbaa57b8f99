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
        let summaries = try store.sessions.sessionSummaries()
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

    /// An attempt no gateway heard has no uplink to say its spreading factor; mtt set it, so the
    /// map and the exports say it (the report's table had a "?" row for every unheard one).
    @Test func unheardAttemptsKeepTheSpreadingFactorTheyWereSentAt() async throws {
        let run = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake?fail=1", "--gps", "fake", "--network", "fake", "--speed", "10",
            "--duration", "4s", "--db", mtt.database,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let export = try await mtt.run(["export", "--format", "jsonl", "--db", mtt.database])
        let records = export.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let unheard = records.filter { $0["status"] as? String != "heard" }
        #expect(!unheard.isEmpty && unheard.count == records.count, "a node that fails every send: \(export.stdout.prefix(400))")
        // The emulated node's session starts at SF10, as the firmware's does.
        #expect(unheard.allSatisfy { $0["sf"] as? Int == 10 }, "\(unheard.prefix(3))")
    }
}
