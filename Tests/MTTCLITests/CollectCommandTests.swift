import Foundation
import MTTCore
import TestSupport
import Testing

@Suite("mtt collect")
struct CollectCommandTests {
    let mtt = MTTCommand()

    struct TruthLine: Decodable {
        var dev_eui: String
        var f_cnt: UInt32
        var heard: Bool
        var gateways: [String]
        var rssi: [Double?]
        var snr: [Double?]
    }

    /// The whole active path: emulated node over ATT, simulated drive, simulated network publishing
    /// TTS JSON to a real mosquitto, mtt subscribing to it; the database must say per attempt exactly
    /// what the simulated network decided.
    @Test func activeModeAgreesWithTheSimulatedNetworkThroughARealBroker() async throws {
        let broker = try await MosquittoBroker.start()
        let truthPath = mtt.dir.file("truth.jsonl")
        let result = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake",
            "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-user", "mtt-demo@ttn",
            "--speed", "20", "--duration", "8s", "--db", mtt.database, "--truth-out", truthPath, "--json",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let truth = try String(contentsOfFile: truthPath, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(TruthLine.self, from: Data($0.utf8))
        }
        #expect(truth.count >= 8, "only \(truth.count) transmissions in 160 simulated seconds")

        let store = try Store(path: mtt.database)
        let attempts = try store.attempts(session: 1)
        #expect(attempts.allSatisfy { $0.attempt.state == .confirmed })
        #expect(attempts.count == truth.count)
        // The last transmission may still be on its way through the broker when the run stops.
        for line in truth.dropLast() {
            let match = try #require(attempts.first { $0.attempt.frameCounter == line.f_cnt }, "no attempt with f_cnt \(line.f_cnt)")
            #expect(match.attempt.devEUI == line.dev_eui)
            #expect((match.uplinkID != nil) == line.heard, "f_cnt \(line.f_cnt): heard \(line.heard) in the simulation")
            if let uplinkID = match.uplinkID {
                let uplink = try #require(try store.uplink(uplinkID))
                #expect(uplink.receptions.map(\.gatewayID) == line.gateways)
                #expect(uplink.receptions.map(\.rssi) == line.rssi)
                #expect(uplink.receptions.map(\.snr) == line.snr)
            }
        }
        let status = try store.status()
        #expect(status.pending == 0)
        #expect(status.heard == truth.dropLast().filter(\.heard).count + (truth.last?.heard == true && attempts.last?.uplinkID != nil ? 1 : 0))
        let events = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.contains { $0["event"] as? String == "network_connected" })
        #expect(events.filter { $0["event"] as? String == "attempt" }.count == attempts.count)
    }

    @Test func sigkillLosesNoAttemptAndTheNextStartResolvesThePendingOne() async throws {
        let child = try mtt.start(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--db", mtt.database, "--json"])
        func reported(_ out: String) -> Int { out.components(separatedBy: "\"event\":\"attempt\"").count - 1 }
        // Kill it once it has reported six attempts stored (the next one is likely in flight).
        let enough = await child.waitForOutput(timeout: 60) { reported($0) >= 6 }
        child.kill()
        _ = await child.wait(timeout: 30)
        #expect(enough)
        let seen = reported(child.stdout)

        let before = try Store(path: mtt.database).status()
        #expect(before.attempts >= seen, "every attempt reported as stored is in the database")
        #expect(try Store(path: mtt.database).integrityCheck() == "ok")

        let again = try await mtt.run(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "1s", "--db", mtt.database])
        #expect(again.status == 0, "stderr: \(again.stderr)")
        let after = try Store(path: mtt.database).status()
        #expect(after.attempts >= before.attempts)
        #expect(after.sessions == 2)
        // Only the second run's own last attempt may still be pending, never the killed run's.
        #expect(after.pending <= 1)
        if before.pending > 0 {
            #expect(again.stderr.contains("left pending by an interrupted run are now marked failed"))
        }
    }

    /// A gateway far from the drive hears nothing: every attempt is confirmed by the node and lost.
    @Test func farGatewaysMeanLostAttempts() async throws {
        let result = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake",
            "--fake-gateway", "41.5,-73.9", "--speed", "20", "--duration", "3s", "--min-interval", "5s", "--db", mtt.database,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let status = try Store(path: mtt.database).status()
        #expect(status.confirmed >= 2)
        #expect(status.heard == 0 && status.uplinks == 0)
        #expect(status.lossPercent == 100)
    }

    @Test func sigtermStopsCleanlyWithASummary() async throws {
        let child = try mtt.start(["collect", "--mode", "active", "--node", "fake-rn2483", "--gps", "fixed:52.09,5.12", "--every", "1s", "--db", mtt.database])
        #expect(await child.waitForOutput(timeout: 30) { $0.contains("attempt 1 by serial:") })
        child.signal(SIGTERM)
        #expect(await child.wait(timeout: 30))
        #expect(child.result.status == 0)
        #expect(child.stdout.contains("Database   \(mtt.database)"))
        #expect(try Store(path: mtt.database).status().attempts >= 1)
    }

    @Test(arguments: [
        ["collect", "--mode", "active"],
        ["collect", "--mode", "listener"],
        ["collect", "--mode", "matching", "--node", "fake", "--network", "fake"],
        ["collect", "--mode", "active", "--node", "fake", "--gps", "gpsd", "--speed", "5"],
        ["collect", "--mode", "active", "--node", "fake", "--network", "real"],
        ["collect", "--mode", "active", "--node", "fake", "--fake-gateway", "40.7,-73.9"],
        ["collect", "--mode", "active", "--node", "fake", "--network", "fake", "--fake-gateway", "north"],
    ])
    func contradictoryOptionsAreUsageErrors(arguments: [String]) async throws {
        let result = try await mtt.run(arguments + ["--db", mtt.database])
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
    }
}
