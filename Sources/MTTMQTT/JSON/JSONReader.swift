import MTTCore
#if canImport(Glibc)
import Glibc
#endif

/// A strict, single-pass JSON reader (RFC 8259) over a message's bytes for the hot path of decoding
/// uplinks: the caller walks the document, reads the fields it needs and skips the rest without
/// building them (TTN messages carry correlation ids, decoded payloads and more that mtt never
/// stores). Nesting is limited so hostile input cannot exhaust the stack.
struct JSONReader {
    /// Not JSON, or not the JSON the caller expects. Empty, so that throwing costs the hot path
    /// nothing (a 32-byte error carrying its words cost the listener 7 % of its speed); `explain`
    /// reads the document again to say what was wrong.
    struct Mismatch: Error {}

    static let maximumDepth = 64

    /// The message's bytes, valid for one `read`: scanning through a pointer rather than the array
    /// spares a retain and release for every key and string (see `JSONText`).
    private let source: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// What the value that failed should have been; nil for text that is not JSON. Set only on
    /// the way to a throw.
    private var expected: String?
    /// Where the failure was, innermost first: recorded while the error travels out.
    private var trail: [Step] = []

    private enum Step {
        case key(JSONText)
        case index(Int)
    }

    private init(_ source: UnsafeBufferPointer<UInt8>) {
        self.source = source
    }

