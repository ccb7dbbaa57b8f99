import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

enum CollectTestError: Error {
    case notAnUplink(String)
}

@Suite("mtt collect")
struct CollectCommandTests {
    let mtt = MTTCommand()

    /// The whole active path: emulated node over ATT, simulated drive, simulated network publishing
    /// TTS JSON to a real mosquitto, mtt subscribing to it; the database must say per attempt exactly
    /// what the network published (read on the wire by mosquitto_sub): heard with those gateways,
    /// RSSI and SNR, or not heard at all.
    @Test func activeModeAgreesWithTheSimulatedNetworkThroughARealBroker() async throws {
        let broker = try await MosquittoBroker.start()
        let wire = try await broker.subscribe(topic: "v3/mtt-demo@ttn/devices/+/up")
        defer { wire.stop() }
        let run = try await mtt.collect([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake",
            "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-user", "mtt-demo@ttn",
            "--speed", "20", "--duration", "600s", "--db", mtt.database, "--json",
        ], untilConfirmed: 5)
        #expect(run.result.status == 0, "stderr: \(run.stderr)")
        // mosquitto_sub has printed at least every uplink mtt stored from the broker.
        let stored = try Store(path: mtt.database).status().uplinks
        #expect(await eventually(timeout: 10) { wire.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.count >= stored })
        let published = try wire.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.map { line -> Uplink in
            guard case .uplink(let uplink) = try UplinkDecoder.decode(Array(line.utf8)) else { throw CollectTestError.notAnUplink(String(line)) }
            return uplink
        }
        let heard = Dictionary(published.map { ($0.fCnt ?? 0, $0) }) { first, _ in first }

        let store = try Store(path: mtt.database)
        let attempts = try store.records.attempts(session: 1)
        #expect(attempts.count >= 5, "only \(attempts.count) transmissions")
        // The one in flight at the stop may have no result.
        #expect(attempts.dropLast().allSatisfy { $0.attempt.state == .confirmed })
        #expect(!heard.isEmpty && heard.count < attempts.count + 1)
        // The last transmission may still be on its way through the broker when the run stops.
        for match in attempts.dropLast() {
            let counter = try #require(match.attempt.frameCounter)
            let sent = heard[counter]
            #expect((match.uplinkID != nil) == (sent != nil), "f_cnt \(counter): published \(sent != nil)")
            if let uplinkID = match.uplinkID, let sent {
                let uplink = try #require(try store.records.uplink(uplinkID))
                #expect(uplink.devEUI == match.attempt.devEUI && sent.devEUI == match.attempt.devEUI)
                #expect(uplink.receptions.map(\.gatewayID) == sent.receptions.map(\.gatewayID))
                #expect(uplink.receptions.map(\.rssi) == sent.receptions.map(\.rssi))
                #expect(uplink.receptions.map(\.snr) == sent.receptions.map(\.snr))
            }
        }
        let status = try store.status()
        #expect(status.pending == 0)
        #expect(status.heard >= attempts.dropLast().filter { heard[$0.attempt.frameCounter ?? 0] != nil }.count)
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.contains { $0["type"] as? String == "network_connected" })
        #expect(events.filter { $0["type"] as? String == "attempt" }.count == attempts.count)
    }

    /// Every track point mtt printed (it prints a record only once it is stored) is in the
    /// database after a `kill -9` in the middle of a fast run.
    @Test func everyReportedTrackPointSurvivesSIGKILL() async throws {
        let child = try mtt.start(["collect", "--mode", "matching", "--gps", "fake", "--network", "fake", "--interval", "1s", "--speed", "100", "--duration", "1h", "--db", mtt.database, "--json"])
        func points(_ out: String) -> [(Double, Double)] {
            out.split(separator: "\n").compactMap { line in
                guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      event["type"] as? String == "track_point", let lat = event["lat"] as? Double, let lon = event["lon"] as? Double
                else { return nil }
                return (lat, lon)
            }
        }
        let enough = await child.waitForOutput(timeout: 60) { points($0).count >= 300 }
        child.kill()
        _ = await child.wait(timeout: 30)
        #expect(enough)
        let reported = points(child.stdout)
        let store = try Store(path: mtt.database)
        #expect(try store.integrityCheck() == "ok")
        // Compared to the nanodegree: JSON text and back may differ in the last bit.
        func key(_ lat: Double, _ lon: Double) -> String { "\(Int64((lat * 1e9).rounded())),\(Int64((lon * 1e9).rounded()))" }
        let stored = Set(try store.records.fixes(session: 1).map { key($0.latitude, $0.longitude) })
        let missing = reported.filter { !stored.contains(key($0.0, $0.1)) }
        #expect(missing.isEmpty, "reported as stored but not in the database: \(missing.prefix(5))")
    }

    /// Two imports creating one new database at once: both succeed, on one schema.
    @Test func twoProcessesCreatingOneDatabaseBothSucceed() async throws {
        for round in 1...10 {
            let path = mtt.dir.file("race-\(round)/mtt.sqlite")
            // Two files: the same one twice is refused as a re-import.
            let imports = try ["coverage-sample.json", "walk-sample.json"].map { file in
                try mtt.start(["import", FixtureFiles.own("mapthethings/\(file)"), "--db", path])
            }
            for child in imports {
                #expect(await child.wait(timeout: 30))
                #expect(child.result.status == 0, "round \(round): \(child.stderr)")
            }
            let store = try Store(path: path, access: .readOnly)
            #expect(try store.integrityCheck() == "ok" && store.status().sessions == 2)
        }
    }

    @Test func sigkillLosesNoAttemptAndTheNextStartResolvesThePendingOne() async throws {
        let child = try mtt.start(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "1h", "--db", mtt.database, "--json"])
        func reported(_ out: String) -> Int { out.components(separatedBy: "\"type\":\"attempt\"").count - 1 }
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

    /// A fake node that loses every transmission, as a user sets it to try the alerts: each attempt
    /// is failed (no TX result), none confirmed; a share out of range is a usage error.
    @Test func aFakeNodeThatLosesItsTransmissionsMakesFailedAttempts() async throws {
        let result = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake?airtime=0.01&fail=1", "--gps", "fake", "--speed", "20", "--duration", "4s",
            "--min-interval", "5s", "--db", mtt.database,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let status = try Store(path: mtt.database).status()
        #expect(status.failed >= 1 && status.confirmed == 0, "\(status)")
        let refused = try await mtt.run(["collect", "--mode", "active", "--node", "fake?fail=2", "--gps", "fake", "--db", mtt.database])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("fail=SHARE (0 to 1)"), "\(refused.stderr)")
    }

    /// An emulated modem that refuses every send as busy: each attempt is failed with that reason.
    @Test func anEmulatedModemThatIsAlwaysBusyMakesFailedAttemptsThatSaySo() async throws {
        let result = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake-rui3?busy=1", "--gps", "fake", "--duration", "3s", "--every", "1s",
            "--min-interval", "1s", "--db", mtt.database,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let attempts = try Store(path: mtt.database).records.attempts(session: 1).map(\.attempt)
        #expect(!attempts.isEmpty && attempts.allSatisfy { $0.state == .failed && $0.failureReason?.contains("busy") == true }, "\(attempts.map(\.failureReason))")
    }

    /// No network in the field: a matching run records the track alone, and says how to complete it.
    @Test func matchingWithoutMQTTRecordsTheTrackForALaterFetch() async throws {
        let result = try await mtt.run(["collect", "--mode", "matching", "--gps", "fixed:52.09,5.12", "--interval", "1s", "--duration", "3s", "--db", mtt.database])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("no --mqtt-url: recording the track only; name the devices with --device"), "\(result.stderr)")
        let status = try Store(path: mtt.database).status()
        #expect(status.gpsSamples >= 2 && status.uplinks == 0)
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

    /// A node that never reports its send's result keeps mtt waiting 25 s for it; a stop in that
    /// time ends the run at once (it waited out the 25 s), and the attempt says why it has no result.
    @Test func aStopWhileTheNodeTransmitsEndsTheRunAtOnce() async throws {
        let child = try mtt.start(["collect", "--mode", "active", "--node", "fake?fail=1", "--gps", "fixed:52.09,5.12", "--every", "1s", "--db", mtt.database])
        #expect(await child.waitForOutput(timeout: 30) { $0.contains("attempt 1 by fake:1") })
        // Stopped while an attempt waits for its result (stored as pending): not in the second
        // between one attempt's 25 s and the next (a loaded machine's test once saw "attempt 1" only
        // after it had failed, and stopped the run between two).
        #expect(await eventually { (try? Store(path: mtt.database, access: .readOnly).records.attempts(session: 1).last?.attempt.state) == .pending })
        child.signal(SIGTERM)
        #expect(await child.wait(timeout: 60))
        #expect(child.result.status == 0, "\(child.result.stderr)")
        // The attempt in flight at the stop says why it has no result (beside two suites the first
        // had already waited out its 25 s by the time the test saw it, and the second was in flight),
        // and was settled before the node's 25 s were out: the stop did not wait for them. (Read
        // from the attempt, not the process's exit: beside two suites a run that stopped at once
        // took 15 to 22 s to exit.)
        let attempts = try Store(path: mtt.database).records.attempts(session: 1).map(\.attempt)
        #expect(attempts.last?.failureReason == "mtt stopped before the node reported a result", "\(attempts.map(\.failureReason))")
        let last = try #require(attempts.last)
        #expect(try #require(last.resolvedAt).seconds(since: last.sentAt) < 25, "the stop waited for the node's 25 s")
        #expect(attempts.dropLast().allSatisfy { $0.failureReason == "no TX result within 25 s (the node reports only successes)" }, "\(attempts.map(\.failureReason))")
    }

    @Test(arguments: [
        ["collect", "--mode", "active"],
        ["collect", "--mode", "listener", "--mqtt-url", "mqtt://127.0.0.1:9"],
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
