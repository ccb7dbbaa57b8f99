import Foundation
import MTTCore
import TestSupport
import Testing

/// DESIGN.md "Store and sync": a record reaches a target once. Each case runs ten rounds with
/// random timing against a loopback server that takes 5 ms per answer.
// Serialized: its tests start many processes each; run together they starved the timing tests of
// other suites on a two-core machine.
@Suite("mtt sync sends each record once", .serialized)
struct SyncOnceTests {
    static let records = 150
    static let connections = 4
    let login = ["MTT_MAPTHETHINGS_USER": "alice", "MTT_MAPTHETHINGS_TOKEN": "t", "MTT_MAPTHETHINGS_SECRET": "s"]

    /// A database with `records` confirmed attempts and a server that answers each after 5 ms.
    func prepared() throws -> (MTTCommand, LoopbackHTTPServer, [String]) {
        let mtt = MTTCommand()
        try SyncTestData.addConfirmedAttempts(Self.records, to: Store(path: mtt.database))
        let server = try LoopbackHTTPServer { _ in
            // A test double's pacing: a server that takes 5 ms per answer.
            usleep(5_000)
            return .status(201, "{}")
        }
        let sync = ["sync", "--target", "mapthethings", "--url", server.baseURL, "--db", mtt.database, "--connections", "\(Self.connections)"]
        return (mtt, server, sync)
    }

    /// The frame counter of each request's record, in the order the server got them.
    func sent(_ server: LoopbackHTTPServer) -> [Int] {
        server.requests.compactMap { $0.json?["msg_seq"] as? Int }
    }

    func unsynced(_ mtt: MTTCommand) async throws -> Int? {
        let result = try await mtt.run(["status", "--db", mtt.database, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (object?["unsynced"] as? [String: Int])?["mapthethings"]
    }

    @Test func aKilledSyncRepeatsAtMostTheRequestsInFlight() async throws {
        for round in 1...10 {
            let (mtt, server, sync) = try prepared()
            let running = try mtt.start(sync, environment: login)
            // Killed somewhere in the middle of the upload: after a random number of requests arrived.
            let arrived = Int.random(in: 1...(Self.records - 20))
            #expect(await eventually { server.requests.count >= arrived || running.hasExited }, "round \(round)")
            running.kill()
            #expect(await running.wait(timeout: 10))
            let again = try await mtt.run(sync, environment: login)
            #expect(again.status == 0, "round \(round): \(again.stderr)")
            let counters = sent(server)
            #expect(Set(counters).count == Self.records, "round \(round)")
            #expect(counters.count - Set(counters).count <= Self.connections, "round \(round): \(counters.count - Set(counters).count) sent twice")
            #expect(try await unsynced(mtt) == 0)
        }
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalWaitsForTheAnswersInFlightAndWritesThemDown(signal: Int32) async throws {
        for round in 1...10 {
            let (mtt, server, sync) = try prepared()
            let running = try mtt.start(sync, environment: login)
            let arrived = Int.random(in: 1...(Self.records - 20))
            #expect(await eventually { server.requests.count >= arrived || running.hasExited }, "round \(round)")
            running.signal(signal)
            #expect(await running.wait(timeout: 20))
            let again = try await mtt.run(sync, environment: login)
            #expect(again.status == 0, "round \(round): \(again.stderr)")
            let counters = sent(server)
            #expect(Set(counters).count == Self.records, "round \(round)")
            // On a failure, what each run said, so the cause can be read from the log.
            let twice = Dictionary(grouping: counters) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
            // Which connection each copy came on and when (seen once in a full suite, never in 90
            // rounds alone under load): a retry on a new connection says the first answer was lost.
            let copies = server.requests.filter { twice.contains($0.json?["msg_seq"] as? Int ?? -1) }
                .map { "msg_seq \($0.json?["msg_seq"] as? Int ?? -1) on connection \($0.connection) at \(String(format: "%.3f", $0.arrival)) s" }
            #expect(counters.count == Self.records, "round \(round): \(twice) sent twice after signal \(signal) (\(copies)); first run: \(running.stdout) \(running.stderr); second: \(again.stdout) \(again.stderr)")
        }
    }

    @Test func twoSyncsAtOnceNeverSendARecordTwice() async throws {
        for round in 1...10 {
            let (mtt, server, sync) = try prepared()
            let first = try mtt.start(sync, environment: login)
            // The second starts before the first sent anything, or after some of its requests arrived.
            let arrived = Int.random(in: 0...30)
            #expect(await eventually { server.requests.count >= arrived || first.hasExited }, "round \(round)")
            let second = try await mtt.run(sync, environment: login)
            #expect(await first.wait(timeout: 30))
            // Either one found the other at work and said so, or the second came after the first
            // and found nothing left; never both refused.
            let results = [first.result, second]
            for result in results where result.status != 0 {
                #expect(result.stderr.contains("another mtt sync is uploading from this database to MapTheThings"), "round \(round): \(result.stderr)")
            }
            #expect(results.contains { $0.status == 0 }, "round \(round)")
            let counters = sent(server)
            #expect(counters.count == Self.records && Set(counters).count == Self.records, "round \(round): \(counters.count) requests")
        }
    }
}
