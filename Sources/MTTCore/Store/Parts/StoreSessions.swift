/// The sessions: started, ended, named, listed, excluded from uploads and deleted.
public struct StoreSessions: StorePart {
    let store: Store
}

extension Store {
    /// Its part `StoreSessions`.
    public var sessions: StoreSessions { StoreSessions(store: self) }
}
