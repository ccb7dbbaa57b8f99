/// What the next plain sync to TTN Mapper's main map would hold back, and why: the same rules the
/// upload applies (the quality gate, trackers' own positions), over the samples waiting, so
/// `mtt status --reasons` says it before a sync does.
public struct TTNMapperGatePreview: Sendable, Hashable {
    /// Waiting samples that fail the gate.
    public var count = 0
    /// The newest of them, with their reasons.
    public var newest: [SyncMessage] = []

    public init(store: Store, gate: TTNMapperQualityGate = TTNMapperQualityGate(), sendsTrackers: Bool = false, limit: Int) throws {
        var after: Int64 = 0
        while true {
            let ids = try store.sync.syncQueue(.ttnmapper, kind: .sample, after: after, limit: 500)
            guard let last = ids.last else { break }
            after = last
            for sample in try store.sync.queuedSamples(ids) {
                guard let reason = TTNMapperDestination.holdReason(sample, gate: gate, sendsTrackers: sendsTrackers) else { continue }
                count += 1
                newest.append(SyncMessage(target: .ttnmapper, state: .held, kind: .sample, recordID: sample.id, message: reason, atNextSync: true))
                if newest.count > limit { newest.removeFirst() }
            }
        }
        newest.reverse()
    }
}
