/// Hands out a target's queue to the upload workers, a page at a time, kind after kind.
/// Pages follow record ids upward, so work in flight is never handed out twice.
actor SyncWorkFeed<Destination: SyncDestination> {
    private let store: Store
    private let destination: Destination
    private let pageSize: Int
    private let scope: SyncScope
    private var kinds: [SyncRecordKind]
    private var cursor: Int64 = 0
    private var buffer: [SyncWork<Destination.Request>] = []
    /// Kinds the server answered 404/405 for in this run, with what it said.
    private(set) var refused: [SyncRecordKind: String] = [:]

    /// - Parameter skipping: kinds not to hand out (the server does not take them).
    init(store: Store, destination: Destination, policy: SyncPolicy, skipping: Set<SyncRecordKind> = []) {
        self.store = store
        self.destination = destination
        pageSize = policy.pageSize
        scope = policy.scope
        kinds = destination.target.queues.map(\.kind).filter { !skipping.contains($0) }
    }

    func next() throws -> SyncWork<Destination.Request>? {
        while buffer.isEmpty {
            guard let kind = kinds.first else { return nil }
            let ids = try store.sync.syncQueue(
                destination.target, kind: kind, after: cursor, limit: pageSize, includingHeld: destination.includesHeld, scope: scope)
            guard let last = ids.last else {
                kinds.removeFirst()
                cursor = 0
                continue
            }
            cursor = last
            // Requests that carry several records take them in groups of the destination's batch size.
            let size = destination.batchSize(for: kind)
            for start in stride(from: 0, to: ids.count, by: size) {
                buffer += try destination.work(for: kind, ids: Array(ids[start..<min(ids.count, start + size)]), store: store)
            }
            buffer.reverse()
        }
        return buffer.popLast()
    }

    /// Leaves the rest of a kind queued: the server does not take it.
    func refuse(_ kind: SyncRecordKind, reason: String) {
        guard refused[kind] == nil else { return }
        refused[kind] = reason
        buffer.removeAll { work in
            if case .upload(let batch) = work { return batch.kind == kind }
            return false
        }
        if kinds.first == kind {
            kinds.removeFirst()
            cursor = 0
        }
    }
}
