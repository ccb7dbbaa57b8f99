import Foundation
import MTTCore

/// One HTTP/1.1 connection that can carry many requests in turn (keep-alive), over plain TCP or
/// TLS. Used by one request at a time, which the transport's pool ensures.
final class HTTPConnection: @unchecked Sendable {
    struct Response {
        var status: Int
        var body: Data
        /// The server will take another request on this connection.
        var keepAlive: Bool
    }

    /// The most one answer may take, head and body. The servers answer with a few hundred
    /// bytes of JSON (an error page from a proxy with a few KB); without a bound, a server that
    /// streams without end would fill the memory of the Raspberry Pi mtt runs on.
    static let largestAnswer = 1 << 20

    private let stream: any ByteStream
    private var buffer = Data()
    private var chunk = [UInt8](repeating: 0, count: 16384)
    private var answerBytes = 0

    init(over stream: any ByteStream) {
        self.stream = stream
    }

    var endpoint: String { stream.endpoint }

    /// True when the server has closed the idle connection (or sent something unasked).
    var isStale: Bool {
        !buffer.isEmpty || stream.isStale
    }

    /// Sends one request and reads its response.
    func exchange(_ request: Data, deadline: Date, timeout: Double) throws(SyncTransportError) -> Response {
        try stream.write(request, deadline: deadline, timeout: timeout)
        answerBytes = buffer.count
        let head = try read(upTo: "\r\n\r\n", deadline: deadline, timeout: timeout, whenClosed: "without an answer")
        let lines = head.components(separatedBy: "\r\n")
        guard let (version, status) = Self.statusLine(lines[0]) else {
            throw .connectionFailed("\(endpoint) answered something that is not HTTP")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let connectionHeader = headers["connection"]?.lowercased() ?? ""
        var keepAlive = version == "HTTP/1.1" ? connectionHeader != "close" : connectionHeader == "keep-alive"
        let body: Data
        if status == 204 || status == 304 || (100..<200).contains(status) {
            body = Data()
        } else if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try readChunked(deadline: deadline, timeout: timeout)
        } else if let lengthText = headers["content-length"] {
            guard let length = Int(lengthText), length >= 0 else { throw .connectionFailed("\(endpoint) sent a bad Content-Length") }
            body = try read(count: length, deadline: deadline, timeout: timeout)
        } else {
            body = try readToEnd(deadline: deadline, timeout: timeout)
            keepAlive = false
        }
        return Response(status: status, body: body, keepAlive: keepAlive)
    }

    /// `HTTP/1.1 200 OK` → ("HTTP/1.1", 200); nil for a line that is no HTTP/1.x status line.
    static func statusLine(_ line: String) -> (version: Substring, status: Int)? {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else { return nil }
        return (parts[0], status)
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    private func fill(deadline: Date, timeout: Double) throws(SyncTransportError) -> Bool {
        let n = try stream.read(into: &chunk, deadline: deadline, timeout: timeout)
        answerBytes += n
        guard answerBytes <= Self.largestAnswer else {
            throw .connectionFailed("\(endpoint) sent an answer larger than \(Self.largestAnswer >> 20) MiB")
        }
        buffer.append(contentsOf: chunk[0..<n])
        return n > 0
    }

    /// The text up to `separator` (which is consumed); `whenClosed` says where the server hung up.
    private func read(
        upTo separator: String, deadline: Date, timeout: Double, whenClosed: String
    ) throws(SyncTransportError) -> String {
        let separator = Data(separator.utf8)
        while true {
            if let end = buffer.range(of: separator) {
                let text = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex..<end.upperBound)
                return text
            }
            guard try fill(deadline: deadline, timeout: timeout) else {
                throw .connectionFailed("\(endpoint) dropped the connection \(whenClosed)")
            }
        }
    }

    private func read(count: Int, deadline: Date, timeout: Double) throws(SyncTransportError) -> Data {
        while buffer.count < count {
            guard try fill(deadline: deadline, timeout: timeout) else {
                throw .connectionFailed("\(endpoint) dropped the connection in the middle of an answer")
            }
        }
        let data = Data(buffer.prefix(count))
        buffer.removeFirst(count)
        return data
    }

    private func readLine(deadline: Date, timeout: Double) throws(SyncTransportError) -> String {
        try read(upTo: "\r\n", deadline: deadline, timeout: timeout, whenClosed: "in the middle of an answer")
    }

    private func readChunked(deadline: Date, timeout: Double) throws(SyncTransportError) -> Data {
        var body = Data()
        while true {
            let sizeText = try readLine(deadline: deadline, timeout: timeout).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw .connectionFailed("\(endpoint) sent a bad chunk")
            }
            if size == 0 {
                // Trailers, then the empty line.
                while !(try readLine(deadline: deadline, timeout: timeout)).isEmpty {}
                return body
            }
            body += try read(count: size, deadline: deadline, timeout: timeout)
            // The chunk's data ends exactly at its line end; anything else means the size was
            // wrong and part of the body would be lost.
            guard try readLine(deadline: deadline, timeout: timeout).isEmpty else {
                throw .connectionFailed("\(endpoint) sent a bad chunk")
            }
        }
    }

    private func readToEnd(deadline: Date, timeout: Double) throws(SyncTransportError) -> Data {
        while try fill(deadline: deadline, timeout: timeout) {}
        defer { buffer.removeAll() }
        return buffer
    }
}
