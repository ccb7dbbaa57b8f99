import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// What a running collection lets the map see of it.
public struct RunView: Sendable {
    public var session: Int64
    public var stats: @Sendable () -> CollectionStats

    public init(session: Int64, stats: @escaping @Sendable () -> CollectionStats) {
        self.session = session
        self.stats = stats
    }
}

/// The map's Server-Sent Events: each second the status block (when it changed) and every sample
/// stored since (an attempt the network did not hear once its uplink had 30 s to come). Reads the
/// database, so `mtt serve` beside a collection shows what the collection writes. Each client has
/// its own small buffer: one that falls behind loses old events, never holds up the others or
/// the collection.
final class LiveFeed: Sendable {
    /// Seconds an attempt waits for its uplink before the map shows it unheard.
    static let uplinkGrace = 30.0

    private let store: Store
    private let run: RunView?
    private let clients = Mutex<[ObjectIdentifier: EventQueue]>([:])
    private let latest = Mutex<[UInt8]?>(nil)
    private let poller = Mutex<Task<Void, Never>?>(nil)

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

    private func poll() async {
        var newest = (try? store.newestRecordIDs()) ?? (sample: 0, attempt: 0)
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            do {
                // Each second, changed or not: it carries the time, and tells the page it is live.
                let status = try Self.event("status", try status())
                latest.withLock { $0 = status }
                broadcast(status)
                var filter = ExportFilter()
                filter.newer = .init(sample: newest.sample, attempt: newest.attempt, resolvedBy: Timestamp.now().adding(seconds: -Self.uplinkGrace))
                try store.forEachExportRecord(filter) { record in
                    let id = Int64(record.id.dropFirst()) ?? 0
                    if record.id.hasPrefix("s") { newest.sample = max(newest.sample, id) } else { newest.attempt = max(newest.attempt, id) }
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
