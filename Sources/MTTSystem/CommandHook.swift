import CSpawn
import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// The hook programs running now, each the leader of its own process group, so that mtt can end
/// them and whatever they started when it ends; once it has, no new one starts.
private let runningCommands = Mutex<(pids: Set<pid_t>, stopped: Bool)>(([], false))

/// A hook that runs a program, without a shell: the event as one JSON line on its standard input
/// and as `MTT_EVENT_*` variables; its output is discarded, the end of its error output kept for
/// the failure message. A program still running after `timeout` seconds is killed with everything
/// it started. It starts as a program started from a shell would: every signal at its default and
/// none blocked (mtt ignores SIGPIPE and its threads block the stop signals; a child inheriting
/// that could not be stopped by `kill`), in a process group of its own.
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

    /// Kills the hook programs still running and what they started (at the end of a run, after
    /// their grace): none is left behind when mtt exits.
    public static func stopAll() {
        runningCommands.withLock { running in
            running.stopped = true
            for pid in running.pids { kill(-pid, SIGKILL) }
        }
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
        // Nothing of mtt's but these three: a descriptor a hook kept (a socket, the pipe a parent
        // watches for mtt's end) would outlive mtt with it.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        // Caught signals go back to their default at exec anyway; ignored ones would stay ignored.
        // All of them: glibc would otherwise hand its own two (32 and 33) to the program ignored.
        var toDefault = sigset_t()
        sigfillset(&toDefault)
        posix_spawnattr_setsigdefault(&attributes, &toDefault)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        // Started under the lock that `stopAll` takes: a program is either known to it or never started.
        var pid: pid_t = 0
        let spawned = runningCommands.withLock { running -> Int32? in
            guard !running.stopped else { return nil }
            let spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            if spawned == 0 { running.pids.insert(pid) }
            return spawned
        }
        close(stdinPipe[0])
        close(stderrPipe[1])
        guard let spawned else { throw Failure(description: "not started: mtt is ending") }
        guard spawned == 0 else { throw Failure(description: "cannot run \(program): \(String(cString: strerror(spawned)))") }
        defer { runningCommands.withLock { _ = $0.pids.remove(pid) } }

        _ = fcntl(stderrPipe[0], F_SETFL, fcntl(stderrPipe[0], F_GETFL) | O_NONBLOCK)
        var errorTail: [UInt8] = []
        var errorBytes = 0
        var errorsOpen = true
        var buffer = [UInt8](repeating: 0, count: 65_536)
        /// Reads what the pipe holds; false once the program (and all it started) closed it.
        func readErrors() -> Bool {
            while true {
                let n = buffer.withUnsafeMutableBytes { read(stderrPipe[0], $0.baseAddress, $0.count) }
                if n == 0 { return false }
                if n < 0 { return errno == EAGAIN || errno == EINTR }
                errorBytes += n
                errorTail.append(contentsOf: buffer[max(0, n - Self.errorTailSize)..<n])
                if errorTail.count > 2 * Self.errorTailSize { errorTail.removeFirst(errorTail.count - Self.errorTailSize) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(timeout)
        var status: Int32 = 0
        while true {
            // Waits on the pipe, not on a timer: a program that writes much to stderr is never
            // held up by mtt (draining every 10 ms capped it at a pipe's 64 KiB per turn).
            if errorsOpen {
                var waiting = pollfd(fd: stderrPipe[0], events: Int16(POLLIN), revents: 0)
                _ = poll(&waiting, 1, 10)
                errorsOpen = readErrors()
            } else {
                usleep(10_000)
            }
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw Failure(description: "lost \(program): \(String(cString: strerror(errno)))") }
            if ContinuousClock.now >= deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw Failure(description: "\(program) killed after \(timeout.plainText) s")
            }
        }
        if errorsOpen { _ = readErrors() }
        // What the program left running in its group (a shell's `sleep &`) ends with it.
        kill(-pid, SIGKILL)
        // WIFEXITED and WEXITSTATUS, which the Glibc module does not bring as functions.
        let signal = status & 0x7f, code = (status >> 8) & 0xff
        if signal != 0 { throw Failure(description: "\(program) ended by signal \(signal)") }
        if code != 0 {
            let last = String(decoding: errorTail.suffix(Self.errorTailSize), as: UTF8.self).split(separator: "\n").last.map { ": " + $0 } ?? ""
            let cut = errorBytes > Self.errorTailSize ? " (the last line of \(errorBytes) bytes of error output)" : ""
            throw Failure(description: "\(program) exited with status \(code)\(last)\(cut)")
        }
    }

    /// How much of a program's error output is kept for the failure message.
    static let errorTailSize = 512
}
