/// Keys, EUIs and addresses as the TTN console shows them (MSB first hex), checked for length
/// before they reach a node.
public enum ConsoleKey {
    /// The names of values that are secrets: a wrong one is described, never shown.
    static let secrets: Set<String> = ["AppKey", "NwkKey", "AppSKey", "NwkSKey"]

    public static func bytes(_ text: String, bytes count: Int, _ what: String) throws(SpecError) -> [UInt8] {
        guard let value = Hex.bytes(text), value.count == count else {
            let shown = secrets.contains(what) ? Self.shape(of: text) : text
            throw SpecError("\(what) must be \(count * 2) hex digits, got \(shown)")
        }
        return value
    }

    /// What is wrong with a secret's text without any of it: `31 characters`, `32 characters, not all hex`.
    static func shape(of text: String) -> String {
        let hex = text.allSatisfy(\.isHexDigit)
        return "\(text.count) character\(text.count == 1 ? "" : "s")" + (hex ? "" : ", not all hex")
    }

    /// The same, as upper-case hex for a modem command.
    public static func hex(_ text: String, bytes count: Int, _ what: String) throws(SpecError) -> String {
        Hex.string(try bytes(text, bytes: count, what))
    }
}
