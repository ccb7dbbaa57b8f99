/// Hex text for EUIs, addresses and keys as the TTN console shows them (upper case, no separators).
public enum Hex {
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes from hex text; spaces, colons and dashes between pairs are allowed.
    /// Nil for an odd number of digits or anything that is not a hex digit.
    public static func bytes(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var high: UInt8?
        for c in text.utf8 {
            if c == UInt8(ascii: " ") || c == UInt8(ascii: ":") || c == UInt8(ascii: "-") {
                if high != nil { return nil }
                continue
            }
            guard let nibble = nibble(c) else { return nil }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
