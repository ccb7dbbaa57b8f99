import FoundationEssentials
import Glibc
import MTTCore

/// The Things Stack's Storage Integration (SPEC.md §6): the uplinks the network kept while mtt
/// had no connection, read page by page over any `StreamingTransport` (MTTHTTP's in the field).
public struct TTSStorageReader: StoredUplinkSource {
    /// `https://eu1.cloud.thethings.network`.
    public let cluster: URL
    public let application: String
    private let apiKey: String
    private let transport: any StreamingTransport
    /// Uplinks asked for per request.
    public var pageSize = 1000
    /// Ask for `text/event-stream` (objects separated by blank lines) instead of JSON lines.
    public var eventStream = false
    /// The longest rate-limit wait obeyed at once; a server asking for more is asked again then.
    public var longestWait = 60.0
    /// Rate-limit waits of one read, all told, after which it gives up (fetch again later).
    public var longestWaits = 900.0
    /// What rate-limit waits are waited on.
    public var clock: any TimeSource = SystemClock()

    public init(cluster: URL, application: String, apiKey: String, transport: any StreamingTransport) {
        self.cluster = cluster
        self.application = application
        self.apiKey = apiKey
        self.transport = transport
    }

    public func read(_ query: StoredUplinkQuery, handle: @escaping @Sendable (StoredUplinkItem) -> Bool) async throws(FetchError) {
        var after = query.after
        var token: String?
        var waited = 0.0
        while true {
            let url = pageURL(query, after: after, token: token)
            let stream = StoredUplinkStream(eventStream: eventStream, handle: handle)
            let response: StreamedResponse
            do {
                response = try await transport.get(
                    url, headers: ["Authorization": "Bearer \(apiKey)", "Accept": eventStream ? "text/event-stream" : "application/json"],
                    body: { stream.consume($0) })
            } catch {
                throw .connection("\(cluster.host ?? cluster.absoluteString): \(error)")
            }
            switch response.status {
            case 200..<300:
                stream.finish()
                if let message = stream.error { throw .server(message) }
                if stream.stopped { return }
                // A proxy's login page, a cut-off answer, bytes that are not text: a 200 that holds
                // nothing readable is no answer (an empty one is: nothing was stored).
                if stream.readable == 0, let first = stream.firstBroken {
                    throw .server("\(cluster.host ?? "the server") answered with no stored uplinks, only text that is not (\(first))")
                }
                if let next = response.headers["x-continuation-token"], !next.isEmpty, stream.objects > 0 {
                    token = next
                } else if token == nil, stream.objects >= pageSize, let latest = stream.latest, latest > after {
                    // A server that pages by token says so on every page but the last; one that
                    // does not is paged by moving `after`.
                    token = nil
                    after = latest
                } else {
                    return
                }
            case 429:
                let asked = max(1, Double(response.headers["x-rate-limit-retry"] ?? "") ?? 10)
                let seconds = min(longestWait, asked.isFinite ? asked : longestWait)
                guard waited + seconds <= longestWaits else {
                    throw .server("\(cluster.host ?? "the server") still asks to wait after \(waited.plainText) s of waiting; fetch again later")
                }
                waited += seconds
                guard handle(.waiting(seconds: seconds, asked: asked)) else { return }
                // Cancelled by a stop request: the read ends at once.
                do { try await clock.sleep(seconds: seconds) } catch { return }
            default:
                throw refusal(response)
            }
        }
    }

    /// `…/applications/APP[/devices/DEV]/packages/storage/uplink_message?…`
    func pageURL(_ query: StoredUplinkQuery, after: Timestamp, token: String?) -> URL {
        var path = "/api/v3/as/applications/\(application)"
        if let device = query.device { path += "/devices/\(device)" }
        path += "/packages/storage/uplink_message"
        var parts = URLComponents(url: cluster, resolvingAgainstBaseURL: false) ?? URLComponents()
        parts.path = (parts.path.hasSuffix("/") ? String(parts.path.dropLast()) : parts.path) + path
        if let token {
            // The other parameters are ignored with a token.
            parts.queryItems = [URLQueryItem(name: "continuation_token", value: token)]
        } else {
            parts.queryItems = [
                URLQueryItem(name: "after", value: RFC3339.string(after, fractionDigits: 9)),
                URLQueryItem(name: "before", value: RFC3339.string(query.before, fractionDigits: 9)),
                URLQueryItem(name: "order", value: "received_at"),
                URLQueryItem(name: "limit", value: String(pageSize)),
            ]
        }
        // A token may hold '+' or '/', which a query must escape.
        parts.percentEncodedQuery = parts.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return parts.url ?? cluster
    }

    private func refusal(_ response: StreamedResponse) -> FetchError {
        let said = HTTPSyncResponse(status: response.status, body: response.errorBody).bodyLine
        switch response.status {
        case 401:
            return .refused("the API key was not accepted (401: \(said)); it must be a key of \(application)")
        case 403:
            return .refused("the API key may not read \(application)'s stored uplinks (403: \(said)); it needs the right \"Read application traffic (uplink and downlink)\"")
        case 404:
            return .notActivated("\(application) has no active Storage Integration (404: \(said)); activate it once in the Console: Applications → \(application) → Integrations → Storage Integration → Activate")
        default:
            return .server("HTTP \(response.status) from \(cluster.host ?? ""): \(said)")
        }
    }
}
