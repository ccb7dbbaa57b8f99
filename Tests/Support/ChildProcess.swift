import Foundation

/// Runs a program to completion with no standard input, as CI does, and keeps what it printed.
public struct ChildProcess: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> Result {
        let outputs = TemporaryDirectory("mtt-child")
        let outPath = outputs.file("stdout")
        let errPath = outputs.file("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            usleep(10_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ChildProcessError.timedOut(executable: executable, arguments: arguments)
        }
        return Result(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}

public enum ChildProcessError: Error {
    case timedOut(executable: String, arguments: [String])
}
