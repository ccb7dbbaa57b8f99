import Foundation

/// A real gpsd on 127.0.0.1 reading one device, started for a test and stopped with it.
public final class GPSDServer: @unchecked Sendable {
    public let port: Int
    public let device: String
    private let controlSocket: String
    private var process: Process?

    public init(device: String, port: Int = LoopbackPort.free()) throws {
        self.device = device
        self.port = port
        controlSocket = NSTemporaryDirectory() + "mtt-gpsd-\(port).sock"
        try start()
    }

    /// -N foreground, -n read the device before any client asks (so no data is missed while a
    /// client connects), -b read-only (never reconfigure the receiver).
    public func start() throws {
        let gpsd = Process()
        gpsd.executableURL = URL(fileURLWithPath: try Self.executable())
        gpsd.arguments = ["-N", "-n", "-b", "-S", String(port), "-F", controlSocket, device]
        gpsd.standardInput = FileHandle.nullDevice
        gpsd.standardOutput = FileHandle.nullDevice
        gpsd.standardError = FileHandle.nullDevice
        try gpsd.run()
        process = gpsd
        guard LoopbackPort.waitUntilListening(port) else {
            stop()
            throw GPSDServerError.notListening(port)
        }
        // gpsd opens the device just after it starts listening; give it that moment.
        usleep(300_000)
    }

    public func stop() {
        guard let gpsd = process else { return }
        if gpsd.isRunning {
            // SIGKILL, not SIGTERM: children of the test runner inherit its blocked signal mask,
            // and gpsd never unblocks SIGTERM. A killed gpsd is also the harsher test of mtt.
            kill(gpsd.processIdentifier, SIGKILL)
            gpsd.waitUntilExit()
        }
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
