import FoundationEssentials
import Glibc

/// The elements of a JSON array in a file, read a piece at a time: a data set of hundreds of
/// megabytes is never held whole (read at once, a 171 MB walk test took 1.27 GB). Each element's
/// bytes are cut out by tracking strings and nesting, then decoded on their own. With
/// `valuesAlso`, a file of objects one after another (JSON lines, or one object alone) is read too,
/// an object at a time: how message loggers and `mosquitto_sub` write.
struct JSONArrayStream {
    struct Malformed: Error {}
    /// An element longer than `largestElement` bytes: read no further (a 1 GiB string would be
    /// held whole, then refused by SQLite with a misleading reason).
    struct TooLarge: Error {}

    /// Far more than any sample of a data set (a few hundred bytes).
    static let largestElement = 1 << 20

    private let file: ReadOnlyFile
    private var buffer: [UInt8] = []
    private var position = 0
    private var finished = false
    private var started = false
    private let valuesAlso: Bool
    /// Reading objects one after another rather than an array's elements.
    private var values = false

    init(path: String, valuesAlso: Bool = false) throws {
        guard let file = ReadOnlyFile(path: path) else { throw CocoaError(.fileReadNoSuchFile) }
        self.file = file
        self.valuesAlso = valuesAlso
    }

    /// The next element's bytes; nil after the closing bracket (or the last object). Throws for
    /// anything that is not an array of values (or objects one after another).
    mutating func next() throws -> [UInt8]? {
        if !started {
            started = true
            if valuesAlso, try peekSignificant() == UInt8(ascii: "{") {
                values = true
            } else {
                guard let open = try nextSignificant(), open == UInt8(ascii: "[") else { throw Malformed() }
                if try peekSignificant() == UInt8(ascii: "]") {
                    position += 1
                    finished = true
                    return nil
                }
            }
        } else if values {
            switch try peekSignificant() {
            case nil: return nil
            case UInt8(ascii: "{"): break
            default: throw Malformed()
            }
        } else if finished {
            return nil
        } else {
            switch try nextSignificant() {
            case UInt8(ascii: ","): break
            case UInt8(ascii: "]"):
                finished = true
                return nil
            default: throw Malformed()
            }
        }
        guard try peekSignificant() != nil else { throw Malformed() }
        var element: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        while true {
            guard let byte = try peek() else {
                if depth == 0 && !inString && !element.isEmpty { return element }
                throw Malformed()
            }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth == 0 { return element }
                    depth -= 1
                    if depth == 0 && values {
                        element.append(byte)
                        position += 1
                        return element
                    }
                case UInt8(ascii: ","):
                    if depth == 0 { return element }
                default: break
                }
            }
            element.append(byte)
            position += 1
            if element.count > Self.largestElement { throw TooLarge() }
        }
    }

    private mutating func peek() throws -> UInt8? {
        if position == buffer.count {
            buffer = try file.read(upTo: 1 << 16)
            position = 0
            if buffer.isEmpty { return nil }
        }
        return buffer[position]
    }

    private mutating func peekSignificant() throws -> UInt8? {
        while let byte = try peek() {
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return byte }
            position += 1
        }
        return nil
    }

    private mutating func nextSignificant() throws -> UInt8? {
        let byte = try peekSignificant()
        if byte != nil { position += 1 }
        return byte
    }
}
