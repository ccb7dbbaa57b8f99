import Glibc
import MTTSerial
import Testing

@Suite("Pseudo-terminals")
struct PseudoTerminalPairTests {
    @Test func bytesWrittenToTheMasterArriveAtTheSlaveDevice() throws {
        let pair = try PseudoTerminalPair()
        #expect(pair.slavePath.hasPrefix("/dev/pts/"))
        let slave = open(pair.slavePath, O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        defer { close(slave) }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)

        let sent = Array("sys get ver\r\n".utf8)
        #expect(sent.withUnsafeBytes { write(pair.master, $0.baseAddress, $0.count) } == sent.count)
        var received = [UInt8](repeating: 0, count: 64)
        let n = received.withUnsafeMutableBytes { read(slave, $0.baseAddress, $0.count) }
        #expect(Array(received[..<max(n, 0)]) == sent)
    }

    @Test func eachPairHasItsOwnDevice() throws {
        let a = try PseudoTerminalPair()
        let b = try PseudoTerminalPair()
        #expect(a.slavePath != b.slavePath)
    }
}
