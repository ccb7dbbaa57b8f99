import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP over one URLSession: its connections are kept alive and shared by concurrent requests.
public final class URLSessionTransport: SyncTransport {
    private let session: URLSession
    private let timeout: Double

    /// - Parameters:
    ///   - timeout: seconds to wait for an answer to one request.
    ///   - connections: the most connections open to one host at once.
    public init(timeout: Double, connections: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = connections
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: SyncRequest) async throws -> SyncResponse {
        var http = URLRequest(url: request.url, timeoutInterval: timeout)
        http.httpMethod = "POST"
        http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        http.setValue("mtt/\(MTTVersion.current)", forHTTPHeaderField: "User-Agent")
        for (name, value) in request.headers {
            http.setValue(value, forHTTPHeaderField: name)
        }
        http.httpBody = request.body
        do {
            let (data, response) = try await session.data(for: http)
            guard let response = response as? HTTPURLResponse else {
                throw SyncTransportError.connectionFailed("the answer from \(request.url.host ?? "the server") was not HTTP")
            }
            return SyncResponse(status: response.statusCode, body: data)
        } catch let error as URLError {
            if error.code == .timedOut { throw SyncTransportError.timedOut(seconds: timeout) }
            throw SyncTransportError.connectionFailed(Self.describe(error, url: request.url))
        }
    }

    private static func describe(_ error: URLError, url: URL) -> String {
        let host = url.host.map { h in url.port.map { "\(h):\($0)" } ?? h } ?? url.absoluteString
        switch error.code {
        case .cannotConnectToHost: return "\(host) refused the connection"
        case .cannotFindHost, .dnsLookupFailed: return "cannot find \(host)"
        case .networkConnectionLost: return "\(host) dropped the connection"
        case .notConnectedToInternet: return "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "TLS with \(host) failed"
        default: return "\(host): \(error.localizedDescription)"
        }
    }
}

