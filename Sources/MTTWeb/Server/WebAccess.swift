import FoundationEssentials
import Glibc
import MTTCore

/// Who may read the map: anyone on this machine when the server listens on loopback; elsewhere
/// (the Pi's Wi-Fi, for a phone) only who has the token, as a Bearer header or `?token=`.
public struct WebAccess: Sendable {
    /// Nil on loopback.
    public let token: String?

    public init(token: String?) {
        self.token = token
    }

    /// Whether `host` is this machine only (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// 24 random bytes, URL-safe: printed once as the link to open on the phone.
    public static func generateToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether a request with this Authorization header and `token` query item may read.
    func allows(authorization: String?, queryToken: String?) -> Bool {
        guard let token else { return true }
        let offered = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? queryToken
        guard let offered else { return false }
        // Compared in full whatever the first difference, so timing tells nothing.
        let a = Array(offered.utf8), b = Array(token.utf8)
        var difference = a.count ^ b.count
        for i in 0..<min(a.count, b.count) { difference |= Int(a[i] ^ b[i]) }
        return difference == 0
    }
}
