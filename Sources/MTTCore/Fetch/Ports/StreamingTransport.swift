import FoundationEssentials

/// The head of an HTTP answer whose body was streamed.
public struct StreamedResponse: Sendable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    /// The body of an answer that was not a success (up to 64 KiB), for its message; empty for a
    /// success, whose body went to the consumer.
    public var errorBody: Data

    public init(status: Int, headers: [String: String], errorBody: Data = Data()) {
        self.status = status
        self.headers = headers
        self.errorBody = errorBody
    }
}

/// GETs a URL and hands a successful answer's body on as it arrives (`HTTPTransport` of MTTHTTP in
/// the field): a fetch of 100,000 stored uplinks never holds more than a read's worth of them.
public protocol StreamingTransport: Sendable {
    /// `body` gets each piece of a 2xx answer's body in order, on the transport's own thread, and
    /// returns false to stop reading (the connection is then closed). Throws `SyncTransportError`
    /// when no answer came or it broke off; a pause of `timeout` seconds without a byte is one.
    func get(_ url: URL, headers: [String: String], body: @escaping @Sendable (Data) -> Bool) async throws -> StreamedResponse
}
