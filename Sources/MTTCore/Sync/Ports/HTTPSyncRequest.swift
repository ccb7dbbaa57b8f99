import FoundationEssentials

/// What an HTTP target asks its transport to do: one POST of a JSON body.
public struct HTTPSyncRequest: Sendable {
    public var url: URL
    public var body: Data
    /// Extra headers; the Authorization header lives here and is never printed.
    public var headers: [String: String]

    public init(url: URL, body: Data, headers: [String: String] = [:]) {
        self.url = url
        self.body = body
        self.headers = headers
    }
}
