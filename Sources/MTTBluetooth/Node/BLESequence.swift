/// The node's `ble_seq`: 1…255 per connection, wrapping past 255 to 1, because 0 means untracked.
/// (The original app let it overflow and crashed.)
struct BLESequence {
    private var next: UInt8 = 1

    mutating func take() -> UInt8 {
        let value = next
        next = next == 255 ? 1 : next + 1
        return value
    }
}
