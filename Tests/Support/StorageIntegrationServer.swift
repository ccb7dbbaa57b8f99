import Foundation
import MTTCore
import Synchronization

/// The Things Stack's Storage Integration on loopback (SPEC.md §6), answering as TTS does:
/// Bearer auth, `{"result": …}` objects one per line or blank-line separated for
/// `text/event-stream`, paging by `X-Continuation-Token` or by `after`, 429 with
/// `X-Rate-Limit-Retry`, and the faults a test asks for (broken lines, an `{"error": …}` end, an
/// integration that is not active, a key without the right).
public final class StorageIntegrationServer: Sendable {
    public struct Behaviour: Sendable {
        public var application = "mtt-demo"
        public var apiKey = "NNSXS.TEST-KEY"
        /// A key that is valid but lacks "Read application traffic".
        public var keyWithoutRights: String?
        /// The integration is activated; when not, every read is 404.
        public var active = true
        /// Page by continuation token (else the client moves `after`).
        public var pagingByToken = true
        /// The most results per page, whatever the client asks.
        public var largestPage = 1000
        /// The first this many requests are answered 429.
        public var rateLimited = 0
        public var retryAfter = 1
        /// A broken line after every this many results (0: none).
        public var brokenEvery = 0
        /// Ends the stream of every page after the first with this error object instead of results.
        public var errorAfterFirstPage: String?
        /// What every authorised read is answered with instead (a proxy's page, a cut answer, a
        /// server that trickles).
        public var answer: LoopbackHTTPServer.Action?
        public init() {}
    }

    /// The messages and settings, shared with the HTTP handler.
    private final class State: Sendable {
        struct Stored {
            var device: String
            var receivedAt: Timestamp
            var json: String
        }

        let messages = Mutex<[Stored]>([])
        let behaviour: Mutex<Behaviour>
        let requestCount = Mutex(0)
        let pagesServed = Mutex(0)

        init(_ behaviour: Behaviour) {
            self.behaviour = Mutex(behaviour)
        }
    }

    private let state: State
    private let http: LoopbackHTTPServer

    public var baseURL: String { http.baseURL }
    /// Every request, in order.
    public var requests: [LoopbackHTTPServer.Request] { http.requests }

    public init(_ behaviour: Behaviour = Behaviour()) throws {
        let state = State(behaviour)
        self.state = state
        http = try LoopbackHTTPServer { request in Self.answer(request, state) }
    }

    public func behave(_ change: (inout Behaviour) -> Void) {
        state.behaviour.withLock { change(&$0) }
    }

    /// Stores a message as the integration would (TTS JSON, as it went out on MQTT).
    public func store(_ json: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any],
              let device = (object["end_device_ids"] as? [String: Any])?["device_id"] as? String else { return }
        let uplink = object["uplink_message"] as? [String: Any]
        let time = (object["received_at"] as? String ?? uplink?["received_at"] as? String).flatMap { RFC3339.parse($0) } ?? .now()
        state.messages.withLock { $0.append(.init(device: device, receivedAt: time, json: json)) }
    }

    public var storedCount: Int { state.messages.withLock { $0.count } }

    private static func answer(_ request: LoopbackHTTPServer.Request, _ state: State) -> LoopbackHTTPServer.Action {
        let behaviour = state.behaviour.withLock { $0 }
        let number = state.requestCount.withLock { n in
            defer { n += 1 }
            return n
        }
        var parts = URLComponents(string: "http://x" + request.path)
        // As Go's servers read a query: a bare '+' is a space.
        let spaced = parts?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%20")
        parts?.percentEncodedQuery = spaced
        let query = Dictionary((parts?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
        let segments = (parts?.path ?? "").split(separator: "/").map(String.init)
        // api v3 as applications APP [devices DEV] packages storage uplink_message
        guard segments.count >= 8, Array(segments[0..<3]) == ["api", "v3", "as"], segments[3] == "applications",
              Array(segments.suffix(3)) == ["packages", "storage", "uplink_message"] else {
            return .status(404, #"{"code":5,"message":"route not found"}"#)
        }
        let application = segments[4]
        let device = segments.count == 10 && segments[5] == "devices" ? segments[6] : nil
        let key = request.headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        if key == behaviour.keyWithoutRights {
            return .status(403, #"{"code":7,"message":"error:pkg/auth/rights:no_application_rights (no rights for application)"}"#)
        }
        guard key == behaviour.apiKey else {
            return .status(401, #"{"code":16,"message":"error:pkg/auth:token_not_found (token not found)"}"#)
        }
        guard application == behaviour.application, behaviour.active else {
            return .status(404, #"{"code":5,"message":"error:pkg/applicationserver/io/packages:not_activated (package not activated)"}"#)
        }
        if let answer = behaviour.answer { return answer }
        if number < behaviour.rateLimited {
            return .status(429, #"{"code":8,"message":"rate limited"}"#, headers: ["X-Rate-Limit-Retry": String(behaviour.retryAfter), "X-Rate-Limit-Reset": "1"])
        }
        // A token is the offset into this query's results, with characters a query must escape.
        var offset = 0
        var after = query["after"].flatMap { RFC3339.parse($0) }
        var before = query["before"].flatMap { RFC3339.parse($0) }
        var limit = Int(query["limit"] ?? "") ?? behaviour.largestPage
        if let token = query["continuation_token"] {
            guard token.hasSuffix("+/") else { return .status(400, #"{"code":3,"message":"bad token"}"#) }
            let fields = String(decoding: Data(base64Encoded: String(token.dropLast(2))) ?? Data(), as: UTF8.self)
                .split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let o = Int(fields[0]), let l = Int(fields[3]) else { return .status(400, #"{"code":3,"message":"bad token"}"#) }
            offset = o
            after = RFC3339.parse(fields[1])
            before = RFC3339.parse(fields[2])
            limit = l
        }
        let matching = state.messages.withLock { all in
            all.filter { m in
                (device == nil || m.device == device) && after.map { m.receivedAt > $0 } ?? true && before.map { m.receivedAt < $0 } ?? true
            }.sorted { $0.receivedAt < $1.receivedAt }
        }
        let page = Array(matching.dropFirst(offset).prefix(min(limit, behaviour.largestPage)))
        let eventStream = request.headers["accept"]?.contains("text/event-stream") == true
        let separator = eventStream ? "\n\n" : "\n"
        var body = ""
        let served = state.pagesServed.withLock { n in
            defer { n += 1 }
            return n
        }
        if let message = behaviour.errorAfterFirstPage, served > 0 {
            body = #"{"error":{"code":8,"message":"\#(message)"}}"# + separator
        } else {
            for (index, message) in page.enumerated() {
                body += #"{"result":"# + message.json + "}" + separator
                if behaviour.brokenEvery > 0, (index + 1) % behaviour.brokenEvery == 0 {
                    body += #"{"result":{"end_device_ids":{"device_id":"#  + separator
                }
            }
        }
        var headers = ["Content-Type": eventStream ? "text/event-stream" : "application/json"]
        if behaviour.pagingByToken, offset + page.count < matching.count, body.hasPrefix(#"{"result""#) {
            let fields = "\(offset + page.count)|\(after.map { RFC3339.string($0, fractionDigits: 9) } ?? "")|\(before.map { RFC3339.string($0, fractionDigits: 9) } ?? "")|\(limit)"
            headers["X-Continuation-Token"] = Data(fields.utf8).base64EncodedString() + "+/"
        }
        return .status(200, body, headers: headers)
    }
}
