#if canImport(Glibc)
import Glibc
#endif

/// A strict JSON parser (RFC 8259) over bytes, for the hot path of decoding uplinks: one pass, no
/// Foundation, nesting limited so hostile input cannot exhaust the stack.
struct JSONParser {
    struct Malformed: Error {}

    static let maximumDepth = 64

    static func parse(_ source: [UInt8]) throws(Malformed) -> JSONValue {
        try source.withUnsafeBufferPointer { buffer throws(Malformed) in
            var parser = JSONParser(source: source, bytes: buffer)
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw Malformed() }
            return value
        }
    }

    /// The message, for the slices strings keep; scanning reads through `bytes`.
    private let source: [UInt8]
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(source: [UInt8], bytes: UnsafeBufferPointer<UInt8>) {
        self.source = source
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func expect(_ literal: StaticString) throws(Malformed) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Malformed() }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { throw Malformed() }
        index += count
    }

    private mutating func value(depth: Int) throws(Malformed) -> JSONValue {
        guard depth < Self.maximumDepth, let byte = current else { throw Malformed() }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws(Malformed) -> JSONValue {
        index += 1
        var members: [JSONMember] = []
        members.reserveCapacity(8)
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw Malformed() }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw Malformed() }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key: key, value: try value(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw Malformed()
            }
        }
    }

    private mutating func array(depth: Int) throws(Malformed) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw Malformed()
            }
        }
    }

    /// Checks a string and returns its span; the text is made only if a field is read.
    private mutating func string() throws(Malformed) -> JSONText {
        index += 1
        let start = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return JSONText(bytes: source[start..<index], escaped: escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                index += 1
                guard let escape = current else { throw Malformed() }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    let code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try expect("\\u")
                        guard (0xDC00..<0xE000).contains(try hex4()) else { throw Malformed() }
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw Malformed()
                    }
                default:
                    throw Malformed()
                }
            default:
                if byte < 0x20 { throw Malformed() }
                index += 1
            }
        }
        throw Malformed()
    }

    private mutating func hex4() throws(Malformed) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Malformed() }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Malformed()
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    private mutating func number() throws(Malformed) -> JSONValue {
        let start = index
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw Malformed() }
        var integer: Int64? = 0
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                if let value = integer {
                    let (times, o1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                    integer = o1 || o2 ? nil : sum
                }
                index += 1
            }
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        if isInteger, let value = integer {
            let signed = negative ? -value : value
            return .number(Double(signed), integer: signed)
        }
        // strtod on a NUL-terminated copy: no String for every coordinate and SNR.
        let length = index - start
        guard length < 64 else {
            guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) else { throw Malformed() }
            return .number(value, integer: nil)
        }
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text -> Double in
            for offset in 0..<length { text[offset] = CChar(bitPattern: bytes[start + offset]) }
            text[length] = 0
            return strtod(text.baseAddress!, nil)
        }
        return .number(value, integer: nil)
    }

    private mutating func digits() throws(Malformed) {
        guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw Malformed() }
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    }
}
