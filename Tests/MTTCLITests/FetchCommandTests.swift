import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

/// `mtt fetch` and `mtt sync --fetch` as a user runs them after a listener run without a network.
@Suite("mtt fetch")
struct FetchCommandTests {
    let mtt = MTTCommand()
    static let key = ["MTT_TTN_API_KEY": "NNSXS.TEST-KEY"]

    @Test func aListenerRunWithoutANetworkIsCompletedOnceFetched() async throws {
        let storage = try await mtt.offlineListenerRun()
        let first = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database], environment: Self.key)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("fetch: 1 session(s), 3 uplink(s) read: 3 new, 0 already stored"), "\(first.stdout)")
        #expect(first.stdout.contains("track: 3 placed"), "\(first.stdout)")
        // The session's device was asked for, under the application its MQTT user names.
        #expect(storage.requests.allSatisfy { $0.path.hasPrefix("/api/v3/as/applications/mtt-demo/devices/mapper-node-1/packages/storage/uplink_message?") })
        let status = try Store(path: mtt.database).status()
        #expect(status.uplinks == 3 && status.samples == 3)

        let again = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database, "--json"], environment: Self.key)
        #expect(again.status == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(summary["new"] as? Int == 0 && summary["already_stored"] as? Int == 3 && summary["read"] as? Int == 3)
        #expect(try Store(path: mtt.database).status().uplinks == 3)
    }

    /// A tracker's session recorded without a network (`--gps payload`, no track at all) is
    /// completed by a fetch as if MQTT had been live: each uplink where its device said, the frame
    /// the Storage Integration does not hold estimated between its neighbours.
    @Test func aTrackersSessionIsPlacedByItsOwnPositionsOnceFetched() async throws {
        let run = try await mtt.run([
            "collect", "--mode", "listener", "--gps", "payload", "--device", "tbeam-1", "--mqtt-user", "mtt-demo@ttn", "--duration", "2s",
            "--db", mtt.database,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let started = try #require(try Store(path: mtt.database).sessions.session(1)).startedAt
        let storage = try StorageIntegrationServer()
        for (index, fCnt) in [1, 2, 4, 5].enumerated() {
            var uplink = StoredUplinks.make(1, device: "tbeam-1", devEUI: "70B3D57ED00000AA", from: started.adding(seconds: 0.5 + Double(index) * 20))[0]
            uplink.fCnt = UInt32(fCnt)
            uplink.decodedPayload = .object(["latitude": .number(52.09 + Double(fCnt) / 1_000), "longitude": .number(5.12), "sats": .number(8)])
            storage.store(String(decoding: UplinkEncoder.json(uplink), as: UTF8.self))
        }
        let fetched = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database, "--json"], environment: Self.key)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(fetched.stdout.utf8)) as? [String: Any])
        #expect(summary["new"] as? Int == 4 && summary["placed"] as? Int == 4, "\(fetched.stdout)")
        let store = try Store(path: mtt.database, access: .readOnly)
        let samples = try store.records.samples(session: 1)
        #expect(samples.count == 4 && samples.allSatisfy { $0.method == .payload }, "\(samples)")
        let latitudes = samples.compactMap { $0.position?.latitude }.sorted()
        #expect(zip(latitudes, [52.091, 52.092, 52.094, 52.095]).allSatisfy { abs($0 - $1) < 1e-9 } && latitudes.count == 4, "\(latitudes)")
        var estimated: [EstimatedAttempt] = []
        try store.records.forEachEstimatedAttempt { estimated.append($0) }
        #expect(estimated.count == 1 && estimated.first?.fCnt == 3 && abs((estimated.first?.position?.latitude ?? 0) - 52.093) < 1e-9, "\(estimated)")
    }

    @Test func refusalsSayWhatToDoAndChangeNothing() async throws {
        let storage = try await mtt.offlineListenerRun()
        let before = try Store(path: mtt.database).status()
        let noKey = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database])
        #expect(noKey.status == 1)
        #expect(noKey.stderr.contains("the TTN API key (or MTT_MQTT_PASSWORD) is missing"), "\(noKey.stderr)")

        let wrong = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database], environment: ["MTT_TTN_API_KEY": "NNSXS.WRONG"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("the API key was not accepted (401"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("(the key: --api-key-file FILE, MTT_TTN_API_KEY or MTT_MQTT_PASSWORD)"), "\(wrong.stderr)")

        storage.behave { $0.active = false }
        let inactive = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database], environment: Self.key)
        #expect(inactive.status == 1)
        #expect(inactive.stderr.contains("Applications → mtt-demo → Integrations → Storage Integration → Activate"), "\(inactive.stderr)")
        #expect(try Store(path: mtt.database).status() == before)
        #expect(try Store(path: mtt.database).sessions.session(1)?.fetchedAt == nil)
    }

    @Test func syncFetchesFirstThenUploadsWhatWasFetched() async throws {
        let storage = try await mtt.offlineListenerRun()
        let mapper = try LoopbackHTTPServer { _ in .status(200, #"{"success":true}"#) }
        let arguments = ["sync", "--fetch", "--ttn-url", storage.baseURL, "--target", "ttnmapper", "--url", mapper.baseURL + "/android/v4", "--experiment", "mtt-tests", "--db", mtt.database]
        let first = try await mtt.run(arguments, environment: Self.key)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("fetch: 1 session(s), 3 uplink(s) read: 3 new"), "\(first.stdout)")
        #expect(first.stdout.contains("ttnmapper: 3 sent"), "\(first.stdout)")
        #expect(mapper.requests.count == 3)

        // Fetched within two minutes of the session's end (the network may still have been writing
        // it): read again, nothing new, nothing sent twice.
        let second = try await mtt.run(arguments, environment: Self.key)
        #expect(second.status == 0)
        #expect(second.stdout.contains("read: 0 new, 3 already stored"), "\(second.stdout)")
        #expect(second.stdout.contains("ttnmapper: 0 sent"), "\(second.stdout)")
        #expect(mapper.requests.count == 3)
    }
}
