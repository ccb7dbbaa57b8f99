/// Rebuilds the node's log lines from its 20-byte notifications: one line may span several.
struct LogLineAssembler {
    private var partial: [UInt8] = []

    /// Lines completed by this chunk (without their newline).
    mutating func append(_ chunk: [UInt8]) -> [String] {
        partial += chunk
        var lines: [String] = []
        while let newline = partial.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            let line = partial[..<newline]
            partial.removeSubrange(...newline)
            if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
        }
        // A line that never ends must not grow without bound.
        if partial.count > 1024 {
            lines.append(String(decoding: partial, as: UTF8.self))
            partial = []
        }
        return lines
    }
}
