import Foundation
import MTTCore
import MTTHTTP
import Synchronization
import TestSupport
import Testing

@Suite("Sync to MapTheThings over loopback HTTP")
struct MapTheThingsUploadTests {
    let dir = TemporaryDirectory("mtt-sync")
    let login = MapTheThingsCredentials(user: "alice", token: "tok-123", secret: "sec-456")

    func uploader(_ store: Store, _ server: LoopbackHTTPServer, timeout: Double = 5, _ adjust: (inout SyncPolicy) -> Void = { _ in }) throws -> Uploader<MapTheThingsDestination> {
        var policy = SyncPolicy()
        policy.backoff.initial = 0.02
        adjust(&policy)
        let destination = MapTheThingsDestination(baseURL: URL(string: server.baseURL)!, credentials: login, databaseID: try store.databaseID())
        return Uploader(store: store, destination: destination, transport: HTTPTransport(timeout: timeout, connections: policy.concurrency), policy: policy)
    }

    @Test func transmissionsCarryTheServersBodyTimestampAndAuthorization() async throws {
        let store = try Store(path: dir.file("body.sqlite"))
        let expected = try SyncTestData.addConfirmedAttempts(3, to: store)
        let server = try LoopbackHTTPServer { _ in .status(201, #"{"mtt":true,"type":"attempt"}"#) }
        let summary = try await uploader(store, server) { $0.concurrency = 1 }.run()

        #expect(summary.sent == 3 && summary.rejected == 0 && summary.failed == 0 && summary.queued == 0)
        let requests = server.requests
        #expect(requests.count == 3)
        #expect(expected[0].timestamp == "2016-05-25T15:30:26.713Z")
        for (request, want) in zip(requests, expected) {
            #expect(request.method == "POST")
            #expect(request.path == "/api/v0/transmissions")
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["authorization"] == #"TwitterAuth username="alice" token="tok-123" token-secret="sec-456" realm="api""#)
            let body = try #require(request.json)
            #expect(Set(body.keys) == ["lat", "lon", "alt", "timestamp", "dev_eui", "msg_seq"])
            #expect(body["lat"] as? Double == want.lat)
            #expect(body["lon"] as? Double == want.lon)
            #expect(body["alt"] as? Double == want.alt)
            #expect(body["timestamp"] as? String == want.timestamp)
            #expect(body["dev_eui"] as? String == want.devEUI)
            #expect(body["msg_seq"] as? Int == want.msgSeq)
        }
        #expect(try store.status().unsynced["mapthethings"] == 0)

        // A rerun finds nothing to send.
        let again = try await uploader(store, server).run()
        #expect(again.sent == 0 && server.requests.count == 3)
    }

    /// 30 % of requests fail (500s and dropped connections) and 5 % more get no answer at all.
    @Test func everyRecordIsAcceptedExactlyOnceThroughErrorsDropsAndTimeouts() async throws {
        let store = try Store(path: dir.file("faults.sqlite"))
        let expected = try SyncTestData.addConfirmedAttempts(120, to: store)
        let accepted = AcceptedRecords()
        // The timeout well below the stalls and well above an answer's time on a busy machine: with
        // the whole suite beside it (Chromium, collections with hooks) one answer took over 2.5 s
        // and its record was sent again, as the client must when an answer comes too late.
        let server = try LoopbackHTTPServer.faulty(recording: accepted, stall: 12)
        let summary = try await uploader(store, server, timeout: 5) { $0.triesPerRecord = 12 }.run()

        #expect(summary.sent == 120, "notes: \(summary.notes), stop: \(summary.stopReason ?? "-")")
        #expect(summary.failed == 0 && summary.queued == 0)
        #expect(accepted.all.sorted() == expected.map(\.msgSeq), "some record was accepted twice or never")
        // The faults did happen: more requests than records.
        #expect(server.requests.count > 150)
        #expect(try store.sync.syncQueueCount(.mapthethings) == 0)

        let again = try await uploader(store, server).run()
        #expect(again.sent == 0)
        #expect(accepted.all.count == 120)
    }

    @Test func retriesOfOneRecordBackOffExponentially() async throws {
        let store = try Store(path: dir.file("backoff.sqlite"))
        try SyncTestData.addConfirmedAttempts(1, to: store)
        let counter = Mutex(0)
        let server = try LoopbackHTTPServer { _ in
            counter.withLock { n in n += 1; return n } <= 4 ? .status(503, "busy") : .status(201, "{}")
        }
        let summary = try await uploader(store, server) { $0.backoff.initial = 0.2 }.run()
        #expect(summary.sent == 1)
        // "0 failed" alone would hide a flaky link: the summary says the tries it took.
        #expect(summary.notes.contains { $0.hasPrefix("1 request(s) went through on a later try; last error:") && $0.contains("503") }, "\(summary.notes)")
        let times = server.requests.map(\.arrival)
        try #require(times.count == 5)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        // 0.2, 0.4, 0.8, 1.6 s, each ±25 %. A loaded machine can delay a retry, never hurry it, so the
        // lower bounds are what can be checked; they alone rule out a fixed or missing pause.
        for (gap, nominal) in zip(gaps, [0.2, 0.4, 0.8, 1.6]) {
            #expect(gap >= nominal * 0.75 - 0.02, "gaps \(gaps)")
        }
    }

    @Test func badRequestIsRejectedOnceAndKeepsTheServersReason() async throws {
        let store = try Store(path: dir.file("rejected.sqlite"))
        try SyncTestData.addConfirmedAttempts(2, to: store)
        let server = try LoopbackHTTPServer { request in
            (request.json?["msg_seq"] as? Int) == 160 ? .status(400, "Invalid latitude/longitude") : .status(201, "{}")
        }
        let summary = try await uploader(store, server).run()
        #expect(summary.sent == 1 && summary.rejected == 1 && summary.queued == 0)
        #expect(server.requests.count == 2, "a 400 must not be retried")
        #expect(summary.notes.contains { $0.contains("Invalid latitude/longitude") })
        let reasons = try store.sync.syncMessages(.mapthethings, state: .rejected)
        #expect(reasons.map(\.message) == ["HTTP 400: Invalid latitude/longitude"])

        _ = try await uploader(store, server).run()
        #expect(server.requests.count == 2, "a rejected record was sent again")
    }

    @Test func refusedCredentialsStopTheRunAndLeaveEverythingQueued() async throws {
        let store = try Store(path: dir.file("401.sqlite"))
        try SyncTestData.addConfirmedAttempts(20, to: store)
        let server = try LoopbackHTTPServer { _ in .status(401, "", headers: ["WWW-Authenticate": #"TwitterAuth realm="api""#]) }
        let summary = try await uploader(store, server) { $0.concurrency = 4 }.run()
        #expect(summary.stopReason?.contains("refused the credentials of alice") == true, "\(summary)")
        #expect(summary.sent == 0 && summary.queued == 20)
        #expect(server.requests.count <= 4, "kept sending after a 401: \(server.requests.count) requests")
        #expect(try store.status().unsynced["mapthethings"] == 20)
    }

    @Test func samplesAndTracksStayQueuedOnAServerWithoutThoseEndpoints() async throws {
        let store = try Store(path: dir.file("404.sqlite"))
        try SyncTestData.addConfirmedAttempts(2, to: store)
        try SyncTestData.addListenerSamples(3, to: store)
        try SyncTestData.addMatchingTrack(1200, to: store)
        #expect(try store.sync.syncQueueCount(.mapthethings) == 2 + 3 + 1200)
        let oldServer = try LoopbackHTTPServer { request in
            switch request.path {
            case "/api/v0/transmissions": .status(201, "{}")
            case "/api/v0/samples": .status(404, "Not Found")
            default: .status(405, "Method Not Allowed")
            }
        }
        let summary = try await uploader(store, oldServer).run()
        #expect(summary.sent == 2)
        #expect(summary.stopReason == nil)
        // The run that finds out fails for it (exit 1), with a line per kind.
        #expect(summary.isFailure)
        #expect(summary.refused.contains("3 samples stay queued: this server does not accept listener samples (HTTP 404 for /api/v0/samples)"), "\(summary.refused)")
        #expect(summary.refused.contains("1200 track points stay queued: this server does not accept matching tracks (HTTP 405 for /api/v0/tracks)"), "\(summary.refused)")
        // One try each is enough to learn it: the rest are not hammered at the server.
        let learning = oldServer.requests.filter { $0.path != "/api/v0/transmissions" }.count
        #expect(learning <= 2 * SyncPolicy().concurrency)
        // From then on they do not count as waiting, and are not sent to that server again.
        #expect(summary.queued == 0)
        let status = try store.status()
        #expect(status.unsynced["mapthethings"] == 0)
        #expect(status.notTaken["mapthethings"]?.count == 3 + 1200, "\(status.notTaken)")
        let again = try await uploader(store, oldServer).run()
        #expect(!again.isFailure && again.refused.isEmpty && again.sent == 0)
        #expect(oldServer.requests.filter { $0.path != "/api/v0/transmissions" }.count == learning)
        #expect(again.notes.contains { $0.hasPrefix("3 samples not sent: \(oldServer.baseURL) does not take them") }, "\(again.notes)")

        // Another server is tried, and once it takes them they wait no more.
        let newServer = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let later = try await uploader(store, newServer).run()
        #expect(later.sent == 3 + 1200 && later.queued == 0)
        #expect(try store.status().notTaken.isEmpty)
        let samples = newServer.requests.filter { $0.path == "/api/v0/samples" }
        let tracks = newServer.requests.filter { $0.path == "/api/v0/tracks" }
        #expect(samples.count == 3)
        #expect(tracks.count == 3, "1200 points go as tracks of at most 500")
        let sample = try #require(samples.compactMap(\.json).first { $0["msg_seq"] as? Int == 0 })
        #expect(sample["timestamp"] as? String == "2016-05-25T15:30:26.713Z")
        #expect(sample["lat"] as? Double == 52.09 && sample["lon"] as? Double == 5.12)
        #expect(sample["dev_eui"] as? String == SyncTestData.devEUI && sample["device_id"] as? String == "mapper-1")
        let gateways = try #require(sample["gateways"] as? [[String: Any]])
        #expect(gateways.map { $0["gtw_id"] as? String } == ["gw-north", "gw-south"])
        #expect(gateways.map { $0["rssi"] as? Double } == [-97, -118])
        let points = tracks.compactMap(\.json).flatMap { ($0["points"] as? [[String: Any]]) ?? [] }
        #expect(points.count == 1200)
        #expect(Set(tracks.compactMap { $0.json?["track_id"] as? String }).count == 1)
    }

    @Test func aServerThatKeepsFailingEndsTheRunWithoutSpinning() async throws {
        let store = try Store(path: dir.file("down.sqlite"))
        try SyncTestData.addConfirmedAttempts(50, to: store)
        let server = try LoopbackHTTPServer { _ in .status(503, "down for maintenance") }
        let started = Date()
        let summary = try await uploader(store, server) {
            $0.concurrency = 2
            $0.failuresInARowToGiveUp = 8
            $0.backoff.initial = 0.05
        }.run()
        #expect(summary.stopReason?.contains("failed 8 times in a row") == true, "\(summary)")
        #expect(summary.stopReason?.contains("down for maintenance") == true)
        #expect(summary.queued == 50 && summary.sent == 0)
        #expect(server.requests.count <= 8 + 2)
        // Each worker waited 0.05, 0.1, 0.2 s (±25 %) between its tries.
        #expect(Date().timeIntervalSince(started) >= 0.25)
    }

    @Test func anUnreachableServerIsReportedAndNothingIsLost() async throws {
        let store = try Store(path: dir.file("refused.sqlite"))
        try SyncTestData.addConfirmedAttempts(5, to: store)
        var policy = SyncPolicy()
        policy.backoff.initial = 0.01
        policy.failuresInARowToGiveUp = 4
        let destination = MapTheThingsDestination(
            baseURL: URL(string: "http://127.0.0.1:\(LoopbackPort.free())")!, credentials: login, databaseID: "test")
        let summary = try await Uploader(
            store: store, destination: destination, transport: HTTPTransport(timeout: 2, connections: 8), policy: policy
        ).run()
        #expect(summary.stopReason?.contains("refused the connection") == true, "\(summary)")
        #expect(summary.queued == 5)
    }
}
