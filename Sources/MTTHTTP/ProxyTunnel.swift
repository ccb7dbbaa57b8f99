import FoundationEssentials
import Glibc
import MTTCore

/// `CONNECT host:port` through an HTTP proxy: afterwards the TCP stream reaches the server itself,
/// and TLS runs end to end over it, so the proxy sees neither the requests nor the credentials.
enum ProxyTunnel {
    /// The most a proxy's answer to CONNECT may take; it has no body.
    static let largestHead = 16_384

    static func open(
        to server: HostPort, through tcp: TCPStream, proxy: ProxyConfiguration.Proxy, deadline: Date, timeout: Double
    ) throws(SyncTransportError) {
        var request = "CONNECT \(server) HTTP/1.1\r\nHost: \(server)\r\n"
        if let authorization = proxy.authorization { request += "Proxy-Authorization: \(authorization)\r\n" }
        try tcp.write(Data((request + "\r\n").utf8), deadline: deadline, timeout: timeout)
        // Byte by byte up to the blank line: what follows belongs to TLS, and nothing follows until
        // mtt speaks first, but a bigger read must not take any of it.
        var head: [UInt8] = []
        var byte = [UInt8](repeating: 0, count: 1)
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            guard try tcp.read(into: &byte, deadline: deadline, timeout: timeout) == 1 else {
                throw .connectionFailed("the proxy \(proxy.address) closed the connection instead of opening a tunnel to \(server)")
            }
            head.append(byte[0])
            guard head.count <= largestHead else { throw .connectionFailed("the proxy \(proxy.address) sent an answer too long to be one") }
        }
        let parsed = HTTPHead(String(decoding: head, as: UTF8.self))
        let statusLine = parsed.firstLine
        guard let (_, status) = parsed.status else {
            throw .connectionFailed("the proxy \(proxy.address) answered something that is not HTTP")
        }
        switch status {
        case 200..<300: return
        case 407:
            // Trying again cannot help: the proxy wants credentials mtt does not have.
            throw .untrusted("the proxy \(proxy.address) wants a user and password (HTTP 407): give them in https_proxy as http://USER:PASSWORD@HOST:PORT")
        case 403:
            throw .untrusted("the proxy \(proxy.address) does not let mtt through to \(server) (HTTP 403)")
        default:
            throw .connectionFailed("the proxy \(proxy.address) could not reach \(server): \(statusLine)")
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
