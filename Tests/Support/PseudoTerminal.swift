import Foundation
import MTTSerial

/// A pseudo-terminal pair: the test writes to the master, a program (gpsd, mtt) opens the slave
/// as if it were a USB serial device. The test keeps its own slave descriptor open so the pair
/// survives the program closing and reopening the device.
public final class PseudoTerminal: @unchecked Sendable {
    private let pair: PseudoTerminalPair
    private let slave: Int32
    public var master: Int32 { pair.master }
    public var slavePath: String { pair.slavePath }

    public init() throws {
        pair = try PseudoTerminalPair()
        slave = open(pair.slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw PseudoTerminalError.cannotOpen(String(cString: strerror(errno))) }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        // gpsd drops root for its own user, which must still be able to open the device.
        fchmod(slave, 0o666)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(slave)
    }

    /// Writes all of `bytes` to the master side, as the device would send them.
    public func write(_ bytes: some Collection<UInt8>) {
        var pending = Array(bytes)[...]
        while !pending.isEmpty {
            let n = pending.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if n > 0 {
                pending = pending.dropFirst(n)
            } else {
                drain()
                // The terminal's buffer is full: a millisecond for the reader, then write on.
                usleep(1_000)
            }
        }
    }

    /// Reads and discards what the program wrote to the device (gpsd's probes), so it never blocks.
    @discardableResult
    public func drain() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return out
    }

    /// Feeds a capture in small chunks with short pauses, the way a receiver at 9600–115200 baud would.
    public func feed(_ bytes: [UInt8], chunk: Int = 80, pauseMicroseconds: UInt32 = 5_000) async {
        _ = try? await offThePool { self.feedNow(bytes, chunk: chunk, pauseMicroseconds: pauseMicroseconds) }
    }

    /// `feed` for a thread of the test's own.
    public func feedNow(_ bytes: [UInt8], chunk: Int = 80, pauseMicroseconds: UInt32 = 5_000) {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            write(bytes[offset..<end])
            drain()
            offset = end
            // A test double's pacing: a slow serial line, a chunk at a time.
            usleep(pauseMicroseconds)
        }
    }
}

public enum PseudoTerminalError: Error {
    case cannotOpen(String)
}
