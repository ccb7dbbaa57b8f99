import FoundationEssentials
import Glibc
import Logging
import MTTCore
import Synchronization

/// Fixes from gpsd through libgps. The blocking libgps calls run on a thread of their own, which
/// hands copies of each report to Swift concurrency through the stream. When gpsd goes away the
/// stream says so once, retries with backoff, and says `.connected` again when gpsd is back.
public struct GPSDFixSource: FixSource {
    public let host: String
    public let port: Int
    public let reconnect: Backoff
    /// gpsd's own port.
    public static let defaultPort = 2947

    public init(host: String = "127.0.0.1", port: Int = GPSDFixSource.defaultPort, reconnect: Backoff = Backoff(initial: 0.5, maximum: 10)) {
        self.host = host
        self.port = port
        self.reconnect = reconnect
    }

    public var spec: String { "gpsd://\(HostPort(host: host, port: port))" }

    public func events() -> AsyncStream<FixEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FixEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let reader = GPSDReader(host: host, port: port, source: spec, reconnect: reconnect, continuation: continuation)
        continuation.onTermination = { _ in reader.stop() }
        BlockingThread.start(name: "mtt-gpsd") { reader.run() }
        return stream
    }
}

/// The loop on the reader thread. Only `stop()` is called from elsewhere.
private final class GPSDReader: Sendable {
    private let host: String
    private let port: Int
    private let source: String
    private let reconnect: Backoff
    private let continuation: AsyncStream<FixEvent>.Continuation
    private let stopped = Atomic<Bool>(false)
    private let logger = Logger(label: "mtt.gps")

    init(host: String, port: Int, source: String, reconnect: Backoff, continuation: AsyncStream<FixEvent>.Continuation) {
        self.host = host
        self.port = port
        self.source = source
        self.reconnect = reconnect
        self.continuation = continuation
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    func run() {
        let connection = GPSDConnection(host: host, port: port, source: source)
        var backoff = reconnect
        var lostReported = false
        while !isStopped {
            do {
                try connection.open()
                try readUntilClosed(connection, onWatching: {
                    backoff.reset()
                    lostReported = false
                })
            } catch {
                connection.close()
                if !lostReported {
                    continuation.yield(.lost(reason: error.reason + "; retrying"))
                    lostReported = true
                } else {
                    logger.debug("\(error.reason)")
                }
                sleep(seconds: backoff.nextDelay())
            }
        }
        connection.close()
        continuation.finish()
    }

    private func readUntilClosed(_ connection: GPSDConnection, onWatching: () -> Void) throws(GPSDConnection.Failure) {
        while !isStopped {
            // A bounded wait, so a stop request is noticed within half a second without polling.
            guard connection.waiting(microseconds: 500_000) else { continue }
            switch try connection.read() {
            case .report(let event):
                continuation.yield(event)
            case .watching:
                onWatching()
                continuation.yield(.connected(source))
            case .other:
                break
            }
        }
    }

    /// Sleeps in short steps so that stopping is not held up by a long backoff.
    private func sleep(seconds: Double) {
        var left = seconds
        while left > 0 && !isStopped {
            let step = min(left, 0.2)
            usleep(UInt32(step * 1_000_000))
            left -= step
        }
    }
}

extension FixSourceKind {
    /// `gpsd[://HOST:PORT]`: a receiver through gpsd, on this machine unless a host is named.
    public static let gpsd = FixSourceKind(name: "gpsd", form: "gpsd[://HOST:PORT]") { text throws(SpecError) in
        var host = "127.0.0.1", port = GPSDFixSource.defaultPort
        let rest = text.dropFirst("gpsd".count)
        if !rest.isEmpty && rest != "://" {
            guard rest.hasPrefix("://") else { throw SpecError("bad GPS spec \(text): use gpsd or gpsd://HOST:PORT") }
            do {
                let address = try HostPort(parsing: rest.dropFirst(3), defaultPort: GPSDFixSource.defaultPort)
                (host, port) = (address.host, address.port)
            } catch {
                throw SpecError("bad GPS spec \(text): \(error) (use gpsd://HOST:PORT)")
            }
        }
        let source = GPSDFixSource(host: host, port: port)
        return FixSourceRecipe(description: source.spec) { [host, port] context in GPSDFixSource(host: host, port: port, reconnect: context.reconnect) }
    }
}
