/// Fixed-width integer reading and writing for the node's payloads, which mix byte orders.
enum ByteCoding {
    static func int24LE(_ bytes: ArraySlice<UInt8>) -> Int32 {
        let i = bytes.startIndex
        return signExtend24(UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16)
    }

    static func int24BE(_ bytes: ArraySlice<UInt8>) -> Int32 {
        let i = bytes.startIndex
        return signExtend24(UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]))
    }

    static func appendInt24LE(_ value: Int32, to bytes: inout [UInt8]) {
        let u = UInt32(bitPattern: value)
        bytes += [UInt8(u & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u >> 16 & 0xFF)]
    }

    static func appendInt24BE(_ value: Int32, to bytes: inout [UInt8]) {
        let u = UInt32(bitPattern: value)
        bytes += [UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
    }

    static func uint24BE(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        let i = bytes.startIndex
        return UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
    }

    static func int32BE(_ bytes: ArraySlice<UInt8>) -> Int32 {
        let i = bytes.startIndex
        return Int32(bitPattern: UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3]))
    }

    static func uint16LE(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        let i = bytes.startIndex
        return UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
    }

    static func uint16BE(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        let i = bytes.startIndex
        return UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
    }

    static func uint32LE(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        let i = bytes.startIndex
        return UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }

    static func appendUInt16LE(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    static func appendUInt16BE(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    static func appendUInt32BE(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func appendUInt32LE(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    private static func signExtend24(_ value: UInt32) -> Int32 {
        Int32(bitPattern: value << 8) >> 8
    }
}
