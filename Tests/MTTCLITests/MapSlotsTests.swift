import Foundation
import Synchronization
import MTTCore
import TestSupport
import Testing

/// The map as the Wi-Fi treats it (issue 34, item 7 and the rough edges of 13): sockets that
/// connect and say nothing cannot take every slot, a request with LF line ends is answered, and
/// HEAD gets a head.
@Suite("The map's connections", .serialized)
struct MapSlotsTests {
    let mtt = MTTCommand()

    func serve() async throws -> (ChildProcess.Running, Int) {
        try MapTestData.fill(try Store(path: mtt.database))
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "127.0.0.1:\(port)", "--tiles", "none", "--db", mtt.database])
        #expect(await server.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(server.stderr)")
        return (server, port)
    }

    /// Opens a TCP connection to the port on loopback; -1 when refused.
    static func connectTo(_ port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if connected != 0 { close(fd); return -1 }
        return fd
    }

    /// Sends `request` as it is and reads the whole answer (the map closes after one), on a thread
    /// of its own: a blocking read on Swift's cooperative pool starved the suite's other tests.
    static func exchange(_ port: Int, _ request: String) async throws -> String {
        try await offThePool { blockingExchange(port, request) }
    }

    static func blockingExchange(_ port: Int, _ request: String) -> String {
        let fd = connectTo(port)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            answer += chunk[0..<n]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    @Test func socketsThatSayNothingCannotShutTheMapOff() async throws {
        let (server, port) = try await serve()
        defer { server.kill() }
        // Forty sockets that connect, send nothing and connect again whenever they are closed.
        let stop = Atomic<Bool>(false), hogging = Atomic<Bool>(false)
        let hog = Thread {
            var idle: [Int32] = []
            while !stop.load(ordering: .relaxed) {
                idle.removeAll { fd in
                    var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&probe, 1, 0) > 0 else { return false }
                    close(fd)
                    return true
                }
                while idle.count < 40 { let fd = Self.connectTo(port); if fd >= 0 { idle.append(fd) } else { break } }
                if idle.count >= 40 { hogging.store(true, ordering: .relaxed) }
                // Ten rounds a second: each new socket pushes out an older one, and a faster churn
                // used up loopback's ephemeral ports for the tests running beside this one.
                Thread.sleep(forTimeInterval: 0.1)
            }
            idle.forEach { close($0) }
        }
        hog.start()
        defer { stop.store(true, ordering: .relaxed) }
        // The hog holds every slot it can before the real clients come.
        #expect(await eventually(timeout: 10) { hogging.load(ordering: .relaxed) }, "the hog never held the slots")
        var answered = 0
        for _ in 0..<45 {
            if try await Self.exchange(port, "GET /api/status HTTP/1.1\r\nHost: x\r\n\r\n").hasPrefix("HTTP/1.1 200") { answered += 1 }
        }
        #expect(answered == 45, "\(answered) of 45 status requests answered while 40 sockets sat idle")
    }

    @Test func aRequestWithLFLineEndsIsAnsweredAndHEADGetsAHead() async throws {
        let (server, port) = try await serve()
        defer { server.kill() }
        // A 200 shows the bare LF ending the head was read: waiting for a CRLF would have ended in
        // the server's read timeout, not an answer.
        let lf = try await Self.exchange(port, "GET /api/status HTTP/1.1\nHost: x\n\n")
        #expect(lf.hasPrefix("HTTP/1.1 200"), "\(lf.prefix(80))")
        let head = try await Self.exchange(port, "HEAD /api/status HTTP/1.1\r\nHost: x\r\n\r\n")
        let parts = head.components(separatedBy: "\r\n\r\n")
        #expect(parts[0].hasPrefix("HTTP/1.1 200") && parts[0].contains("Content-Length: "), "\(head.prefix(200))")
        #expect(parts.count == 2 && parts[1].isEmpty, "HEAD sent a body: \(parts.dropFirst().joined().prefix(80))")
    }
}
