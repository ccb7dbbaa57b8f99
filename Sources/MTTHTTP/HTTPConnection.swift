import FoundationEssentials
import Glibc
import MTTCore

/// One HTTP/1.1 connection that can carry many requests in turn (keep-alive), over plain TCP or
/// TLS. Used by one request at a time, which the transport's pool ensures.
final class HTTPConnection: @unchecked Sendable {
    struct Response {
        var status: Int
        /// Names in lower case.
        var headers: [String: String] = [:]
        /// Empty when the body was streamed.
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
    /// Where a streamed body goes; nil while a body is collected (bounded by `largestAnswer`).
    private var sink: ((Data) -> Bool)?
    private var sinkStopped = false

    init(over stream: any ByteStream) {
        self.stream = stream
    }

    var endpoint: String { stream.endpoint }

    /// Ends the connection under the request using it (a stop request).
    func shutdown() {
        stream.shutdown()
    }

    /// True when the server has closed the idle connection (or sent something unasked).
    var isStale: Bool {
        !buffer.isEmpty || stream.isStale
    }

    /// Sends one request and reads its response by `deadline`. With `sink`, a 2xx answer's body
    /// goes to it piece by piece, unbounded in size; `sink` returns false to stop reading (the
    /// connection is then not reused).
    func exchange(
        _ request: Data, deadline: Date, timeout: Double, streamingTo sink: ((Data) -> Bool)? = nil
    ) throws(SyncTransportError) -> Response {
        try stream.write(request, deadline: deadline, timeout: timeout)
        answerBytes = buffer.count
        self.sink = nil
        sinkStopped = false
        let head = try read(upTo: "\r\n\r\n", deadline: deadline, timeout: timeout, whenClosed: "without an answer")
        let parsed = HTTPHead(head)
        guard let (version, status) = parsed.status else {
            // What came, shortened: a wrong port shows itself ("SSH-2.0-OpenSSH_9.2").
            let start = String(head.prefix(40)).debugDescription
            throw .connectionFailed("\(endpoint) answered something that is not HTTP: \(start)")
        }
        let headers = parsed.fields
        let connectionHeader = headers["connection"]?.lowercased() ?? ""
        var keepAlive = version == "HTTP/1.1" ? connectionHeader != "close" : connectionHeader == "keep-alive"
        if (200..<300).contains(status) { self.sink = sink }
        defer { self.sink = nil }
        var body = Data()
        if status == 204 || status == 304 || (100..<200).contains(status) {
            // No body.
        } else if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            try readChunked(into: &body, deadline: deadline, timeout: timeout)
        } else if let lengthText = headers["content-length"] {
            guard let length = Int(lengthText), length >= 0 else { throw .connectionFailed("\(endpoint) sent a bad Content-Length") }
            try read(count: length, into: &body, deadline: deadline, timeout: timeout)
        } else {
            try readToEnd(into: &body, deadline: deadline, timeout: timeout)
            keepAlive = false
        }
        if sinkStopped { keepAlive = false }
        return Response(status: status, headers: headers, body: body, keepAlive: keepAlive)
    }

    /// Reads more bytes into the buffer; false at the end of the stream. A streamed body is bound
    /// by the request's deadline too: a server that trickles a byte now and then must not hold a
    /// fetch for ever.
    private func fill(deadline: Date, timeout: Double) throws(SyncTransportError) -> Bool {
        let streaming = sink != nil
        let n = try stream.read(into: &chunk, deadline: deadline, timeout: timeout)
        answerBytes += n
        guard streaming || answerBytes <= Self.largestAnswer else {
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
                consume(buffer.distance(from: buffer.startIndex, to: end.upperBound))
                return text
            }
            guard try fill(deadline: deadline, timeout: timeout) else {
                throw .connectionFailed("\(endpoint) dropped the connection \(whenClosed)")
            }
        }
    }

    /// Drops `count` bytes read. Data keeps a slice's storage when bytes are taken off its front
    /// and grows it when more are appended: a kept-alive connection streaming 100,000 stored
    /// uplinks held all of them (124 MB). Emptied, it starts again at the front of its storage.
    private func consume(_ count: Int) {
        if count == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else {
            buffer.removeFirst(count)
            // Never emptied (a chunked body leaves the next chunk's head behind): copied down.
            if buffer.startIndex > 1 << 16 { buffer = Data(buffer) }
        }
    }

    /// Hands body bytes on: to the sink while streaming (until it says stop), else into `body`.
    private func deliver(_ bytes: Data, into body: inout Data) {
        guard let sink else {
            body.append(bytes)
            return
        }
        if !sinkStopped && !sink(bytes) { sinkStopped = true }
    }

    /// `count` bytes of body, handed on as they arrive.
    private func read(count: Int, into body: inout Data, deadline: Date, timeout: Double) throws(SyncTransportError) {
        var left = count
        while left > 0 {
            if buffer.isEmpty {
                guard try fill(deadline: deadline, timeout: timeout) else {
                    throw .connectionFailed("\(endpoint) dropped the connection in the middle of an answer")
                }
            }
            let take = min(left, buffer.count)
            deliver(Data(buffer.prefix(take)), into: &body)
            consume(take)
            left -= take
            if sinkStopped { return }
        }
    }

    private func readLine(deadline: Date, timeout: Double) throws(SyncTransportError) -> String {
        try read(upTo: "\r\n", deadline: deadline, timeout: timeout, whenClosed: "in the middle of an answer")
    }

    private func readChunked(into body: inout Data, deadline: Date, timeout: Double) throws(SyncTransportError) {
        while true {
            let sizeText = try readLine(deadline: deadline, timeout: timeout).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw .connectionFailed("\(endpoint) sent a bad chunk")
            }
            if size == 0 {
                // Trailers, then the empty line.
                while !(try readLine(deadline: deadline, timeout: timeout)).isEmpty {}
                return
            }
            try read(count: size, into: &body, deadline: deadline, timeout: timeout)
            if sinkStopped { return }
            // The chunk's data ends exactly at its line end; anything else means the size was
            // wrong and part of the body would be lost.
            guard try readLine(deadline: deadline, timeout: timeout).isEmpty else {
                throw .connectionFailed("\(endpoint) sent a bad chunk")
            }
        }
    }

    private func readToEnd(into body: inout Data, deadline: Date, timeout: Double) throws(SyncTransportError) {
        while true {
            deliver(buffer, into: &body)
            buffer.removeAll()
            if sinkStopped { return }
            guard try fill(deadline: deadline, timeout: timeout) else { return }
        }
    }
}
