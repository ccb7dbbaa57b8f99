import Glibc

/// This machine's IPv4 addresses other than loopback: where a phone on the same Wi-Fi reaches a
/// map served on 0.0.0.0.
public enum NetworkAddresses {
    public static func ofThisMachine() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return ["127.0.0.1"] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        var entry = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.hasPrefix("127.") { found.append(text) }
        }
        return found.isEmpty ? ["127.0.0.1"] : found
    }

    /// Whether `host` names an address at all (a literal, or a name the resolver knows): a listen
    /// address that does not would only fail when the map starts.
    public static func resolves(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return false }
        freeaddrinfo(list)
        return true
    }
}
