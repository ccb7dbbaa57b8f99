import Foundation
import MTTCore
import MTTPostgres
import TestSupport
import Testing

/// Issue 48: readers on a standby. A primary and a hot standby streaming from it, both on
/// loopback, made by the tests; mappers upload to the primary, the map is served from the standby.
@Suite("The community map on a standby", .serialized)
struct CommunityStandbyTests {
    @Test func theMapOnAStandbyFollowsThePrimaryAndOutlivesARestart() async throws {
        let (primary, database, accounts) = try await CommunitySyncTests.community(["alice", "bob"])
        let viewer = try database.grantMap("viewer")
        let alice = CommunitySyncTests.Mapper(account: accounts["alice"]!), bob = CommunitySyncTests.Mapper(account: accounts["bob"]!)
        try MapTestData.drive(try Store(path: alice.mtt.database))
        #expect(try await alice.sync().status == 0)
        let standby = try await primary.standby()
        let password = ["PGPASSWORD": viewer.password]
        let onStandby = "postgresql://viewer@127.0.0.1:\(standby.port)/coverage"
        let either = "postgresql://viewer@127.0.0.1:\(primary.port),127.0.0.1:\(standby.port)/coverage?target_session_attrs=prefer-standby"

        // The standby says how far behind it is: caught up, once it has replayed what it received.
        let status = MTTCommand()
        func lag() async throws -> Double? {
            let result = try await status.run(["community", "status", "--url", onStandby, "--json"], environment: password)
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (object?["replica"] as? [String: Any])?["lag_s"] as? Double
        }
        #expect(try await eventually { try await lag() == 0 }, "the standby never caught up")
        let text = try await status.run(["community", "status", "--url", onStandby], environment: password)
        #expect(text.status == 0 && text.stdout.contains("Server     a standby, up to date") && text.stdout.contains("alice: 40 samples, 60 attempts (40 heard)"), "\(text.stdout)\(text.stderr)")
        let onPrimary = try await status.run(["community", "status", "--url", viewer.url], environment: password)
        #expect(onPrimary.stdout.contains("Server     the primary"), "\(onPrimary.stdout)")

        // Served from the host list, which prefers the standby: the page's status says so.
        let port = LoopbackPort.free()
        let map = try MTTCommand().start(["serve", "--listen", "127.0.0.1:\(port)", "--tiles", "none", "--db", either], environment: password)
        defer { map.kill() }
        #expect(await map.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(map.stderr)")
        let served = try await #require(try CoverageMapTests.json(try PlainHTTP.get(port: port, "/api/status").text) as? [String: Any])
        #expect((served["replica"] as? [String: Any])?["lag_s"] as? Double == 0, "\(served)")
        let page = try HeadlessBrowser(url: "http://127.0.0.1:\(port)/")
        #expect(try await page.wait(until: "document.getElementById('status').dataset.lag === '0'"))
        let statusText = try await page.evaluate("document.getElementById('status').textContent")
        #expect(statusText.contains("a standby, up to date"), "\(statusText)")

        // Bob uploads to the primary; the standby's map shows his cells once it has them, the
        // same cells as a map on the primary.
        let primaryPort = LoopbackPort.free()
        let primaryMap = try MTTCommand().start(["serve", "--listen", "127.0.0.1:\(primaryPort)", "--tiles", "none", "--db", viewer.url], environment: password)
        defer { primaryMap.kill() }
        #expect(await primaryMap.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(primaryMap.stderr)")
        let cells = "/api/cells?z=16&bbox=5.0,52.0,5.3,52.2"
        let before = try await PlainHTTP.get(port: port, cells).text
        try MapTestData.fill(try Store(path: bob.mtt.database))
        #expect(try await bob.sync().status == 0)
        let after = try await PlainHTTP.get(port: primaryPort, cells).text
        #expect(after != before, "bob's upload changed nothing on the primary")
        #expect(try await eventually { try await PlainHTTP.get(port: port, cells).text == after }, "the standby's map never showed bob's cells")

        // A map of the standby alone, its standby stopped and started again under it: one line
        // while it is away, the same answers once it is back.
        let standbyPort = LoopbackPort.free()
        let standbyMap = try MTTCommand().start(["serve", "--listen", "127.0.0.1:\(standbyPort)", "--tiles", "none", "--db", onStandby], environment: password)
        defer { standbyMap.kill() }
        #expect(await standbyMap.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(standbyMap.stderr)")
        #expect(try await PlainHTTP.get(port: standbyPort, cells).text == after)
        standby.stop()
        let down = try await PlainHTTP.get(port: standbyPort, cells)
        #expect(down.status == 503 && !down.text.trimmingCharacters(in: .whitespacesAndNewlines).contains("\n") && down.text.contains("error"), "\(down.status) \(down.text)")
        try standby.start()
        #expect(try await eventually { try await PlainHTTP.get(port: standbyPort, cells).text == after }, "the map did not come back with its standby")
        withExtendedLifetime(primary) {}
    }
}
