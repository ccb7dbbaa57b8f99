import FoundationEssentials

/// An HTTP target's answer.
public struct HTTPSyncResponse: Sendable {
    public var status: Int
    public var body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }

    /// The body as one line of text for a message, cut short.
    public var bodyLine: String {
        let text = String(decoding: body.prefix(300), as: UTF8.self)
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty ? "HTTP \(status)" : text
    }
}
