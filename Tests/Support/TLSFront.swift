import Foundation

/// socat terminating TLS on 127.0.0.1 in front of a plain loopback server, so the upload tests run
/// mtt's TLS client against another program's TLS server. One socat child per connection, as
/// the server behind sees them.
public final class TLSFront: Sendable {
    public let port: Int
    public var baseURL: String { "https://127.0.0.1:\(port)" }
    private let process: ChildProcess.Running

    /// Starts socat and returns once it listens.
    public static func start(certificates: TestCertificates, backendPort: Int) async throws -> TLSFront {
        try await offThePool { try TLSFront(certificates: certificates, backendPort: backendPort) }
    }

    private init(certificates: TestCertificates, backendPort: Int) throws {
        port = LoopbackPort.free()
        let socat = ["/usr/bin/socat", "/bin/socat"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let socat else { throw TestCertificatesError(reason: "socat is not installed: run ./scripts/setup") }
        process = try ChildProcess.Running(socat, [
            "OPENSSL-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork,verify=0,cert=\(certificates.serverCertificate),key=\(certificates.serverKey)",
            "TCP:127.0.0.1:\(backendPort)",
        ], environment: [:])
        guard LoopbackPort.waitUntilListening(port) else {
            stop()
            throw TestCertificatesError(reason: "socat did not listen on 127.0.0.1:\(port)")
        }
    }

    deinit { stop() }

    /// Kills socat and the children it forked for open connections.
    public func stop() {
        process.stop()
    }
}
