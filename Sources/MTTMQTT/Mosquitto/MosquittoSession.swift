import Dispatch
import FoundationEssentials
import MTTCore
import Glibc
import Synchronization

/// A subscribing MQTT connection over `MosquittoClient`: the network loop, reconnecting, batching
/// and what the user is told.
///
/// The network loop runs on a thread of mtt's own rather than `mosquitto_loop_start`'s, for one
/// reason: libmosquitto's loop reads one packet per `select`, and hands each message to the
/// callback alone. Here, after each `mosquitto_loop`, the thread goes on reading while messages
/// arrive, and the callbacks' events reach the stream as one batch per pass: a burst crosses into
/// Swift concurrency a few hundred messages at a time instead of one. The callbacks copy what they
/// are given and do no other work. Reconnecting follows `mosquitto_loop_forever`.
final class MosquittoSession: Sendable {
    private struct State {
        var lossReported = false
        /// Refused credentials: no more events, whatever the loop does until it is stopped.
        var gaveUp = false
        var stopped = false
        /// The network loop's thread has returned: the client is no longer used there.
        var loopEnded = false
        /// Reconnects since the last connection, for the delay.
        var reconnects = 0
    }

    /// Messages handed over in one batch at most; a longer burst goes as several.
    static let batchLimit = 256

    private let client: MosquittoClient
    private let settings: MQTTSettings
    private let topics: [String]
    private let continuation: AsyncStream<[MQTTEvent]>.Continuation
    private let credits: MessageCredits?
    private let state = Mutex(State())
    /// Events of the current pass of the loop, not yet yielded.
    private let pending = Mutex<[MQTTEvent]>([])
    /// Messages the callback has taken, so the loop can tell a read that delivered one from one that did not.
    private let messagesTaken = Atomic<Int>(0)
    /// Wakes the loop from a reconnect delay when the session stops.
    private let wake = DispatchSemaphore(value: 0)

    init(
        settings: MQTTSettings, topics: [String], credits: MessageCredits? = nil,
        continuation: AsyncStream<[MQTTEvent]>.Continuation
    ) throws(MQTTError) {
        client = try MosquittoClient(clientID: settings.clientID, settings: settings)
        self.settings = settings
        self.topics = topics
        self.continuation = continuation
        self.credits = credits
    }

    func start() {
        // The handlers hold this session until stop() has destroyed the client.
        client.setHandlers(MosquittoClient.Handlers(
            connected: { [self] rc in connected(rc: rc) },
            disconnected: { [self] rc in disconnected(rc: rc) },
            message: { [self] topic, payload in received(.message(topic: topic, payload: payload)) },
            errorLogged: { [self] line in loggedError(line) }))
        // The log is only needed while connecting (see `loggedError`): followed about 5 % of a
        // listener's CPU in a burst.
        client.followErrorLog(true)

        let result = client.connectAsync(settings.endpoint, keepAlive: settings.keepAlive)
        if !result.isSuccess {
            // The loop below keeps retrying; the user hears why the first try failed.
            reportLoss(connectFailure(result, errno: errno))
        }
        // From here calls from other threads (disconnect in stop) queue their packets and wake the
        // loop instead of writing themselves. (Set after the first connect, as mosquitto_loop_start
        // would be, so that a refused loopback connection is reported as refused at once.)
        client.setThreaded()
        BlockingThread.start(name: "mqtt network") { [self] in
            runLoop()
            let stopped = state.withLock { state in
                state.loopEnded = true
                return state.stopped
            }
            if stopped { client.destroy() }
        }
    }

    /// Stops the loop and returns at once; the client is destroyed by whichever of the loop's end
    /// and this comes last. Never waits for the loop: this runs as the stream's `onTermination`,
    /// inside the cancellation of the task that reads it, and the loop's `yield` to that very task
    /// waits for the cancellation to finish (a deadlock seen in a suite run: a pool thread blocked
    /// for good, every other test starved).
    func stop() {
        let (alreadyStopped, loopEnded) = state.withLock { state in
            defer { state.stopped = true }
            // Under the lock: the loop's thread destroys the client only after taking it, so the
            // client is still there. Queued for the loop (`setThreaded`), no callback runs here.
            if !state.stopped && !state.loopEnded { client.disconnect() }
            return (state.stopped, state.loopEnded)
        }
        guard !alreadyStopped else { return }
        credits?.close()
        wake.signal()
        if loopEnded { client.destroy() }
    }

