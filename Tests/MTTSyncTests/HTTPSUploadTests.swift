import Foundation
import MTTCore
import MTTHTTP
import Synchronization
import TestSupport
import Testing

/// Uploads over https:// through mtt's own TLS client, against socat's TLS in front of the loopback
/// server: certificates checked, connections kept alive, faults handled as over plain HTTP.
@Suite("Sync over HTTPS")
struct HTTPSUploadTests {
    let dir = TemporaryDirectory("mtt-https")
    let login = MapTheThingsCredentials(user: "alice", token: "tok-123", secret: "sec-456")

    func run(
        _ store: Store, _ url: String, trusting caFile: String?, timeout: Double = 5, _ adjust: (inout SyncPolicy) -> Void = { _ in }
    ) async throws -> SyncSummary {
        var policy = SyncPolicy()
        policy.backoff.initial = 0.02
        adjust(&policy)
        let destination = MapTheThingsDestination(baseURL: URL(string: url)!, credentials: login, databaseID: try store.databaseID())
        let transport = HTTPTransport(timeout: timeout, connections: policy.concurrency, trusting: caFile)
        return try await Uploader(store: store, destination: destination, transport: transport, policy: policy).run()
    }

    @Test func uploadsOverTLSOnKeptAliveConnections() async throws {
        let store = try Store(path: dir.file("ok.sqlite"))
        let expected = try SyncTestData.addConfirmedAttempts(40, to: store)
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let certificates = try await TestCertificates.make(in: dir)
        let front = try await TLSFront.start(certificates: certificates, backendPort: server.port)

        let summary = try await run(store, front.baseURL, trusting: certificates.caCertificate) { $0.concurrency = 4 }

        #expect(summary.sent == 40 && summary.failed == 0 && summary.queued == 0, "\(summary)")
        let requests = server.requests
        #expect(requests.count == 40)
        #expect(Set(requests.compactMap { $0.json?["msg_seq"] as? Int }) == Set(expected.map(\.msgSeq)))
        #expect(requests.allSatisfy { $0.path == "/api/v0/transmissions" })
        #expect(requests.allSatisfy { $0.headers["authorization"]?.hasPrefix("TwitterAuth username=\"alice\"") == true })
        // One TLS connection per worker at most, each carrying many requests.
        #expect(Set(requests.map(\.connection)).count <= 4, "connections: \(Set(requests.map(\.connection)).count)")
    }

