import Foundation

/// A real gpsd on 127.0.0.1 reading one device, started for a test and stopped with it.
public final class GPSDServer: @unchecked Sendable {
    public let port: Int
    public let device: String
    private let controlSocket: String
    private var process: ChildProcess.Running?

    private init(device: String, port: Int) {
        self.device = device
        self.port = port
        controlSocket = NSTemporaryDirectory() + "mtt-gpsd-\(port).sock"
    }

    /// Starts gpsd on a free port and returns once it listens and has opened the device.
    public static func start(device: String, port: Int = LoopbackPort.free()) async throws -> GPSDServer {
        let server = GPSDServer(device: device, port: port)
        try await server.restart()
        return server
    }

    /// Starts gpsd again (after `stop()`) on the same port and device.
    public func restart() async throws {
        try await offThePool { try self.launch() }
    }

    /// -N foreground, -n read the device before any client asks (so no data is missed while a
    /// client connects), -b read-only (never reconfigure the receiver).
    private func launch() throws {
        process = try ChildProcess.Running(
            try Self.executable(), ["-N", "-n", "-b", "-S", String(port), "-F", controlSocket, device], environment: [:])
        guard LoopbackPort.waitUntilListening(port) else {
            stop()
            throw GPSDServerError.notListening(port)
        }
        // Deliberate: gpsd opens the device just after it starts listening, and says so nowhere
        // a test can look; give it that moment.
        usleep(300_000)
    }

    /// Kills gpsd: the harsher test of mtt, and gpsd never unblocks the SIGTERM the test runner's
    /// children inherit blocked.
    public func stop() {
        process?.stop()
        process = nil
        unlink(controlSocket)
    }

    deinit { stop() }

    static func executable() throws -> String {
        for path in ["/usr/sbin/gpsd", "/usr/bin/gpsd", "/usr/local/sbin/gpsd"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw GPSDServerError.notInstalled
    }
}

public enum GPSDServerError: Error, CustomStringConvertible {
    case notInstalled
    case notListening(Int)

    public var description: String {
        switch self {
        case .notInstalled: return "gpsd is not installed: run ./scripts/setup"
        case .notListening(let port): return "gpsd did not listen on 127.0.0.1:\(port)"
        }
    }
}
