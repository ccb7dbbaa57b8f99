/// The records a run takes: fixes, attempts and their outcomes, heard uplinks, samples, node states and field events, and how they are read back.
public struct StoreRecords: StorePart {
    let store: Store
}

extension Store {
    /// Its part `StoreRecords`.
    public var records: StoreRecords { StoreRecords(store: self) }
}
