import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// What a running collection lets the map see of it: its numbers and what it reports.
public struct RunView: Sendable {
    public var session: Int64
    public var stats: @Sendable () -> CollectionStats
    /// A new follower of the run's events (`CollectionRun.events()`).
    public var events: @Sendable () -> AsyncStream<CollectEvent>

    public init(session: Int64, stats: @escaping @Sendable () -> CollectionStats, events: @escaping @Sendable () -> AsyncStream<CollectEvent>) {
        self.session = session
        self.stats = stats
        self.events = events
    }
}

/// The map's Server-Sent Events: each second the status block, and every sample stored since (an
/// attempt the network did not hear once its uplink had 30 s to come). Under `mtt collect --web`
/// it follows the run's events and reads the database only for what they say was stored; under
/// `mtt serve` (a collection elsewhere, or none) it looks at the database each second. Each
/// client has its own small buffer: one that falls behind loses old events, never holds up the
/// others or the collection.
final class LiveFeed: Sendable {
    /// Seconds an attempt waits for its uplink before the map shows it unheard.
    static let uplinkGrace = 30.0

    private let store: Store
    private let run: RunView?
    private let clients = Mutex<[ObjectIdentifier: EventQueue]>([:])
    private let latest = Mutex<[UInt8]?>(nil)
    private let poller = Mutex<Task<Void, Never>?>(nil)
    private let due = Mutex(Due())

    init(store: Store, run: RunView?) {
        self.store = store
        self.run = run
    }

    /// The status block now.
    func status() throws -> LiveStatus {
        LiveStatus(store: try store.status(), run: run.map { LiveStatus.Run(session: $0.session, stats: $0.stats()) })
    }

    /// A new client's queue: the current status first, then what comes. Closed by the client's
    /// writer when it goes.
    func subscribe() -> EventQueue {
        let queue = EventQueue()
        clients.withLock { $0[ObjectIdentifier(queue)] = queue }
        queue.put(Array("retry: 2000\n\n".utf8))
        if let status = latest.withLock({ $0 }) ?? (try? Self.event("status", try status())) { queue.put(status) }
        startIfNeeded()
        return queue
    }

    func stop() {
        poller.withLock { $0?.cancel() }
        for client in clients.withLock({ Array($0.values) }) { client.close() }
    }

    private func startIfNeeded() {
        poller.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in await self?.poll() }
        }
    }

    /// What the database may hold that the page has not seen: all of it when nothing tells
    /// (`mtt serve`), else what the run reported since the last look.
    private struct Due {
        /// A sample was stored.
        var samples = false
        /// When attempts settled by the run may be shown unheard (wall time, as `resolvedBy`).
        var attempts: [Timestamp] = []
    }

    private func poll() async {
        let follower = run.map { run in
            Task { [weak self] in
                for await event in run.events() {
                    switch event {
                    case .sample, .heard, .joined: self?.due.withLock { $0.samples = true }
                    case .confirmed, .failed: self?.due.withLock { $0.attempts.append(Timestamp.now().adding(seconds: Self.uplinkGrace)) }
                    default: break
                    }
                }
            }
        }
        defer { follower?.cancel() }
        var newest = (try? store.newestRecordIDs()) ?? (sample: 0, attempt: 0)
        var stored = try? store.status()
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            do {
                let now = Timestamp.now()
                let look = run == nil || due.withLock { due in
                    let passed = due.attempts.contains { $0 <= now }
                    defer {
                        due.samples = false
                        due.attempts.removeAll { $0 <= now }
                    }
                    return due.samples || passed
                }
                if look || stored == nil { stored = try store.status() }
                // Each second, changed or not: it carries the time, and tells the page it is live.
                let status = try Self.event("status", LiveStatus(store: stored!, run: run.map { LiveStatus.Run(session: $0.session, stats: $0.stats()) }))
                latest.withLock { $0 = status }
                broadcast(status)
                guard look else { continue }
                var filter = ExportFilter()
                filter.newer = .init(sample: newest.sample, attempt: newest.attempt, resolvedBy: now.adding(seconds: -Self.uplinkGrace))
                try store.forEachExportRecord(filter) { record in
                    switch record.key {
                    case .sample(let id): newest.sample = max(newest.sample, id)
                    case .attempt(let id): newest.attempt = max(newest.attempt, id)
                    }
                    broadcast(Array("event: sample\ndata: \(GeoJSONFeature.text(record))\n\n".utf8))
                }
            } catch {
                broadcast(Array("event: problem\ndata: \(JSONString.quoted("\(error)"))\n\n".utf8))
            }
        }
    }

    private func broadcast(_ bytes: [UInt8]) {
        let open = clients.withLock { list in
            list = list.filter { !$0.value.isClosed }
            return Array(list.values)
        }
        for client in open { client.put(bytes) }
    }

    static func event(_ name: String, _ value: some Encodable) throws -> [UInt8] {
        var data = try JSONEncoder.stable().encode(value)
        data.insert(contentsOf: Array("event: \(name)\ndata: ".utf8), at: 0)
        data.append(contentsOf: Array("\n\n".utf8))
        return [UInt8](data)
    }
}
