/// Lists in sentences: "a, b or c".
public enum ListText {
    public static func or(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.joined() }
        return items.dropLast().joined(separator: ", ") + " or " + last
    }
}
