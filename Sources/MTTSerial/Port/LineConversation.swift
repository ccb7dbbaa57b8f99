import MTTCore

/// Commands and replies over a line-based serial device: write a line, wait for the next one.
/// Lines with bytes that are not printable ASCII (noise from a cold start, a wrong baud rate)
/// are counted and dropped, never handed to a driver.
actor LineConversation {
    enum Reply: Equatable {
        case line(String)
        case timedOut
        case closed(String)
    }

    private let port: SerialPort
    private var buffer: [String] = []
    private var waiter: (id: Int, continuation: CheckedContinuation<Reply, Never>)?
    private var nextWaiterID = 0
    private var ended = false
    /// What a command's timeout runs on.
    private let clock: any TimeSource
    private(set) var droppedLines = 0

    init(port: SerialPort, clock: any TimeSource = SystemClock()) {
        self.clock = clock
        self.port = port
    }

    /// Opens the device a spec names and starts reading it.
    static func open(_ spec: SerialNodeSpec) async throws(SerialPortError) -> LineConversation {
        let conversation = LineConversation(port: try SerialPort(path: spec.path, baud: spec.baud))
        await conversation.start()
        return conversation
    }

    func start() {
        let lines = port.lines()
        Task { [weak self] in
            for await raw in lines { await self?.receive(raw) }
            await self?.end()
        }
    }

    var portName: String { port.path }

    func send(_ line: String, timeout: Double) throws(SerialPortError) {
        try port.write(Array((line + "\r\n").utf8), timeout: timeout)
    }

    /// Drops what arrived unasked (late answers of a timed-out command) before a new command.
    func discardPending() {
        buffer.removeAll()
    }

    func next(timeout: Double) async -> Reply {
        if !buffer.isEmpty { return .line(buffer.removeFirst()) }
        if ended { return .closed(port.closeReason ?? "\(port.path) was closed") }
        nextWaiterID += 1
        let id = nextWaiterID
        return await withCheckedContinuation { continuation in
            waiter = (id, continuation)
            Task { [weak self, clock] in
                try? await clock.sleep(seconds: timeout)
                await self?.expire(id)
            }
        }
    }

    /// The next line that `accepts`, skipping others (echoes, noise, stray events), within `timeout`.
    func next(timeout: Double, accepting accepts: (String) -> Bool) async -> Reply {
        let deadline = clock.now().adding(seconds: timeout)
        while true {
            let left = deadline.seconds(since: clock.now())
            guard left > 0 else { return .timedOut }
            let reply = await next(timeout: left)
            guard case .line(let line) = reply else { return reply }
            if accepts(line) { return reply }
            droppedLines += 1
        }
    }

    private func expire(_ id: Int) {
        guard let w = waiter, w.id == id else { return }
        waiter = nil
        w.continuation.resume(returning: .timedOut)
    }

    private func receive(_ raw: [UInt8]) {
        guard let line = LineSplitter.text(of: raw) else {
            droppedLines += 1
            return
        }
        if let w = waiter {
            waiter = nil
            w.continuation.resume(returning: .line(line))
        } else {
            buffer.append(line)
        }
    }

    private func end() {
        ended = true
        if let w = waiter {
            waiter = nil
            w.continuation.resume(returning: .closed(port.closeReason ?? "\(port.path) was closed"))
        }
    }

    func close() {
        port.close()
    }
}
