/// The Twitter-derived credentials the MapTheThings server checks on every upload.
public struct MapTheThingsCredentials: Sendable, Hashable {
    public var user: String
    public var token: String
    public var secret: String

    public init(user: String, token: String, secret: String) {
        self.user = user
        self.token = token
        self.secret = secret
    }

    /// Reads `user = …`, `token = …` and `secret = …` lines (`#` starts a comment).
    public init(parsing text: String) throws(CredentialsError) {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let equals = trimmed.firstIndex(of: "=") else { throw .malformedLine }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            values[key] = value
        }
        let missing = ["user", "token", "secret"].filter { (values[$0] ?? "").isEmpty }
        guard missing.isEmpty else { throw .missing(missing) }
        self.init(user: values["user"]!, token: values["token"]!, secret: values["secret"]!)
    }

    public enum CredentialsError: Error, Sendable, Hashable, CustomStringConvertible {
        case malformedLine
        case missing([String])

        public var description: String {
            switch self {
            case .malformedLine: "a line is not key = value (user, token, secret)"
            case .missing(let keys): "\(keys.joined(separator: ", ")) missing"
            }
        }
    }

    /// `Authorization: TwitterAuth username="…" token="…" token-secret="…" realm="api"`.
    var authorization: String {
        func quoted(_ value: String) -> String {
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "TwitterAuth username=\(quoted(user)) token=\(quoted(token)) token-secret=\(quoted(secret)) realm=\"api\""
    }
}
