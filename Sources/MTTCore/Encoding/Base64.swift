/// Standard base64 (RFC 4648, padded), the encoding of TTN's `frm_payload`. Decoding here avoids a
/// trip through Foundation's Data for a few bytes per uplink.
public enum Base64 {
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// The bytes, or nil when the text is not padded standard base64. Like Foundation, leftover bits
    /// in the last character are ignored.
    public static func decode(_ text: String) -> [UInt8]? {
        // A listener decodes one payload per uplink: read the string's own bytes, not a copy.
        text.withUTF8Bytes { decode($0) }
    }

    private static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard input.count % 4 == 0 else { return nil }
        return values.withUnsafeBufferPointer { values -> [UInt8]? in
            var out: [UInt8] = []
            out.reserveCapacity(input.count / 4 * 3)
            var index = 0
            while index < input.count {
                let a = values[Int(input[index])], b = values[Int(input[index + 1])]
                guard a != 0xFF, b != 0xFF else { return nil }
                out.append(a << 2 | b >> 4)
                let last = index + 4 == input.count
                if last && input[index + 2] == UInt8(ascii: "=") {
                    guard input[index + 3] == UInt8(ascii: "=") else { return nil }
                    return out
                }
                let c = values[Int(input[index + 2])]
                guard c != 0xFF else { return nil }
                out.append(b << 4 | c >> 2)
                if last && input[index + 3] == UInt8(ascii: "=") {
                    return out
                }
                let d = values[Int(input[index + 3])]
                guard d != 0xFF else { return nil }
                out.append(c << 6 | d)
                index += 4
            }
            return out
        }
    }
}
