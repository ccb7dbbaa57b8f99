/// The node's TX result notification (characteristic 2ADA), 8 bytes:
/// `01 ble_seq error(u16 LE) f_cnt(u32 LE)`. The node sends it only after a successful transmission.
public struct TXResult: Sendable, Hashable {
    public static let formatByte: UInt8 = 0x01
    public static let byteCount = 8

    public var bleSequence: UInt8
    public var error: UInt16
    public var frameCounter: UInt32

    public init(bleSequence: UInt8, error: UInt16, frameCounter: UInt32) {
        self.bleSequence = bleSequence
        self.error = error
        self.frameCounter = frameCounter
    }

    public init(bytes: [UInt8]) throws {
        guard bytes.count == Self.byteCount else {
            throw PayloadError.wrongLength(kind: "TX result", expected: Self.byteCount, got: bytes.count)
        }
        guard bytes[0] == Self.formatByte else { throw PayloadError.unknownFormat(bytes[0]) }
        bleSequence = bytes[1]
        error = ByteCoding.uint16LE(bytes[2...3])
        frameCounter = ByteCoding.uint32LE(bytes[4...7])
    }

    public var bytes: [UInt8] {
        var out: [UInt8] = [Self.formatByte, bleSequence]
        ByteCoding.appendUInt16LE(error, to: &out)
        ByteCoding.appendUInt32LE(frameCounter, to: &out)
        return out
    }
}
