import Foundation
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for upload tests: keep-alive connections, each request
/// answered by the test's handler, which can also drop the connection or let the client time out.
/// A thread per connection keeps the test runner's two cooperative threads free.
public final class LoopbackHTTPServer: Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header names in lower case.
        public var headers: [String: String]
        public var body: Data
        /// When the request had been read, seconds since the server started.
        public var arrival: Double
        /// Which connection it came on, numbered from 0.
        public var connection: Int

        public var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        }
    }

    public enum Action: Sendable {
        case respond(status: Int, body: String, headers: [String: String])
        /// Answer, then close the connection without saying so (as a server whose keep-alive
        /// timer ran out between two requests).
        case answerThenClose(status: Int, body: String)
        /// Close the connection without an answer.
        case drop
        /// Hold the request unanswered this long, then close the connection.
        case stall(seconds: Double)
        /// Send these bytes as the answer, whatever they are, then close the connection.
        case raw(Data)
        /// A 200 with a chunked body that never ends: one byte every `seconds`, until the
        /// client goes away.
        case trickle(seconds: Double)

        public static func status(_ status: Int, _ body: String = "", headers: [String: String] = [:]) -> Action {
            .respond(status: status, body: body, headers: headers)
        }
    }

    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let handler: @Sendable (Request) -> Action
    private let started = Date()
    private let state = Mutex(State())

    private struct State {
        var requests: [Request] = []
        var connections: [Int32] = []
        var connectionCount = 0
        var stopped = false
    }

    public init(handler: @escaping @Sendable (Request) -> Action) throws {
        self.handler = handler
        (listener, port) = try LoopbackPort.listen()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    /// Every request read so far, in arrival order.
    public var requests: [Request] {
        state.withLock { $0.requests }
    }

    /// Closes the listener and every connection. Once only, and under the lock the connections'
    /// threads close their descriptors under: a descriptor shut down after it was closed may by
    /// then be another test's socket (the deinit's second stop shut down the listener's old
    /// number, and a parallel test's connection lost an answer).
    public func stop() {
        state.withLock { s in
            guard !s.stopped else { return }
            s.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for fd in s.connections { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while let fd = LoopbackPort.accept(on: listener) {
            let number = state.withLock { s -> Int? in
                if s.stopped { return nil }
                s.connections.append(fd)
                s.connectionCount += 1
                return s.connectionCount - 1
            }
            guard let number else {
                close(fd)
                return
            }
            let thread = Thread { [self] in serve(fd, number: number) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32, number: Int) {
        defer {
            state.withLock { s in
                s.connections.removeAll { $0 == fd }
                close(fd)
            }
        }
        var buffer = Data()
        while let (head, body) = readRequest(fd, buffer: &buffer) {
            let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
            let parts = lines[0].split(separator: " ")
            guard parts.count >= 2 else { return }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let request = Request(
                method: String(parts[0]), path: String(parts[1]), headers: headers, body: body,
                arrival: Date().timeIntervalSince(started), connection: number)
            state.withLock { $0.requests.append(request) }
            switch handler(request) {
            case .respond(let status, let text, let extra):
                guard writeAll(fd, Self.response(status, text, extra)) else { return }
                if headers["connection"]?.lowercased() == "close" { return }
            case .answerThenClose(let status, let text):
                _ = writeAll(fd, Self.response(status, text, [:]))
                return
            case .drop:
                return
            case .stall(let seconds):
                // A test double's pacing: a server that answers nothing for this long.
                Thread.sleep(forTimeInterval: seconds)
                return
            case .raw(let bytes):
                _ = writeAll(fd, bytes)
                return
            case .trickle(let seconds):
                guard writeAll(fd, Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)) else { return }
                while writeAll(fd, Data("1\r\n \r\n".utf8)) {
                    // A test double's pacing: one byte of body every `seconds`.
                    Thread.sleep(forTimeInterval: seconds)
                }
                return
            }
        }
    }

    /// Reads one request's head and Content-Length body; nil when the client closed.
    private func readRequest(_ fd: Int32, buffer: inout Data) -> (Data, Data)? {
        let separator = Data("\r\n\r\n".utf8)
        while true {
            if let end = buffer.range(of: separator) {
                let head = buffer[buffer.startIndex..<end.lowerBound]
                let text = String(decoding: head, as: UTF8.self).lowercased()
                var length = 0
                for line in text.components(separatedBy: "\r\n") where line.hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
                let bodyStart = end.upperBound
                if buffer.distance(from: bodyStart, to: buffer.endIndex) >= length {
                    let bodyEnd = buffer.index(bodyStart, offsetBy: length)
                    let request = (Data(head), Data(buffer[bodyStart..<bodyEnd]))
                    buffer = Data(buffer[bodyEnd...])
                    return request
                }
            }
            var chunk = [UInt8](repeating: 0, count: 16384)
            let n = read(fd, &chunk, chunk.count)
            // A signal to the test process (SIGCHLD when one of its children exits) interrupts a
            // read; closing the connection then made the client send the request again.
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    private func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    private static func response(_ status: Int, _ text: String, _ headers: [String: String]) -> Data {
        var response = "HTTP/1.1 \(status) \(reason(status))\r\nContent-Length: \(text.utf8.count)\r\n"
        for (name, value) in headers { response += "\(name): \(value)\r\n" }
        return Data((response + "\r\n" + text).utf8)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

public struct LoopbackHTTPServerError: Error, CustomStringConvertible {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}