    /// The server closes each connection after answering, and the next request comes a moment
    /// later on the same transport: it must see that its idle connection was closed (over TLS the
    /// close arrives as bytes to read, as session tickets may on a healthy idle connection) and
    /// open another rather than fail on it. One try per record makes such a failure show.
    @Test(arguments: ["http", "https"])
    func anIdleConnectionTheServerClosedIsNotReused(scheme: String) async throws {
        let store = try Store(path: dir.file("closing-\(scheme).sqlite"))
        let server = try LoopbackHTTPServer { _ in .answerThenClose(status: 201, body: "{}") }
        let certificates = try await TestCertificates.make(in: dir)
        let front = try await TLSFront.start(certificates: certificates, backendPort: server.port)
        let url = URL(string: scheme == "https" ? front.baseURL : server.baseURL)!
        let destination = MapTheThingsDestination(baseURL: url, credentials: login, databaseID: try store.databaseID())
        let transport = HTTPTransport(timeout: 5, connections: 1, trusting: certificates.caCertificate)
        var policy = SyncPolicy()
        policy.concurrency = 1
        policy.triesPerRecord = 1

        for round in 1...4 {
            try SyncTestData.addConfirmedAttempts(1, to: store)
            let summary = try await Uploader(store: store, destination: destination, transport: transport, policy: policy).run()
            #expect(summary.sent == 1 && summary.failed == 0, "round \(round): \(summary)")
            // Deliberate: the server's close reaches the idle connection between two runs.
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        #expect(server.requests.count == 4)
        #expect(Set(server.requests.map(\.connection)).count == 4)
    }

    @Test func aServerSignedByAnUnknownCAIsRefusedAndNothingIsSent() async throws {
        let store = try Store(path: dir.file("unknown-ca.sqlite"))
        try SyncTestData.addConfirmedAttempts(10, to: store)
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let certificates = try await TestCertificates.make(in: dir)
        let front = try await TLSFront.start(certificates: certificates, backendPort: server.port)

        let summary = try await run(store, front.baseURL, trusting: nil) { $0.concurrency = 4 }

        // Stopped at once (an untrusted server is not retried), with OpenSSL's reason.
        let reason = try #require(summary.stopReason)
        #expect(reason.contains("TLS with 127.0.0.1:\(front.port) failed") && reason.contains("certificate"), "\(reason)")
        #expect(summary.sent == 0 && summary.queued == 10)
        #expect(server.requests.isEmpty)
        #expect(try store.sync.syncQueueCount(.mapthethings) == 10)
    }

    @Test func aCertificateForAnotherNameIsRefused() async throws {
        let store = try Store(path: dir.file("other-name.sqlite"))
        try SyncTestData.addConfirmedAttempts(3, to: store)
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let certificates = try await TestCertificates.make(in: dir, names: "DNS:map.example.org")
        let front = try await TLSFront.start(certificates: certificates, backendPort: server.port)

        let byAddress = try await run(store, front.baseURL, trusting: certificates.caCertificate)
        #expect(byAddress.stopReason?.contains("IP address mismatch") == true, "\(byAddress)")
        let byName = try await run(store, "https://localhost:\(front.port)", trusting: certificates.caCertificate)
        #expect(byName.stopReason?.contains("hostname mismatch") == true, "\(byName)")
        #expect(server.requests.isEmpty)
        #expect(try store.sync.syncQueueCount(.mapthethings) == 3)
    }

    /// The plain-HTTP fault test again through TLS: 500s, dropped connections and stalls.
    @Test func everyRecordIsAcceptedExactlyOnceThroughTLSDropsAndTimeouts() async throws {
        let store = try Store(path: dir.file("faults.sqlite"))
        let expected = try SyncTestData.addConfirmedAttempts(60, to: store)
        let accepted = AcceptedRecords()
        // A new TLS connection costs socat a fork and a handshake: on a busy two-core machine that
        // took more than 0.8 s (an accepted answer came too late and was sent again), so the
        // timeout is 3.5 s and the stalls 6 s.
        let server = try LoopbackHTTPServer.faulty(recording: accepted, stall: 6)
        let certificates = try await TestCertificates.make(in: dir)
        let front = try await TLSFront.start(certificates: certificates, backendPort: server.port)

        let summary = try await run(store, front.baseURL, trusting: certificates.caCertificate, timeout: 3.5) { $0.triesPerRecord = 12 }

        #expect(summary.sent == 60, "notes: \(summary.notes), stop: \(summary.stopReason ?? "-")")
        #expect(accepted.all.sorted() == expected.map(\.msgSeq), "some record was accepted twice or never")
        #expect(server.requests.count > 70)
        #expect(try store.sync.syncQueueCount(.mapthethings) == 0)
    }

    @Test func anUnreadableCAFileStopsTheTargetWithItsName() async throws {
        let store = try Store(path: dir.file("bad-ca.sqlite"))
        try SyncTestData.addConfirmedAttempts(2, to: store)
        let notPEM = dir.file("not-a-ca.pem")
        try "hello\n".write(toFile: notPEM, atomically: true, encoding: .utf8)
        let summary = try await run(store, "https://127.0.0.1:\(LoopbackPort.free())", trusting: notPEM)
        #expect(summary.stopReason?.contains("cannot read the CA certificate \(notPEM)") == true, "\(summary)")
        #expect(summary.queued == 2)
    }
}
