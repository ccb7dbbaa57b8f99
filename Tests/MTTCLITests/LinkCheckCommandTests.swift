import Foundation
import MTTCore
import TestSupport
import Testing

/// `mtt collect --linkcheck` as a user runs it: an emulated modem with no network source, then
/// what `mtt coverage`, `mtt status` and the cells layer say of it.
@Suite("mtt collect --linkcheck")
struct LinkCheckCommandTests {
    @Test func withNoNetworkTheAnsweredChecksAreTheMap() async throws {
        let mtt = MTTCommand()
        let run = try await mtt.collect([
            "collect", "--mode", "active", "--node", "fake-rn2483", "--gps", "fake", "--linkcheck", "--every", "1s",
            "--min-interval", "1s", "--duration", "10m", "--json", "--db", mtt.database,
        ], untilConfirmed: 4)
        #expect(run.result.status == 0, "\(run.stderr)")
        // Each confirmed event carries what its check said.
        let confirmed = run.stdout.split(separator: "\n").filter { $0.contains(#""type":"confirmed""#) }
        #expect(confirmed.count >= 4 && confirmed.allSatisfy { $0.contains(#""gateways":"#) }, "\(run.stdout)")
        #expect(confirmed.contains { $0.contains(#""margin":"#) }, "\(run.stdout)")

        let status = try await mtt.run(["status", "--json", "--db", mtt.database])
        let counts = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let checks = counts?["linkchecks"] as? Int ?? 0, answered = counts?["linkchecks_answered"] as? Int ?? 0
        #expect(checks >= 4 && answered >= 1 && checks == counts?["confirmed"] as? Int, "\(status.stdout)")

        let coverage = try await mtt.run(["coverage", "--json", "--db", mtt.database])
        let area = (try JSONSerialization.jsonObject(with: Data(coverage.stdout.utf8)) as? [String: Any])?["area"] as? [String: Any]
        #expect((area?["heard_by_linkcheck"] as? Int ?? 0) >= 1 && area?["unknown"] as? Int == 0, "\(coverage.stdout)")
        let text = try await mtt.run(["coverage", "--db", mtt.database]).stdout
        #expect(text.contains("heard by a link check alone"), "\(text)")

        let cells = try await mtt.run(["export", "--format", "geojson", "--layer", "cells", "--db", mtt.database]).stdout
        #expect(cells.contains(#""state":"heard-linkcheck""#) && cells.contains(#""color":"\#(CoverageLayer.linkCheckColor)""#), "\(cells)")
    }

    @Test func itNeedsActiveModeAndSerialModems() async throws {
        let mtt = MTTCommand()
        let ble = try await mtt.run(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--linkcheck", "--db", mtt.database])
        #expect(ble.status == 64 && ble.stderr.contains("--linkcheck needs serial modems (serial:…, fake-rn2483, fake-rui3): fake cannot send a link check"), "\(ble.stderr)")
        let listener = try await mtt.run(["collect", "--mode", "listener", "--gps", "fake", "--linkcheck", "--db", mtt.database])
        #expect(listener.status == 64 && listener.stderr.contains("--linkcheck is for active mode"), "\(listener.stderr)")
    }
}
