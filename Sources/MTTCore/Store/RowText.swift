/// Where a row's text and blobs wait for `sqlite3_step`. Bound as SQLITE_TRANSIENT, each string
/// costs SQLite an allocation, a copy and a free; copied here, they are bound in place
/// (SQLITE_STATIC). Holds one row: `RowInsert` empties it when it starts a row, so a row must be
/// bound and run before the next one starts, as every insert in the store does.
final class RowText {
    private let buffer: UnsafeMutableRawBufferPointer
    private var used = 0

    /// A listener's uplink row (its ids, payload, network) takes a few hundred bytes; longer text
    /// goes to SQLite to copy.
    init(capacity: Int = 4096) {
        buffer = .allocate(byteCount: capacity, alignment: 8)
        buffer.bindMemory(to: CChar.self)
    }

    deinit {
        buffer.deallocate()
    }

    func startRow() {
        used = 0
    }

    /// A copy of `bytes` that stays put until the next `startRow()`; nil when the row is full.
    func keep(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        guard bytes.count <= buffer.count - used, let base = buffer.baseAddress else { return nil }
        let copy = base + used
        if let source = bytes.baseAddress { copy.copyMemory(from: source, byteCount: bytes.count) }
        used += bytes.count
        return UnsafeRawPointer(copy)
    }
}
