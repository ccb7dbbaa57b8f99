/// FNV-1a, 64 bits: a stable hash of bytes (Swift's own is seeded per process) where nobody
/// gains by a collision: a file recognised again, a simulated network's choices, a tile's ETag.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    public init() {}

    public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
    }

    public static func of(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = FNV1a()
        hash.add(bytes)
        return hash.value
    }
}
