/// Text placed in XML (GPX, KML, the HTML report), escaped in one place.
public enum XMLText {
    /// `&`, `<`, `>`, `"` and `'` as entities, so the text is safe in element content and in
    /// attribute values alike.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
