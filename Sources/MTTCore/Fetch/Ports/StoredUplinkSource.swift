/// Which stored uplinks to read: one device's or the whole application's, in a time window.
public struct StoredUplinkQuery: Sendable, Hashable {
    /// A TTS device ID; nil for every device of the application.
    public var device: String?
    public var after: Timestamp
    public var before: Timestamp

    public init(device: String?, after: Timestamp, before: Timestamp) {
        self.device = device
        self.after = after
        self.before = before
    }
}

/// One item of a stored-uplink stream.
public enum StoredUplinkItem: Sendable {
    case uplink(Uplink)
    /// A line that could not be read as an uplink: skipped, counted.
    case broken(reason: String)
    /// Valid, but not coverage (a console-simulated uplink) or not an uplink at all.
    case skipped
    /// The server asked to wait `asked` seconds (rate limit); the read goes on after `seconds`,
    /// which is less when the source caps what it waits at once.
    case waiting(seconds: Double, asked: Double)
}

/// Why a read of stored uplinks ended early.
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 401/403: the key is wrong or lacks a right; the text says which.
    case refused(String)
    /// 404: the Storage Integration is not active for the application.
    case notActivated(String)
    /// An `{"error": …}` object ended the stream, or another answer: the server's message.
    case server(String)
    /// No answer, or it broke off.
    case connection(String)

    public var description: String {
        switch self {
        case .refused(let text), .notActivated(let text), .server(let text), .connection(let text): text
        }
    }

    /// Trying another device or session cannot help (the key, the integration).
    public var endsTheFetch: Bool {
        switch self {
        case .refused, .notActivated, .connection: true
        case .server: false
        }
    }
}

/// The uplinks a network server kept while mtt was offline (The Things Stack's Storage Integration,
/// `TTSStorageReader` of MTTMQTT in the field).
public protocol StoredUplinkSource: Sendable {
    /// Reads every stored uplink of `query`, paging as the server says, and hands each item to
    /// `handle` in order, on the reader's own thread; `handle` returns false to stop.
    func read(_ query: StoredUplinkQuery, handle: @escaping @Sendable (StoredUplinkItem) -> Bool) async throws(FetchError)
}
