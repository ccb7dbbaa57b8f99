/// The upload queues: what waits for each target, claimed, sent or refused, and the kinds a server does not take.
public struct StoreSyncQueue: StorePart {
    let store: Store
}

extension Store {
    /// Its part `StoreSyncQueue`.
    public var sync: StoreSyncQueue { StoreSyncQueue(store: self) }
}
