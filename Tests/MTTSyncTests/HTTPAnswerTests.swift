import Foundation
import MTTCore
import MTTHTTP
import TestSupport
import Testing

/// What mtt's HTTP client makes of answers a real server sends in the field: chunked bodies,
/// bodies that end with the connection, and answers that are broken, cut short or too large.
/// Each broken one is a one-line reason the uploader can retry on, never a crash or a hang.
@Suite("HTTP answers")
struct HTTPAnswerTests {
    static func send(to server: LoopbackHTTPServer, transport: HTTPTransport = HTTPTransport(timeout: 5, connections: 1)) async throws -> HTTPSyncResponse {
        let request = HTTPSyncRequest(
            url: URL(string: server.baseURL + "/api/v0/transmissions")!, body: Data(#"{"n":1}"#.utf8))
        return try await transport.send(request)
    }

    /// The reason mtt gives for an answer it cannot use, or nil when it used it.
    static func reason(for answer: String) async throws -> String? {
        let server = try LoopbackHTTPServer { _ in .raw(Data(answer.utf8)) }
        do {
            _ = try await send(to: server)
            return nil
        } catch let error as SyncTransportError {
            guard case .connectionFailed(let reason) = error else { return "unexpected \(error)" }
            return reason
        }
    }

    @Test func aChunkedBodyIsPutTogether() async throws {
        let server = try LoopbackHTTPServer { _ in
            .raw(Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7;ext=1\r\n{\"succe\r\n0F\r\nss\":true,\"x\":1}\r\n0\r\nX-Trailer: t\r\n\r\n".utf8))
        }
        let response = try await Self.send(to: server)
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"success":true,"x":1}"#)
    }

    @Test func aBodyWithoutLengthEndsWithTheConnectionWhichIsNotReused() async throws {
        let server = try LoopbackHTTPServer { _ in .raw(Data("HTTP/1.0 201 Created\r\n\r\n{\"id\":7}".utf8)) }
        let transport = HTTPTransport(timeout: 5, connections: 1)
        let first = try await Self.send(to: server, transport: transport)
        let second = try await Self.send(to: server, transport: transport)
        #expect(first.status == 201 && second.status == 201)
        #expect(String(decoding: first.body, as: UTF8.self) == #"{"id":7}"#)
        #expect(server.requests.map(\.connection) == [0, 1])
    }

    @Test(arguments: [
        // What came is quoted: a wrong port shows itself.
        ("SSH-2.0-OpenSSH_9.2\r\n\r\n", #"answered something that is not HTTP: "SSH-2.0-OpenSSH_9.2""#),
        ("HTTP/1.1 OK\r\n\r\n", #"answered something that is not HTTP: "HTTP/1.1 OK""#),
        ("HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n", "sent a bad Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\nabcd", "sent a bad Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n{\"success\":", "dropped the connection in the middle of an answer"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "sent a bad chunk"),
        // A chunk one byte longer than its size says.
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}}\r\n0\r\n\r\n", "sent a bad chunk"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{\"su", "dropped the connection in the middle of an answer"),
        ("HTTP/1.1 200 OK\r\nContent-Le", "dropped the connection without an answer"),
        ("", "dropped the connection without an answer"),
    ])
    func aBrokenAnswerIsAOneLineReason(answer: String, expected: String) async throws {
        let reason = try await Self.reason(for: answer)
        #expect(reason?.hasSuffix(expected) == true, "\(reason ?? "used the answer")")
        #expect(reason?.hasPrefix("127.0.0.1:") == true)
    }

    @Test func anAnswerLargerThanOneMiBIsRefused() async throws {
        let big = String(repeating: "x", count: 2 << 20)
        let lengthGiven = try await Self.reason(for: "HTTP/1.1 200 OK\r\nContent-Length: \(big.utf8.count)\r\n\r\n\(big)")
        #expect(lengthGiven?.hasSuffix("sent an answer larger than 1 MiB") == true, "\(lengthGiven ?? "used the answer")")
        let endless = try await Self.reason(for: "HTTP/1.0 200 OK\r\n\r\n\(big)")
        #expect(endless?.hasSuffix("sent an answer larger than 1 MiB") == true, "\(endless ?? "used the answer")")
        // Just under the bound is an answer like any other.
        let fits = String(repeating: "y", count: (1 << 20) - 100)
        #expect(try await Self.reason(for: "HTTP/1.1 200 OK\r\nContent-Length: \(fits.utf8.count)\r\n\r\n\(fits)") == nil)
    }
}
