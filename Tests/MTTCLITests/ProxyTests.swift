import Foundation
import MTTCore
import TestSupport
import Testing

/// `mtt sync` behind a proxy, as curl honours one: https_proxy tunnels with CONNECT, no_proxy
/// goes around it. The proxy and the TLS server are on loopback.
@Suite("mtt sync through a proxy")
struct ProxyTests {
    let mtt = MTTCommand()
    let login = ["MTT_MAPTHETHINGS_USER": "alice", "MTT_MAPTHETHINGS_TOKEN": "tok-SECRET-1", "MTT_MAPTHETHINGS_SECRET": "sec-SECRET-2"]

    struct Setup {
        var server: LoopbackHTTPServer
        var front: TLSFront
        var certificates: TestCertificates
        var keys: TemporaryDirectory
    }

    func setUp(records: Int) async throws -> Setup {
        try SyncTestData.addConfirmedAttempts(records, to: Store(path: mtt.database))
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let keys = TemporaryDirectory("mtt-proxy-tls")
        let certificates = try await TestCertificates.make(in: keys)
        let front = try await TLSFront.start(certificates: certificates, backendPort: server.port)
        return Setup(server: server, front: front, certificates: certificates, keys: keys)
    }

    func sync(_ s: Setup, environment: [String: String]) async throws -> ChildProcess.Result {
        try await mtt.run(
            ["sync", "--target", "mapthethings", "--url", s.front.baseURL, "--ca", s.certificates.caCertificate, "--db", mtt.database],
            environment: login.merging(environment) { _, new in new })
    }

    @Test func httpsGoesThroughTheProxysConnectTunnel() async throws {
        let s = try await setUp(records: 6)
        let proxy = try ConnectProxy()
        let result = try await sync(s, environment: ["https_proxy": proxy.url])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(s.server.requests.count == 6)
        // Tunnels to the TLS server, and only there; kept-alive connections share them.
        #expect(!proxy.targets.isEmpty && proxy.targets.allSatisfy { $0 == "127.0.0.1:\(s.front.port)" }, "\(proxy.targets)")
        #expect(proxy.targets.count <= 8)
    }

    @Test func noProxyGoesAroundIt() async throws {
        let s = try await setUp(records: 3)
        let proxy = try ConnectProxy()
        let result = try await sync(s, environment: ["HTTPS_PROXY": proxy.url, "no_proxy": "localhost,127.0.0.1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(s.server.requests.count == 3)
        #expect(proxy.targets.isEmpty)
    }

    @Test func aProxyThatWantsAPasswordStopsTheTargetAndSaysSo() async throws {
        let s = try await setUp(records: 2)
        let proxy = try ConnectProxy(requiring: "Basic " + Data("mapper:pa55".utf8).base64EncodedString())
        let refused = try await sync(s, environment: ["https_proxy": proxy.url])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("wants a user and password (HTTP 407)"), "\(refused.stderr)")
        #expect(s.server.requests.isEmpty)

        let with = try await sync(s, environment: ["https_proxy": "http://mapper:pa55@127.0.0.1:\(proxy.port)"])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(s.server.requests.count == 2)
        #expect(!with.stderr.contains("pa55") && !refused.stderr.contains("pa55"))
    }
}
