import FoundationEssentials
import MTTCore

/// A hook that POSTs each event: its JSON, or with `text` its one-line summary (what a phone
/// notification shows; ntfy-style topic URLs take either). `Title` names the event's type and
/// `Click` carries its link into the map, headers ntfy reads and other servers ignore. Any answer
/// but 2xx is a failure.
public struct WebhookHook: HookDelivery {
    public let url: URL
    public let text: Bool
    private let transport: HTTPTransport

    public init(url: URL, text: Bool, timeout: Double, proxies: ProxyConfiguration = .direct) {
        self.url = url
        self.text = text
        transport = HTTPTransport(timeout: timeout, connections: 1, proxies: proxies)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public func deliver(_ event: FieldEvent) async throws {
        var headers = ["Title": "mtt: \(event.type.rawValue.replacingOccurrences(of: "_", with: " "))"]
        headers["Content-Type"] = text ? "text/plain; charset=utf-8" : "application/json"
        if let link = event.url { headers["Click"] = link }
        let body = text ? Data(event.summary.utf8) : Data(event.json())
        let answer = try await transport.post(url, body: body, headers: headers)
        guard (200..<300).contains(answer.status) else {
            let said = String(decoding: answer.body.prefix(200), as: UTF8.self).split(separator: "\n").first.map { ": " + $0 } ?? ""
            throw Failure(description: "HTTP \(answer.status)\(said)")
        }
    }
}
