import Foundation
import Glibc

/// A client that sends exactly the bytes a test gives and reads the whole answer: for what a
/// browser would never send (`..` in a path, a huge header, a body where none belongs).
public enum PlainHTTP {
    public struct Answer: Sendable {
        public var status: Int
        /// Names in lower case.
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// `GET path` (with the extra header lines given) on 127.0.0.1:`port`.
    public static func get(port: Int, _ path: String, headers: [String] = []) async throws -> Answer {
        try await send(port: port, Array((["GET \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers + ["Connection: close", "", ""]).joined(separator: "\r\n").utf8))
    }

    /// Off the cooperative pool: the reads block until the server answers, and a server in this
    /// process (MTTWebTests) answers from that pool.
    public static func send(port: Int, _ request: [UInt8]) async throws -> Answer {
        try await offThePool { try sendBlocking(port: port, request) }
    }

    private static func sendBlocking(port: Int, _ request: [UInt8]) throws -> Answer {
        guard let fd = LoopbackPort.connect(port: port) else { throw BrowserError(reason: "nothing listens on \(port)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var offset = 0
        while offset < request.count {
            let n = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, request.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        var answer = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            answer.append(contentsOf: chunk[0..<n])
        }
        guard let end = answer.range(of: Data("\r\n\r\n".utf8)) else { throw BrowserError(reason: "no HTTP answer: \(String(decoding: answer.prefix(100), as: UTF8.self))") }
        let lines = String(decoding: answer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(answer[end.upperBound...])
        if headers["transfer-encoding"]?.contains("chunked") == true { body = dechunk(body) }
        return Answer(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var out = Data()
        var rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            if size == 0 { break }
            let start = lineEnd.upperBound
            let end = rest.index(start, offsetBy: size, limitedBy: rest.endIndex) ?? rest.endIndex
            out.append(rest[start..<end])
            rest = rest[(rest.index(end, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex)...]
        }
        return out
    }
}
