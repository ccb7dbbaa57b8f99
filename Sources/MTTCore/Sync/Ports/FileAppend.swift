import FoundationEssentials

/// What the file target asks its transport to do: append these bytes (whole lines) to a file and
/// make them durable before answering.
public struct FileAppend: Sendable {
    public var path: String
    public var bytes: Data

    public init(path: String, bytes: Data) {
        self.path = path
        self.bytes = bytes
    }
}