    // MARK: The network loop

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func runLoop() {
        var keepAlive = KeepAlive(seconds: settings.keepAlive)
        while !isStopped {
            if let credits, credits.mustWait() {
                // Reading nothing, the connection still has to show it is there.
                keepAlive.nudgeIfDue(client)
                _ = client.loopWrite()
                credits.waitForCredits(timeout: .seconds(1))
                continue
            }
            var result = client.loop(timeoutMilliseconds: 1000)
            if result.isSuccess { result = readWhileMessagesArrive() }
            flush()
            if result.isSuccess {
                keepAlive.nudgeIfDue(client)
                continue
            }
            if result.isFatal || errno == EPROTO {
                reportLoss("the MQTT connection to \(settings.endpoint) failed: \(result.text)")
                flush()
                return
            }
            reconnect()
        }
    }

    /// After a pass that read something, reads on until a read brings no message (the socket is
    /// empty, or the packet was not a message), a batch is full or the credits run out.
    private func readWhileMessagesArrive() -> MosquittoClient.Result {
        var count = 0
        while count < Self.batchLimit, credits?.mustWait() != true {
            let before = messagesTaken.load(ordering: .relaxed)
            let result = client.loopRead()
            guard result.isSuccess else { return result }
            guard messagesTaken.load(ordering: .relaxed) != before else { break }
            count += 1
        }
        return .success
    }

    /// Waits the reconnect delay (doubling from the first to the last of `reconnectDelay`), then
    /// tries until a connection starts or the session stops.
    private func reconnect() {
        while !isStopped {
            let attempt = state.withLock { state in
                defer { state.reconnects += 1 }
                return state.reconnects
            }
            let delay = min(settings.reconnectDelay.upperBound, settings.reconnectDelay.lowerBound << min(attempt, 16))
            _ = wake.wait(timeout: .now() + .seconds(delay))
            if isStopped { return }
            client.followErrorLog(true)
            let result = client.reconnect()
            if result.isSuccess { return }
            reportLoss(connectFailure(result, errno: errno))
            flush()
        }
    }

    /// A message from the callback: copied and kept for the batch, nothing more (see `MessageCredits`).
    private func received(_ event: MQTTEvent) {
        credits?.take()
        pending.withLock { $0.append(event) }
        messagesTaken.add(1, ordering: .relaxed)
    }

    /// An event for the stream, in order with the messages around it.
    private func emit(_ event: MQTTEvent) {
        pending.withLock { $0.append(event) }
    }

    /// Hands the events so far to the stream as one batch; yielding under the lock keeps batches in order.
    private func flush() {
        pending.withLock { events in
            guard !events.isEmpty else { return }
            continuation.yield(events)
            events.removeAll(keepingCapacity: true)
        }
    }

    private func connected(rc: Int32) {
        let endpoint = settings.endpoint
        switch rc {
        case 0:
            for topic in topics { client.subscribe(topic) }
            state.withLock {
                $0.lossReported = false
                $0.reconnects = 0
            }
            client.followErrorLog(false)
            emit(.connected)
        case 4, 5:
            // MQTT 3.1.1 CONNACK 4 "bad user name or password", 5 "not authorised": retrying cannot help.
            let who = settings.username.map { " for \($0)" } ?? ""
            emit(.failed(reason: "\(endpoint.host):\(endpoint.port) refused the credentials\(who) (\(MosquittoClient.connackText(rc)), CONNACK \(rc)): check the username and the API key"))
            flush()
            state.withLock { $0.gaveUp = true }
            client.disconnect()
            // Not on this thread: finishing runs onTermination, whose stop() takes the state lock
            // and calls into the client, from inside the client's own callback.
            let continuation = self.continuation
            DispatchQueue.global().async { continuation.finish() }
        default:
            reportLoss("\(endpoint.host):\(endpoint.port) refused the connection: \(MosquittoClient.connackText(rc))")
        }
    }

