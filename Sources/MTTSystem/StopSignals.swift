import Glibc
import MTTCore
import Synchronization

/// Ctrl-C, SIGTERM and SIGHUP, handed to the watchers by a thread of mtt's own.
///
/// mtt's own handler is in place from the first thing the process does: it only writes the
/// signal's number into a pipe, which is all a signal handler may safely do, and a thread reads
/// the pipe and calls the watchers. Through libdispatch's signal sources, a SIGTERM that came just
/// after a command said it was ready (before libdispatch had armed the source on its own thread)
/// was taken by libdispatch and dropped, and `mtt fake-node` ran on for ever. (Blocking the
/// signals for sigwait(2) does not work either: the main thread waits in libdispatch's
/// sigsuspend with every signal open.)
public enum StopSignals {
    public static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private struct Watchers {
        var next = 0
        var handlers: [(id: Int, handler: @Sendable (Int32) -> Void)] = []
    }

    private static let watchers = Mutex(Watchers())

    /// Calls `handler` for each of the three from now on, with every other watcher (a fetch inside
    /// a sync stops both); returns what `unwatch` takes. With no watcher, a signal ends mtt as it
    /// would any program, and one its parent ignored (`nohup`) stays ignored.
    public static func watch(_ handler: @escaping @Sendable (Int32) -> Void) -> Int {
        watchers.withLock { w in
            w.next += 1
            w.handlers.append((w.next, handler))
            return w.next
        }
    }

    public static func unwatch(_ id: Int) {
        watchers.withLock { $0.handlers.removeAll { $0.id == id } }
    }

    /// Installs the handler and starts the thread that reads what it writes.
    static func takeOver() {
        let ignored = Set(numbers.filter { number in
            var action = sigaction()
            // C function pointers compare by address: SIG_IGN is the address 1.
            return sigaction(number, nil, &action) == 0
                && unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        })
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        stopSignalPipe = ends[1]
        for number in numbers {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = writeStopSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(SA_RESTART)
            sigaction(number, &action, nil)
        }
        // A parent may have left them blocked (test runners do).
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let readEnd = ends[0]
        BlockingThread.start(name: "mtt-signals") {
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                guard n == 1 else { return }
                let number = Int32(byte)
                let handlers = watchers.withLock { $0.handlers.map(\.handler) }
                if handlers.isEmpty {
                    if !ignored.contains(number) { endAsTheDefaultWould(number) }
                } else {
                    for handler in handlers { handler(number) }
                }
            }
        }
    }

    /// Dies of the signal, as a program that does not handle it does (the shell sees 128 + n).
    private static func endAsTheDefaultWould(_ number: Int32) -> Never {
        signal(number, SIG_DFL)
        raise(number)
        exit(128 + number)
    }
}

/// Where the handler writes; set once, before the handler is installed.
nonisolated(unsafe) private var stopSignalPipe: Int32 = -1

/// The handler: async-signal-safe, so it only writes the number (errno is kept for the code it
/// interrupted).
private func writeStopSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(stopSignalPipe, &byte, 1)
    errno = saved
}
