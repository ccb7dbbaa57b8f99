/// JSON text written by hand where an encoder per record would cost more than the record (a
/// GeoJSON stream of a million samples).
public enum JSONString {
    /// `text` as a JSON string, quoted, with quotes, backslashes, control characters and `<`
    /// escaped.
    public static func quoted(_ text: some StringProtocol) -> String {
        // IDs, times and the like need no escape: most strings of a GeoJSON stream.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "<") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // So the text can stand inside an HTML <script> (a report) without ending it.
            case "<": out += "\\u003c"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Encoded JSON that can stand inside an HTML `<script>` block (a report's data): `<` only
    /// occurs inside its strings, where `\u003c` reads the same, so neither `</script>` nor `<!--`
    /// can change how the block is parsed. What `quoted` does for one string, for a whole text.
    public static func scriptSafe(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// A number, or `null`; never `nan` or `inf`, which JSON does not have.
    public static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return value.plainText
    }

    public static func string(_ value: String?) -> String {
        guard let value else { return "null" }
        return quoted(value)
    }
}
