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
    private let clock: any TimeSource

    init(store: Store, run: RunView?, clock: any TimeSource = SystemClock()) {
        self.store = store
        self.run = run
        self.clock = clock
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

    /// Whether the database may hold what the page has not seen: always when nothing tells
    /// (`mtt serve`), else when the run reported a sample or an attempt's outcome since the last look.
    private struct Due {
        var changed = false
    }

    private func poll() async {
        let follower = run.map { run in
            Task { [weak self] in
                for await event in run.events() {
                    switch event {
                    case .sample, .heard, .joined, .confirmed, .failed: self?.due.withLock { $0.changed = true }
                    default: break
                    }
                }
            }
        }
        defer { follower?.cancel() }
        var newest = (try? store.records.newestRecordIDs()) ?? (sample: 0, attempt: 0)
        var stored = try? store.status()
        // Settled attempts nobody has heard yet, since when (this feed's clock): each is shown
        // unheard once it has stayed so for `uplinkGrace`. Not by its own times: a simulated run's
        // clock ends at the wall clock, so its records are stamped in the past.
        var waiting: [Int64: Timestamp] = [:]
        // Shown already, above where the next look starts (it starts below the oldest waiting).
        var shownAbove: Set<Int64> = []
        while !Task.isCancelled {
            try? await clock.sleep(seconds: 1)
            do {
                let now = clock.now()
                let look = run == nil || !waiting.isEmpty || due.withLock { due in
                    defer { due.changed = false }
                    return due.changed
                }
                if look || stored == nil { stored = try store.status() }
                // Each second, changed or not: it carries the time, and tells the page it is live.
                let status = try Self.event("status", LiveStatus(store: stored!, run: run.map { LiveStatus.Run(session: $0.session, stats: $0.stats()) }))
                latest.withLock { $0 = status }
                broadcast(status)
                guard look else { continue }
                var filter = ExportFilter()
                filter.newer = .init(sample: newest.sample, attempt: newest.attempt)
                var unheard: Set<Int64> = [], shown: Set<Int64> = [], latestAttempt = newest.attempt
                try store.records.forEachExportRecord(filter) { record in
                    switch record.key {
                    case .sample(let id):
                        newest.sample = max(newest.sample, id)
                    case .attempt(let id):
                        latestAttempt = max(latestAttempt, id)
                        if shownAbove.contains(id) { return }
                        let since = waiting[id] ?? now
                        waiting[id] = since
                        unheard.insert(id)
                        guard now.seconds(since: since) >= Self.uplinkGrace else { return }
                        shown.insert(id)
                    }
                    broadcast(Array("event: sample\ndata: \(GeoJSONFeature.text(record))\n\n".utf8))
                }
                // Heard meanwhile (their sample came instead) or shown: no longer waiting. The next
                // look starts below the oldest still waiting.
                waiting = waiting.filter { unheard.contains($0.key) && !shown.contains($0.key) }
                newest.attempt = waiting.keys.min().map { $0 - 1 } ?? latestAttempt
                shownAbove = shownAbove.union(shown).filter { $0 > newest.attempt }
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
