import Glibc

/// A thread of its own for a loop that blocks in the kernel (a socket read, libgps, the mosquitto
/// loop), so that no task of Swift's cooperative pool is held. Foundation's `Thread` does the same
/// but is not in FoundationEssentials, which the adapters use.
public enum BlockingThread {
    /// Starts `body` on a new detached thread; `name` says what it is for should it fail to start.
    /// (Glibc's module map leaves pthread_setname_np out, so the thread is not named.)
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { pointer in
            let body = Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        // Without a thread the loop cannot run at all; this happens only when the process is out of
        // threads or memory, where going on would lose data silently.
        precondition(result == 0, "cannot start the \(name) thread: \(String(cString: strerror(result)))")
        pthread_detach(thread)
    }

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
