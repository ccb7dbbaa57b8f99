import Foundation
import Synchronization

/// Runs a program to completion with no standard input, as CI does, and keeps what it printed.
///
/// The waiting happens off Swift's cooperative thread pool (a termination handler, not a sleep
/// loop): with two cores that pool has two threads, and a test that blocks one starves the rest.
/// Nothing here calls `Process.waitUntilExit()`: off the main thread it spins the run loop, and
/// it never returns when the child's termination goes unnoticed (see `stop()`).
public struct ChildProcess: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public static func run(
        // As long as a loaded machine takes (beside two suites a small export once took over 90 s);
        // a command that hangs is still ended.
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 300
    ) async throws -> Result {
        let started = try Running(executable, arguments, environment: environment)
        guard await started.wait(timeout: timeout) else {
            started.kill()
            throw ChildProcessError.timedOut(executable: executable, arguments: arguments)
        }
        return started.result
    }

    /// For setup steps that already run off the pool (mosquitto_passwd, openssl; see `offThePool`).
    public static func runBlocking(_ executable: String, _ arguments: [String]) throws -> Result {
        let started = try Running(executable, arguments, environment: [:])
        // As long as it takes: three openssl commands took more than 120 s beside two suites.
        _ = started.waitBlocking(timeout: 600)
        return started.result
    }

    /// A child that keeps running while the test watches its output.
    public final class Running: @unchecked Sendable {
        let process = Process()
        private let outputs = TemporaryDirectory("mtt-child")
        private let done = Mutex(false)
        private let doneSignal = DispatchSemaphore(value: 0)

        public init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
            _ = FileManager.default.createFile(atPath: outputs.file("stdout"), contents: nil)
            _ = FileManager.default.createFile(atPath: outputs.file("stderr"), contents: nil)
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            env.merge(environment) { _, new in new }
            process.environment = env
            process.standardInput = FileHandle.nullDevice
            let stdout = FileHandle(forWritingAtPath: outputs.file("stdout"))
            let stderr = FileHandle(forWritingAtPath: outputs.file("stderr"))
            process.standardOutput = stdout
            process.standardError = stderr
            process.terminationHandler = { [weak self] _ in self?.markExited() }
            // The child has its own copies once it runs. Ours stayed open for the whole test run
            // (two per child: over a thousand in a suite), and past descriptor 1023 libmosquitto's
            // select() aborts the test process.
            defer {
                try? stdout?.close()
                try? stderr?.close()
            }
            try process.run()
        }

        private func markExited() {
            done.withLock { $0 = true }
            doneSignal.signal()
        }

        public var pid: Int32 { process.processIdentifier }
        /// Whether the child has exited already.
        public var hasExited: Bool { done.withLock { $0 } }
        public var stdout: String { (try? String(contentsOfFile: outputs.file("stdout"), encoding: .utf8)) ?? "" }
        public var stderr: String { (try? String(contentsOfFile: outputs.file("stderr"), encoding: .utf8)) ?? "" }

        /// What it printed, and its exit status; -1 while it is still running (Foundation traps on
        /// the status of a running process, which took a whole suite down after one slow child).
        public var result: Result { Result(status: hasExited ? process.terminationStatus : -1, stdout: stdout, stderr: stderr) }

        /// Waits for the child to exit; false after `timeout` seconds.
        public func wait(timeout: Double) async -> Bool {
            (try? await offThePool { self.waitBlocking(timeout: timeout) }) ?? false
        }

        /// Waits for the child to exit, blocking the calling thread; false after `timeout` seconds.
        /// Async code calls `wait(timeout:)`, which does this on a thread of its own.
        public func waitBlocking(timeout: Double) -> Bool {
            if done.withLock({ $0 }) { return true }
            guard doneSignal.wait(timeout: .now() + timeout) == .success else { return false }
            doneSignal.signal()  // let any later waiter through as well
            return true
        }

        /// Kills the child and everything it forked (SIGKILL to its process group: the test
        /// runner's children inherit a blocked SIGTERM) and waits until it is gone.
        ///
        /// The whole group, because Foundation learns of a child's end when a socket the child
        /// inherited closes: a forked helper that outlives its parent (socat's per-connection
        /// children) keeps that socket open and the parent's end unnoticed.
        public func stop() {
            guard !done.withLock({ $0 }) else { return }
            Foundation.kill(-process.processIdentifier, SIGKILL)
            _ = waitBlocking(timeout: 10)
        }

        /// Waits until stdout satisfies `condition`, polling its file; false after `timeout`.
        public func waitForOutput(timeout: Double, _ condition: (String) -> Bool) async -> Bool {
            await eventually(timeout: timeout) { condition(stdout) }
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
