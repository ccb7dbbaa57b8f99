import Foundation

/// A real mosquitto broker on 127.0.0.1, configured by the test and killed with it.
public final class MosquittoBroker: @unchecked Sendable {
    public struct Credentials: Sendable {
        public var username: String
        public var password: String
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    public let port: Int
    public let folder: TemporaryDirectory
    private var process: ChildProcess.Running?
    /// The broker's process, for a test that looks at its memory.
    public var pid: Int32? { process?.pid }

    /// Writes the configuration, starts the broker and returns once it listens.
    /// A free port can be taken by another test's server between being found and being bound:
    /// then once more on another.
    /// - Parameter acl: mosquitto's ACL lines (`user NAME`, `topic read|write|readwrite PATTERN`),
    ///   for a broker that refuses some topics.
    public static func start(credentials: Credentials? = nil, tls: TestCertificates? = nil, acl: [String]? = nil) async throws -> MosquittoBroker {
        try await offThePool {
            for _ in 1..<3 {
                do {
                    return try MosquittoBroker(credentials: credentials, tls: tls, acl: acl, port: LoopbackPort.free())
                } catch MosquittoBrokerError.setup(let message) where message.contains("Address already in use") {
                    continue
                }
            }
            return try MosquittoBroker(credentials: credentials, tls: tls, acl: acl, port: LoopbackPort.free())
        }
    }

    private init(credentials: Credentials?, tls: TestCertificates?, acl: [String]?, port: Int) throws {
        self.port = port
        folder = TemporaryDirectory("mtt-mosquitto")
        // mosquitto started as root drops to its own user, which must be able to read these files.
        chmod(folder.path, 0o755)
        var config = [
            "listener \(port) 127.0.0.1",
            "persistence false",
            // Deliver every QoS 0 message to a connected subscriber, however many are queued.
            "max_queued_messages 0",
            "log_dest stderr",
        ]
        if let credentials {
            let passwords = folder.file("passwords")
            let result = try ChildProcess.runBlocking(
                try Self.tool("mosquitto_passwd"), ["-c", "-b", passwords, credentials.username, credentials.password])
            guard result.status == 0 else { throw MosquittoBrokerError.setup("mosquitto_passwd: \(result.stderr)") }
            chmod(passwords, 0o644)
            config += ["allow_anonymous false", "password_file \(passwords)"]
        } else {
            config.append("allow_anonymous true")
        }
        if let acl {
            let file = folder.file("acl")
            try (acl.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o644)
            config.append("acl_file \(file)")
        }
        if let tls {
            config += ["cafile \(tls.caCertificate)", "certfile \(tls.serverCertificate)", "keyfile \(tls.serverKey)"]
        }
        try (config.joined(separator: "\n") + "\n").write(toFile: folder.file("mosquitto.conf"), atomically: true, encoding: .utf8)
        chmod(folder.file("mosquitto.conf"), 0o644)
        try launch()
    }

    /// Starts the broker again (after `stop()`) with the same configuration and port.
    public func restart() async throws {
        try await offThePool { try self.launch() }
    }

    private func launch() throws {
        let broker = try ChildProcess.Running(try Self.tool("mosquitto"), ["-c", folder.file("mosquitto.conf")], environment: [:])
        process = broker
        guard LoopbackPort.waitUntilListening(port) else {
            let log = broker.stderr
            stop()
            let lines = log.split(whereSeparator: \.isNewline).joined(separator: " | ")
            throw MosquittoBrokerError.setup("mosquitto did not listen on 127.0.0.1:\(port): \(lines)")
        }
    }

    /// Kills the broker (SIGKILL: the test runner's children inherit a blocked SIGTERM).
    public func stop() {
        process?.stop()
        process = nil
    }

    deinit { stop() }

    /// Publishes each line of `lines` as one message with mosquitto_pub, QoS 0.
    public func publish(topic: String, lines: [String], credentials: Credentials? = nil) async throws {
        let file = folder.file("publish-\(UUID().uuidString).txt")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        var arguments = ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-l", "-q", "0"]
        if let credentials { arguments += ["-u", credentials.username, "-P", credentials.password] }
        let result = try await ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" < '\(file)'", try Self.tool("mosquitto_pub")] + arguments)
        guard result.status == 0 else { throw MosquittoBrokerError.setup("mosquitto_pub: \(result.stderr)") }
    }

    /// A mosquitto_sub on `topic` that keeps every message payload, one per line, until stopped:
    /// what a test sees on the wire, next to what mtt made of it.
    public func subscribe(topic: String) async throws -> ChildProcess.Running {
        let subscriber = try ChildProcess.Running(try Self.tool("mosquitto_sub"), ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-q", "0"], environment: [:])
        // mosquitto_sub says nothing once subscribed: a message of its own shows it is listening.
        let probe = "mtt-test-subscribed-\(UUID().uuidString)"
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            try await publish(topic: topic.replacingOccurrences(of: "#", with: "probe").replacingOccurrences(of: "+", with: "probe"), lines: [probe])
            if await subscriber.waitForOutput(timeout: 0.3, { $0.contains(probe) }) { return subscriber }
        }
        subscriber.stop()
        throw MosquittoBrokerError.setup("mosquitto_sub did not subscribe to \(topic)")
    }

    static func tool(_ name: String) throws -> String {
        for folder in ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"] {
            let path = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw MosquittoBrokerError.setup("\(name) is not installed: run ./scripts/setup")
    }
}

public enum MosquittoBrokerError: Error, CustomStringConvertible {
    case setup(String)

    public var description: String {
        switch self {
        case .setup(let message): return message
        }
    }
}
