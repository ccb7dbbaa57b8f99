/// One export format: reads the records a filter selects and writes them as text. A new format
/// (the HTML report, say) is a new writer, not a new case in a switch.
public protocol ExportWriter: Sendable {
    /// Writes every record that `filter` selects from `store` to `sink`; returns how many.
    func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws -> Int
    /// Whether the format is a file of its own (a database) that cannot go to a stream: it needs
    /// a file name (`TextSink.unfinishedPath`).
    var needsFile: Bool { get }
}

extension ExportWriter {
    public var needsFile: Bool { false }
}

public enum Exporter {
    /// Writes every record that `filter` selects from `store` to `sink` in `format`, flushed;
    /// returns how many.
    @discardableResult
    public static func export(_ store: Store, as format: ExportFormat, filter: ExportFilter = ExportFilter(), to sink: TextSink) throws -> Int {
        let count = try format.writer.write(store, filter: filter, to: sink)
        try sink.flush()
        return count
    }
}