    /// Reads a whole document with `body`, then checks that nothing but whitespace follows.
    @discardableResult
    static func read<T>(_ source: [UInt8], _ body: (inout JSONReader) throws(Mismatch) -> T) throws(Mismatch) -> T {
        try source.withUnsafeBufferPointer { buffer throws(Mismatch) in
            var reader = JSONReader(buffer)
            reader.skipWhitespace()
            let value = try body(&reader)
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw Mismatch() }
            return value
        }
    }

    /// Why `read` with `body` failed, in words a log line can carry: "not JSON" when the text is
    /// broken anywhere (as a parser that reads the whole document first would say), else the
    /// field's path and what it should have been ("uplink_message.f_cnt is not an integer").
    static func explain<T>(_ source: [UInt8], _ body: (inout JSONReader) throws(Mismatch) -> T) -> String {
        guard (try? read(source, { r throws(Mismatch) in try r.skip() })) != nil else { return "not JSON" }
        return source.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            reader.skipWhitespace()
            do throws(Mismatch) {
                _ = try body(&reader)
                return "not what was expected"
            } catch {
                guard let expected = reader.expected else { return "not JSON" }
                var path = ""
                for step in reader.trail.reversed() {
                    switch step {
                    case .key(let key): path += (path.isEmpty ? "" : ".") + (key.string ?? "?")
                    case .index(let position): path += "[\(position)]"
                    }
                }
                return path.isEmpty ? "the message is not \(expected)" : "\(path) is not \(expected)"
            }
        }
    }

    /// Notes what the value should have been, for `explain`; the caller throws.
    mutating func mismatch(_ what: String) -> Mismatch {
        expected = what
        return Mismatch()
    }

    // MARK: Values

    /// Calls `member` with each key of an object; `member` must read or skip the value.
    /// A null instead of the object reads as absent (Codable's `decodeIfPresent`).
    /// Returns false for null.
    @discardableResult
    mutating func object(_ member: (JSONText, inout JSONReader) throws(Mismatch) -> Void) throws(Mismatch) -> Bool {
        if try null() { return false }
        guard current == UInt8(ascii: "{") else { throw mismatch("an object") }
        try enter()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return true
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw Mismatch() }
            let key = try scanString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw Mismatch() }
            index += 1
            skipWhitespace()
            let before = index
            do throws(Mismatch) {
                try member(key, &self)
            } catch {
                trail.append(.key(key))
                throw error
            }
            // A member the caller did not read is skipped here.
            if index == before { try skip() }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return true
            default: throw Mismatch()
            }
        }
    }

    /// Calls `element` for each element of an array; null reads as absent (returns false).
    @discardableResult
    mutating func array(_ element: (inout JSONReader) throws(Mismatch) -> Void) throws(Mismatch) -> Bool {
        if try null() { return false }
        guard current == UInt8(ascii: "[") else { throw mismatch("an array") }
        try enter()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return true
        }
        var position = 0
        while true {
            skipWhitespace()
            let before = index
            do throws(Mismatch) {
                try element(&self)
            } catch {
                trail.append(.index(position))
                throw error
            }
            position += 1
            if index == before { try skip() }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return true
            default: throw Mismatch()
            }
        }
    }

    mutating func string() throws(Mismatch) -> String? {
        try text { text throws(Mismatch) in
            // Codable's reading too: text that is not UTF-8 makes the message not JSON.
            guard let string = text.string else { throw Mismatch() }
            return string
        }
    }

    /// A string value read where it stands, for text that becomes something else (a time): nil for null.
    mutating func text<T>(_ read: (JSONText) throws(Mismatch) -> T) throws(Mismatch) -> T? {
        if try null() { return nil }
        guard current == UInt8(ascii: "\"") else { throw mismatch("a string") }
        return try read(try scanString())
    }

    mutating func bool() throws(Mismatch) -> Bool? {
        if try null() { return nil }
        if current == UInt8(ascii: "t") {
            try expect("true")
            return true
        }
        guard current == UInt8(ascii: "f") else { throw mismatch("true or false") }
        try expect("false")
        return false
    }

    mutating func double() throws(Mismatch) -> Double? {
        if try null() { return nil }
        guard atNumber else { throw mismatch("a number") }
        return try number().value
    }

    /// An integer field: a number with an integer value that fits `T`.
    mutating func integer<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(Mismatch) -> T? {
        if try null() { return nil }
        guard atNumber else { throw mismatch("an integer") }
        let number = try number()
        // 125000.0 and 1.25e5 are integers too, as JSONDecoder reads them (the fuzzer found the difference).
        guard number.integer != nil || number.value.rounded(.towardZero) == number.value else {
            throw mismatch("an integer")
        }
        guard let exact = number.integer.flatMap({ T(exactly: $0) }) ?? T(exactly: number.value) else {
            throw mismatch("an integer from \(T.min) to \(T.max)")
        }
        return exact
    }

    /// Any value, built whole: for the part of a message whose shape its sender chooses (a decoded
    /// payload). A key given twice keeps its last value, as JSONDecoder keeps it.
    mutating func value() throws(Mismatch) -> JSONValue {
        switch current {
        case UInt8(ascii: "{"):
            var members: [String: JSONValue] = [:]
            _ = try object { key, r throws(Mismatch) in
                guard let name = key.string else { throw Mismatch() }
                members[name] = try r.value()
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            _ = try array { r throws(Mismatch) in elements.append(try r.value()) }
            return .array(elements)
        case UInt8(ascii: "\""):
            return try string().map(JSONValue.string) ?? .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return try bool().map(JSONValue.bool) ?? .null
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default:
            return .number(try number().value)
        }
    }

    /// Skips any value, checking its syntax, and returns where it lay in the source: for a value
    /// that is handed on whole (the message inside a stored uplink's `{"result": …}`).
    mutating func skippedRange() throws(Mismatch) -> Range<Int> {
        skipWhitespace()
        let start = index
        try skip()
        return start..<index
    }

    /// Skips any value, checking its syntax.
    mutating func skip() throws(Mismatch) {
        switch current {
        case UInt8(ascii: "{"): try object { _, _ throws(Mismatch) in }
        case UInt8(ascii: "["): try array { _ throws(Mismatch) in }
        case UInt8(ascii: "\""): _ = try scanString()
        case UInt8(ascii: "t"): try expect("true")
        case UInt8(ascii: "f"): try expect("false")
        case UInt8(ascii: "n"): try expect("null")
        default: _ = try number()
        }
    }

    // MARK: Scanning

    private var current: UInt8? {
        // Read for nearly every byte: left to itself the optimizer made this a call.
        @inline(__always) get { index < source.count ? source[index] : nil }
    }

    /// A number starts here (whether it is a well-formed one, `number` says).
    private var atNumber: Bool {
        current == UInt8(ascii: "-") || current?.isDigit == true
    }

    private mutating func enter() throws(Mismatch) {
        depth += 1
        guard depth < Self.maximumDepth else { throw Mismatch() }
    }

    private mutating func null() throws(Mismatch) -> Bool {
        guard current == UInt8(ascii: "n") else { return false }
        try expect("null")
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: StaticString) throws(Mismatch) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= source.count else { throw Mismatch() }
        for offset in 0..<count where source[index + offset] != literal.utf8Start[offset] { throw Mismatch() }
        index += count
    }

    /// Checks a string and returns its span; the text is made only if the caller wants it.
    private mutating func scanString() throws(Mismatch) -> JSONText {
        index += 1
        let start = index
        var escaped = false
        // Plain text runs to the quote eight bytes at a time, then byte by byte; escapes and control
        // bytes go the long way.
        index = Self.plainText(in: source, from: index)
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return JSONText(bytes: UnsafeBufferPointer(rebasing: source[start..<index]), escaped: escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                index += 1
                guard let escape = current else { throw Mismatch() }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    let code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try expect("\\u")
                        guard (0xDC00..<0xE000).contains(try hex4()) else { throw Mismatch() }
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw Mismatch()
                    }
                default:
                    throw Mismatch()
                }
            default:
                if byte < 0x20 { throw Mismatch() }
                index += 1
            }
        }
        throw Mismatch()
    }

    /// Where the plain text that starts at `start` ends: the first quote, backslash or control
    /// byte, or the end of the source. Strings are most of a TTN message, and a byte-at-a-time
    /// loop was its largest single cost.
    @inline(__always)
    private static func plainText(in source: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = source.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= source.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                // The high bit of a byte is set where the byte is a quote, a backslash, or below
                // 0x20. A borrow can only flag bytes above a flagged one, so the lowest flag is exact.
                let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
                let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
                let special = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word) & highs
                if special != 0 { return index + special.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < source.count, source[index] >= 0x20, source[index] != UInt8(ascii: "\""), source[index] != UInt8(ascii: "\\") {
            index += 1
        }
        return index
    }

    private mutating func hex4() throws(Mismatch) -> UInt32 {
        guard index + 4 <= source.count else { throw Mismatch() }
        for offset in 0..<4 where !source[index + offset].isHexDigit { throw Mismatch() }
        defer { index += 4 }
        return JSONText.hex4(source, at: index)
    }

    private mutating func number() throws(Mismatch) -> (value: Double, integer: Int64?) {
        let start = index
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard let first = current, first.isDigit else { throw Mismatch() }
        var integer: Int64? = 0
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = current, byte.isDigit {
                if let value = integer {
                    let (times, o1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                    integer = o1 || o2 ? nil : sum
                }
                index += 1
            }
        }
        var isInteger = true
        var fraction = index..<index
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fractionStart = index
            try digits()
            fraction = fractionStart..<index
        }
        var hasExponent = false
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            hasExponent = true
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        if isInteger, let value = integer {
            let signed = negative ? -value : value
            // -0 is a double of its own (the fuzzer found JSONDecoder keeping its sign).
            return (negative && value == 0 ? -0.0 : Double(signed), signed)
        }
        if !hasExponent, let whole = integer, let value = Self.exactDecimal(whole: whole, fraction: source[fraction]) {
            return (negative ? -value : value, nil)
        }
        // strtod on a NUL-terminated copy: no String for every coordinate and SNR.
        let length = index - start
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text -> Double in
            for offset in 0..<length { text[offset] = CChar(bitPattern: source[start + offset]) }
            text[length] = 0
            return strtod(text.baseAddress!, nil)
        }
        return (value, nil)
    }

    /// `whole.fraction` when one division gives it exactly rounded: with all its digits below 2^53
    /// and at most 22 after the point, both operands are exact doubles and IEEE division rounds
    /// once (Clinger's fast path, which strtod takes too). Every SNR, RSSI and coordinate TTN sends
    /// qualifies; nil sends the rest to strtod.
    private static func exactDecimal(whole: Int64, fraction: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        guard fraction.count <= 22 else { return nil }
        var digits = whole
        for byte in fraction {
            let (times, o1) = digits.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !o1 && !o2 else { return nil }
            digits = sum
        }
        guard digits < 1 << 53 else { return nil }
        var scale = 1.0
        for _ in 0..<fraction.count { scale *= 10 }
        return Double(digits) / scale
    }

    private mutating func digits() throws(Mismatch) {
        guard let byte = current, byte.isDigit else { throw Mismatch() }
        while let byte = current, byte.isDigit { index += 1 }
    }
}

private extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
