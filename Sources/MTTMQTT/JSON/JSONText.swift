#if canImport(Glibc)
import Glibc
#endif

/// The bytes between a string's quotes, as they stand in the message. They point into the
/// message and are valid only inside the `JSONReader.read` that found them: take `string` to keep
/// the text.
struct JSONText {
    let bytes: UnsafeBufferPointer<UInt8>
    /// It holds backslash escapes, so its bytes are not its text.
    let escaped: Bool

    /// Whether this is the key `key` (a literal): compares bytes, makes no String.
    @inline(__always)
    func matches(_ key: StaticString) -> Bool {
        // Keys are short and most differ in length: comparing bytes here beats calling memcmp.
        guard !escaped else { return equals(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)) }
        guard bytes.count == key.utf8CodeUnitCount else { return false }
        for offset in 0..<bytes.count where bytes[offset] != key.utf8Start[offset] { return false }
        return true
    }

    func equals(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        if escaped { return string.map { $0.utf8.elementsEqual(other) } ?? false }
        guard bytes.count == other.count else { return false }
        guard let a = bytes.baseAddress, let b = other.baseAddress else { return bytes.count == 0 }
        return memcmp(a, b, bytes.count) == 0
    }

    /// The text, or nil when it is not valid UTF-8.
    var string: String? {
        guard escaped else { return Self.text(bytes) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            i += 1
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            let escape = bytes[i]
            i += 1
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = Self.hex4(bytes, at: i)
                i += 4
                if (0xD800..<0xDC00).contains(code) {
                    let low = Self.hex4(bytes, at: i + 2)
                    i += 6
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default: out.append(escape)
            }
        }
        return out.withUnsafeBufferPointer(Self.text)
    }

    /// The bytes as text, or nil when they are not valid UTF-8. Almost every string in a TTN message
    /// is ASCII, which is valid as it stands; `String(validating:)` is generic and looked up its
    /// type metadata on each call, 8 % of a listener's CPU in a burst.
    private static func text(_ buffer: UnsafeBufferPointer<UInt8>) -> String? {
        if buffer.allSatisfy({ $0 < 0x80 }) { return String(decoding: buffer, as: UTF8.self) }
        return String(validating: buffer, as: UTF8.self)
    }

    /// Four hex digits the parser has already checked.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        var code: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: byte - UInt8(ascii: "A") + 10
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }
}
