import Foundation
import MTTCore
import MTTBluetooth
import MTTGPS
import MTTSerial
import TestSupport
import Testing

/// Issue 33, item 1: simulated data never reaches a public map by accident.
@Suite("Simulated data is held from sync")
struct SimulatedDataTests {
    let login = ["MTT_MAPTHETHINGS_USER": "alice", "MTT_MAPTHETHINGS_TOKEN": "t", "MTT_MAPTHETHINGS_SECRET": "s"]

    /// The README's "try any mode without hardware" run, shortened.
    func simulatedRun(_ mtt: MTTCommand) async throws {
        let run = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake:2", "--gps", "fake", "--network", "fake", "--speed", "10",
            "--duration", "4s", "--db", mtt.database,
        ])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func aPlainSyncAfterASimulatedRunSendsNothingAndSaysWhy() async throws {
        let mtt = MTTCommand()
        try await simulatedRun(mtt)
        let status = try Store(path: mtt.database, access: .readOnly).status()
        #expect(status.confirmed > 0 && status.unsynced == ["mapthethings": 0, "ttnmapper": 0], "\(status)")
        #expect((status.simulated["mapthethings"] ?? 0) == status.confirmed && (status.simulated["ttnmapper"] ?? 0) > 0, "\(status)")

        let mapthethings = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let ttnmapper = try LoopbackHTTPServer { _ in .status(200, #"{"success":true}"#) }
        for (target, server) in [("mapthethings", mapthethings), ("ttnmapper", ttnmapper)] {
            let sync = try await mtt.run(["sync", "--target", target, "--url", server.baseURL, "--db", mtt.database], environment: login)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stdout.contains("of simulated sessions held back: never sent to a public map"), "\(sync.stdout)")
            #expect(server.requests.isEmpty)
        }
        let text = try await mtt.run(["status", "--db", mtt.database])
        #expect(text.stdout.contains("Held back  mapthethings \(status.confirmed), ttnmapper"), "\(text.stdout)")
    }

    /// Issue 33, item 13: a run at 20× for 4 s covers 80 s; started at the wall clock, it stamped
    /// its last records over a minute ahead of it.
    @Test func aSpedUpRunStampsNothingInTheFuture() async throws {
        let mtt = MTTCommand()
        let run = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20",
            "--duration", "4s", "--db", mtt.database,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let ended = Timestamp.now()
        let export = try await mtt.run(["export", "--format", "jsonl", "--db", mtt.database])
        let times = export.stdout.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["time"] as? String
        }.compactMap { RFC3339.parse($0) }
        #expect(!times.isEmpty, "\(export.stdout)")
        #expect(times.allSatisfy { $0 <= ended }, "latest \(times.max().map { RFC3339.string($0) } ?? "-") after the run ended at \(RFC3339.string(ended))")
        let session = try #require(try Store(path: mtt.database, access: .readOnly).sessions.session(1))
        #expect(try #require(session.endedAt) <= ended)

        let unbounded = try await mtt.run(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--db", mtt.database])
        #expect(unbounded.status == 64 && unbounded.stderr.contains("--speed above 1 needs --duration"), "\(unbounded.stderr)")
    }

    @Test func includeSimulatedSendsToOnesOwnServerButNeverToThePublicOne() async throws {
        let mtt = MTTCommand()
        try await simulatedRun(mtt)
        let confirmed = try Store(path: mtt.database, access: .readOnly).status().confirmed

        // No --url: the public servers, refused before anything is sent.
        let refused = try await mtt.run(["sync", "--include-simulated", "--db", mtt.database], environment: login)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--include-simulated never sends to the public MapTheThings"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--include-simulated never sends to the public TTN Mapper"), "\(refused.stderr)")

        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let sent = try await mtt.run(
            ["sync", "--target", "mapthethings", "--url", server.baseURL, "--include-simulated", "--db", mtt.database], environment: login)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(server.requests.filter { $0.path == "/api/v0/transmissions" }.count == confirmed)
    }

    /// An emulator heard by a real network is simulated too: its track is not where a radio was.
    @Test func theSessionSaysWhatWasSimulated() async throws {
        let mtt = MTTCommand()
        try await simulatedRun(mtt)
        let session = try #require(try Store(path: mtt.database, access: .readOnly).sessions.session(1))
        #expect(session.description.simulated == ["fake node", "fake GPS", "simulated network", "time at 10×"])
        #expect(SimulatedParts.of(nodes: [try Self.node("ble:auto")], gps: try Self.gps("gpsd"), fakeNetwork: false, speed: 1).isEmpty)
        #expect(SimulatedParts.of(nodes: [try Self.node("unix:/tmp/n.sock")], gps: try Self.gps("gpsd"), fakeNetwork: false, speed: 1)
            == ["emulated node (unix:)"])
        #expect(SimulatedParts.of(nodes: [try Self.node("fake-rn2483")], gps: try Self.gps("nmea:drive.nmea"), fakeNetwork: false, speed: 1)
            == ["emulated modem", "GPS replayed from a file"])
    }

    static func gps(_ text: String) throws -> GPSSpec { try GPSSpec(parsing: text, kinds: FixSourceKind.gps) }
    static func node(_ text: String) throws -> NodeSpec { try NodeSpec(parsing: text, kinds: NodeKind.modems + NodeKind.mapTheThings) }
}
