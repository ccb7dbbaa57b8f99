/// The coverage aggregates: cells per gateway antenna, reach, gateways, kept as records are stored and rebuilt on demand.
public struct StoreCoverage: StorePart {
    let store: Store
}

extension Store {
    /// Its part `StoreCoverage`.
    public var coverage: StoreCoverage { StoreCoverage(store: self) }
}
