/// Keys, EUIs and addresses as the TTN console shows them (MSB first hex), checked for length
/// before they reach a node.
public enum ConsoleKey {
    public static func bytes(_ text: String, bytes count: Int, _ what: String) throws(SpecError) -> [UInt8] {
        guard let value = Hex.bytes(text), value.count == count else {
            throw SpecError("\(what) must be \(count * 2) hex digits, got \(text)")
        }
        return value
    }

    /// The same, as upper-case hex for a modem command.
    public static func hex(_ text: String, bytes count: Int, _ what: String) throws(SpecError) -> String {
        Hex.string(try bytes(text, bytes: count, what))
    }
}
