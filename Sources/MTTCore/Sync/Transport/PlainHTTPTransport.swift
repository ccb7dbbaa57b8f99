import Dispatch
import Foundation
import Synchronization

/// HTTP/1.1 over kept-alive TCP connections, for `http://` servers (MapTheThings' own default).
///
/// URLSession on Linux hands requests to libcurl, which silently sends a request again when a
/// kept-alive connection turns out to be closed, and then sends it without its body: the upload
/// hangs until its timeout, and under load the record can reach the server twice. A record must
/// reach the server once, so every failure here is reported to the uploader, which decides.
public final class PlainHTTPTransport: SyncTransport {
    private let timeout: Double
    private let maximumIdle: Int
    private let idle = Mutex<[String: [HTTPConnection]]>([:])

    public init(timeout: Double, connections: Int) {
        self.timeout = timeout
        maximumIdle = connections
    }

    public func send(_ request: SyncRequest) async throws -> SyncResponse {
        guard let host = request.url.host, request.url.scheme?.lowercased() == "http" else {
            throw SyncTransportError.connectionFailed("\(request.url.absoluteString) is not an http:// URL")
        }
        let port = request.url.port ?? 80
        var path = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { path += "?" + query }
        var head = "POST \(path) HTTP/1.1\r\nHost: \(request.url.port.map { "\(host):\($0)" } ?? host)\r\n"
        head += "User-Agent: mtt/\(MTTVersion.current)\r\nContent-Type: application/json\r\n"
        head += "Content-Length: \(request.body.count)\r\nConnection: keep-alive\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        let bytes = Data((head + "\r\n").utf8) + request.body
        let key = "\(host):\(port)"
        let timeout = self.timeout
        return try await withCheckedThrowingContinuation { continuation in
            // Blocking socket calls run on Dispatch's threads, never on Swift's cooperative pool.
            DispatchQueue.global().async {
                do throws(SyncTransportError) {
                    let deadline = Date().addingTimeInterval(timeout)
                    let connection: HTTPConnection
                    if let open = self.takeIdle(key) {
                        connection = open
                    } else {
                        connection = try HTTPConnection(host: host, port: port, deadline: deadline)
                    }
                    let response = try connection.exchange(bytes, deadline: deadline, timeout: timeout)
                    if response.keepAlive { self.putIdle(connection, key) }
                    continuation.resume(returning: SyncResponse(status: response.status, body: response.body))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// An open connection to the server, skipping ones the server closed while they were idle.
    private func takeIdle(_ key: String) -> HTTPConnection? {
        while let connection = idle.withLock({ $0[key]?.popLast() }) {
            if !connection.isStale { return connection }
        }
        return nil
    }

    private func putIdle(_ connection: HTTPConnection, _ key: String) {
        idle.withLock { pool in
            if pool[key, default: []].count < maximumIdle { pool[key, default: []].append(connection) }
        }
    }
}
