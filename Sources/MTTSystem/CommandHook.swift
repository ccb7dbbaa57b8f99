import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// The hook programs running now, so that mtt can end them when it ends.
private let runningCommands = Mutex<Set<pid_t>>([])

/// A hook that runs a program, without a shell: the event as one JSON line on its standard input
/// and as `MTT_EVENT_*` variables; its output is discarded, the end of its error output kept for
/// the failure message. A program still running after `timeout` seconds is killed.
public struct CommandHook: HookDelivery {
    public let arguments: [String]
    public let timeout: Double

    public init(arguments: [String], timeout: Double) {
        self.arguments = arguments
        self.timeout = timeout
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Kills the hook programs still running (at the end of a run, after their grace): none is
    /// left behind when mtt exits.
    public static func stopAll() {
        for pid in runningCommands.withLock({ $0 }) { kill(pid, SIGKILL) }
    }

    public func deliver(_ event: FieldEvent) async throws {
        let input = event.json() + [0x0A]
        let environment = ProcessInfo.processInfo.environment.merging(event.environment) { _, event in event }
        let arguments = self.arguments, timeout = self.timeout
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            // waitpid and the pipes block: a thread of their own, never the cooperative pool.
            BlockingThread.start(name: "hook command") {
                continuation.resume(with: Result { try Self.run(arguments, environment: environment, input: input, timeout: timeout) })
            }
        }
    }

    private static func run(_ arguments: [String], environment: [String: String], input: [UInt8], timeout: Double) throws {
        guard let program = arguments.first else { throw Failure(description: "no command") }
        var stdinPipe: [Int32] = [-1, -1], stderrPipe: [Int32] = [-1, -1]
        // pipe2 is not in the Glibc module; close-on-exec right after (the child gets its copies by dup2).
        func makePipe(_ ends: inout [Int32]) -> Bool {
            guard pipe(&ends) == 0 else { return false }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard makePipe(&stdinPipe) else { throw Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        guard makePipe(&stderrPipe) else {
            close(stdinPipe[0]); close(stdinPipe[1])
            throw Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // The event is in the pipe before the program starts (it is far smaller than a pipe holds),
        // so a program that never reads it, or exits at once, cannot make mtt's write fail.
        _ = input.withUnsafeBytes { write(stdinPipe[1], $0.baseAddress, $0.count) }
        close(stdinPipe[1])
        defer { close(stderrPipe[0]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, envp)
        close(stdinPipe[0])
        close(stderrPipe[1])
        guard spawned == 0 else { throw Failure(description: "cannot run \(program): \(String(cString: strerror(spawned)))") }
        runningCommands.withLock { _ = $0.insert(pid) }
        defer { runningCommands.withLock { _ = $0.remove(pid) } }

        _ = fcntl(stderrPipe[0], F_SETFL, fcntl(stderrPipe[0], F_GETFL) | O_NONBLOCK)
        var errorTail: [UInt8] = []
        func readErrors() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(stderrPipe[0], $0.baseAddress, $0.count) }
                guard n > 0 else { return }
                errorTail = Array((errorTail + buffer[..<n]).suffix(512))
            }
        }
        let deadline = ContinuousClock.now + .seconds(timeout)
        var status: Int32 = 0
        while true {
            readErrors()
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw Failure(description: "lost \(program): \(String(cString: strerror(errno)))") }
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw Failure(description: "\(program) killed after \(timeout.plainText) s")
            }
            usleep(10_000)
        }
        readErrors()
        // WIFEXITED and WEXITSTATUS, which the Glibc module does not bring as functions.
        let signal = status & 0x7f, code = (status >> 8) & 0xff
        if signal != 0 { throw Failure(description: "\(program) ended by signal \(signal)") }
        if code != 0 {
            let last = String(decoding: errorTail, as: UTF8.self).split(separator: "\n").last.map { ": " + $0 } ?? ""
            throw Failure(description: "\(program) exited with status \(code)\(last)")
        }
    }
}
