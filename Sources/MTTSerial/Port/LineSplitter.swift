/// Cuts a serial byte stream into lines at LF (dropping a CR before it). A device that sends no
/// newline at all (the wrong baud rate, a dead modem) cannot make a line grow without end: past
/// `maximumLength` bytes the line is thrown away and counted.
public struct LineSplitter: Sendable {
    public static let maximumLength = 4_096

    private var pending: [UInt8] = []
    private var discarding = false
    /// Lines thrown away for being too long.
    public private(set) var overlong = 0

    public init() {}

    /// The complete, non-empty lines in what has arrived so far.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for byte in bytes {
            if byte == 0x0A {
                if !discarding {
                    if pending.last == 0x0D { pending.removeLast() }
                    if !pending.isEmpty { lines.append(pending) }
                }
                pending.removeAll(keepingCapacity: true)
                discarding = false
            } else if !discarding {
                pending.append(byte)
                if pending.count > Self.maximumLength {
                    pending.removeAll()
                    discarding = true
                    overlong += 1
                }
            }
        }
        return lines
    }

    /// A line's text when every byte is printable ASCII; nil for noise.
    public static func text(of line: [UInt8]) -> String? {
        guard !line.isEmpty, line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: line, as: UTF8.self)
    }
}
