/// The last uplinks heard without an attempt, for the join that may still name them.
struct UnjoinedUplinks {
    static let capacity = 256
    private var slots: [(id: Int64, uplink: Uplink)?] = []
    private var next = 0

    mutating func add(_ uplink: Uplink, id: Int64) {
        if slots.count < Self.capacity {
            slots.append((id, uplink))
        } else {
            slots[next] = (id, uplink)
        }
        next = (next + 1) % Self.capacity
    }

    /// The uplink with this id, taken out; nil when it was never here or has been overwritten.
    mutating func take(_ id: Int64) -> Uplink? {
        guard let index = slots.firstIndex(where: { $0?.id == id }) else { return nil }
        defer { slots[index] = nil }
        return slots[index]?.uplink
    }
}