    private func disconnected(rc: Int32) {
        guard rc != 0, !state.withLock({ $0.stopped || $0.gaveUp }) else { return }
        let endpoint = settings.endpoint
        reportLoss("lost the connection to \(endpoint.host):\(endpoint.port): \(MosquittoClient.Result(code: rc).text)")
    }

    /// A failed TLS handshake never reaches the connect or disconnect callbacks: libmosquitto only
    /// logs OpenSSL's reason and tries again. That line is the one place the user's answer is.
    private func loggedError(_ line: String) {
        let endpoint = settings.endpoint
        guard endpoint.usesTLS, line.contains("OpenSSL") || line.contains("certificate") || line.contains("SSL") else { return }
        reportLoss("TLS with \(endpoint.host):\(endpoint.port) failed: \(Self.tlsReason(line)); a server with a private CA needs that CA's certificate")
    }

    private func connectFailure(_ result: MosquittoClient.Result, errno code: Int32) -> String {
        let endpoint = settings.endpoint
        if result.isUnknownHost {
            return "cannot find the MQTT server \(endpoint.host) (unknown host)"
        }
        if result.isSystemError {
            if code == ECONNREFUSED {
                return "\(endpoint.host):\(endpoint.port) refused the connection (is the MQTT server running?)"
            }
            return "cannot connect to \(endpoint.host):\(endpoint.port): \(String(cString: strerror(code)))"
        }
        return "cannot connect to \(endpoint.host):\(endpoint.port): \(result.text)"
    }

    /// Only the first loss of an outage is reported; retries stay quiet until the next `.connected`.
    private func reportLoss(_ reason: String) {
        let first = state.withLock { state in
            defer { state.lossReported = true }
            return !state.lossReported && !state.stopped && !state.gaveUp
        }
        if first {
            emit(.lost(reason: reason))
            flush()
        }
    }

    /// The useful part of an OpenSSL error line, e.g. "certificate verify failed".
    private static func tlsReason(_ line: String) -> String {
        if let range = line.range(of: "::") { return String(line[range.upperBound...]) }
        if let last = line.split(separator: ":").last { return last.trimmingCharacters(in: .whitespaces) }
        return line
    }

    /// Something written to the server every half keep-alive, whatever else happens.
    ///
    /// MQTT's keep-alive sees only what a client writes, and a subscriber writes nothing but pings.
    /// Two ways that loses a backlog, both seen with 200,000 uplinks waiting on a store another
    /// program kept locked: while this thread reads nothing (out of credits) it sends no ping, and
    /// the server closes the connection after 1.5 keep-alives; while it reads a long backlog, the
    /// server's answer to a ping comes behind every message queued before it, and libmosquitto
    /// closes the connection itself when that answer is a keep-alive late. Either way the clean
    /// session's queue, the backlog, is gone. An UNSUBSCRIBE of a topic never subscribed changes
    /// nothing at the server (MQTT 3.1.1, 3.10.4: it answers UNSUBACK all the same), and each one
    /// written puts libmosquitto's next ping a keep-alive later. A connection that really is dead
    /// is still found: with nothing coming in for a keep-alive, libmosquitto pings, and closes the
    /// connection when no answer comes in the next.
    private struct KeepAlive {
        static let topic = "mtt/keep-alive"
        let interval: Duration
        var due = ContinuousClock.now

        init(seconds: Int) {
            interval = .seconds(max(1, seconds / 2))
        }

        mutating func nudgeIfDue(_ client: MosquittoClient) {
            let now = ContinuousClock.now
            guard now >= due else { return }
            // Not connected, libmosquitto refuses it: nothing to keep alive.
            client.unsubscribe(Self.topic)
            due = now + interval
        }
    }
}
