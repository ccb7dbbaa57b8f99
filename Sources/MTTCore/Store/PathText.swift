/// File paths as text, read as NSString's path methods read them (which FoundationEssentials,
/// the Foundation MTTCore uses, does not have).
enum PathText {
    /// The folder part: `/a/b/c.sqlite` → `/a/b`, `/c` → `/`, `c.sqlite` → `` (the current folder).
    static func folder(of path: String) -> String {
        let trimmed = trimmingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last part: `/a/b/c.sqlite` → `c.sqlite`.
    static func name(of path: String) -> String {
        let trimmed = trimmingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// An absolute path without `.`, `..` or doubled slashes.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func trimmingSlashes(_ path: String) -> String {
        var text = Substring(path)
        while text.count > 1 && text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
