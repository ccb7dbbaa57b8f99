import Foundation
import Synchronization

/// Runs a program to completion with no standard input, as CI does, and keeps what it printed.
///
/// The waiting happens off Swift's cooperative thread pool (a termination handler, not a sleep
/// loop): with two cores that pool has two threads, and a test that blocks one starves the rest.
public struct ChildProcess: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 90
    ) async throws -> Result {
        let started = try Running(executable, arguments, environment: environment)
        guard await started.wait(timeout: timeout) else {
            started.kill()
            throw ChildProcessError.timedOut(executable: executable, arguments: arguments)
        }
        return started.result
    }

    /// For short setup steps outside async code (mosquitto_passwd, openssl).
    public static func runBlocking(_ executable: String, _ arguments: [String]) throws -> Result {
        let started = try Running(executable, arguments, environment: [:])
        started.process.waitUntilExit()
        return started.result
    }

    /// A child that keeps running while the test watches its output.
    public final class Running: @unchecked Sendable {
        let process = Process()
        private let outputs = TemporaryDirectory("mtt-child")
        private let exited = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let done = Mutex(false)

        public init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
            _ = FileManager.default.createFile(atPath: outputs.file("stdout"), contents: nil)
            _ = FileManager.default.createFile(atPath: outputs.file("stderr"), contents: nil)
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            env.merge(environment) { _, new in new }
            process.environment = env
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle(forWritingAtPath: outputs.file("stdout"))
            process.standardError = FileHandle(forWritingAtPath: outputs.file("stderr"))
            process.terminationHandler = { [weak self] _ in self?.markExited() }
            try process.run()
        }

        private func markExited() {
            done.withLock { $0 = true }
            exited.withLock { c in
                c?.resume()
                c = nil
            }
        }

        public var pid: Int32 { process.processIdentifier }
        public var stdout: String { (try? String(contentsOfFile: outputs.file("stdout"), encoding: .utf8)) ?? "" }
        public var stderr: String { (try? String(contentsOfFile: outputs.file("stderr"), encoding: .utf8)) ?? "" }

        public var result: Result { Result(status: process.terminationStatus, stdout: stdout, stderr: stderr) }

        /// Waits for the child to exit; false after `timeout` seconds.
        public func wait(timeout: Double) async -> Bool {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    await withCheckedContinuation { continuation in
                        let already = self.done.withLock { $0 }
                        if already {
                            continuation.resume()
                        } else {
                            self.exited.withLock { $0 = continuation }
                            if self.done.withLock({ $0 }) {
                                self.exited.withLock { c in
                                    c?.resume()
                                    c = nil
                                }
                            }
                        }
                    }
                    return true
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(timeout))
                    return false
                }
                let first = await group.next() ?? false
                if !first {
                    self.exited.withLock { c in
                        c?.resume()
                        c = nil
                    }
                }
                group.cancelAll()
                return first
            }
        }

        /// Waits until stdout satisfies `condition`, polling its file; false after `timeout`.
        public func waitForOutput(timeout: Double, _ condition: (String) -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(timeout)
            while ContinuousClock.now < deadline {
                if condition(stdout) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return condition(stdout)
        }

        public func signal(_ number: Int32) {
            Foundation.kill(process.processIdentifier, number)
        }

        public func kill() {
            signal(SIGKILL)
        }
    }
}

public enum ChildProcessError: Error {
    case timedOut(executable: String, arguments: [String])
}
