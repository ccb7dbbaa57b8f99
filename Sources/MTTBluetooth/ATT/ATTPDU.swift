/// The ATT protocol data units mtt sends and receives (Core spec Vol 3 Part F 3.4), as values.
/// Multi-byte fields are little-endian. `init(bytes:)` never traps on bad input: it throws.
public enum ATTPDU: Sendable, Hashable {
    case errorResponse(request: UInt8, handle: UInt16, error: ATTErrorCode)
    case exchangeMTURequest(mtu: UInt16)
    case exchangeMTUResponse(mtu: UInt16)
    case findInformationRequest(start: UInt16, end: UInt16)
    case findInformationResponse([(handle: UInt16, type: BluetoothUUID)])
    case readByTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByTypeResponse([(handle: UInt16, value: [UInt8])])
    case readRequest(handle: UInt16)
    case readResponse([UInt8])
    case readBlobRequest(handle: UInt16, offset: UInt16)
    case readBlobResponse([UInt8])
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByGroupTypeResponse([(handle: UInt16, endGroup: UInt16, value: [UInt8])])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case writeCommand(handle: UInt16, value: [UInt8])
    case notification(handle: UInt16, value: [UInt8])
    case indication(handle: UInt16, value: [UInt8])
    case confirmation

    public enum Opcode: UInt8, Sendable {
        case errorResponse = 0x01, exchangeMTURequest = 0x02, exchangeMTUResponse = 0x03
        case findInformationRequest = 0x04, findInformationResponse = 0x05
        case readByTypeRequest = 0x08, readByTypeResponse = 0x09
        case readRequest = 0x0A, readResponse = 0x0B, readBlobRequest = 0x0C, readBlobResponse = 0x0D
        case readByGroupTypeRequest = 0x10, readByGroupTypeResponse = 0x11
        case writeRequest = 0x12, writeResponse = 0x13, writeCommand = 0x52
        case notification = 0x1B, indication = 0x1D, confirmation = 0x1E
    }

    public var opcode: Opcode {
        switch self {
        case .errorResponse: return .errorResponse
        case .exchangeMTURequest: return .exchangeMTURequest
        case .exchangeMTUResponse: return .exchangeMTUResponse
        case .findInformationRequest: return .findInformationRequest
        case .findInformationResponse: return .findInformationResponse
        case .readByTypeRequest: return .readByTypeRequest
        case .readByTypeResponse: return .readByTypeResponse
        case .readRequest: return .readRequest
        case .readResponse: return .readResponse
        case .readBlobRequest: return .readBlobRequest
        case .readBlobResponse: return .readBlobResponse
        case .readByGroupTypeRequest: return .readByGroupTypeRequest
        case .readByGroupTypeResponse: return .readByGroupTypeResponse
        case .writeRequest: return .writeRequest
        case .writeResponse: return .writeResponse
        case .writeCommand: return .writeCommand
        case .notification: return .notification
        case .indication: return .indication
        case .confirmation: return .confirmation
        }
    }

    // MARK: Encoding

    public var bytes: [UInt8] {
        var out: [UInt8] = [opcode.rawValue]
        func u16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        switch self {
        case .errorResponse(let request, let handle, let error):
            out.append(request)
            u16(handle)
            out.append(error.rawValue)
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            u16(mtu)
        case .findInformationRequest(let start, let end):
            u16(start)
            u16(end)
        case .findInformationResponse(let pairs):
            let isShort = pairs.first.map { if case .short = $0.type { true } else { false } } ?? true
            out.append(isShort ? 0x01 : 0x02)
            for pair in pairs {
                u16(pair.handle)
                out += pair.type.wire
            }
        case .readByTypeRequest(let start, let end, let type), .readByGroupTypeRequest(let start, let end, let type):
            u16(start)
            u16(end)
            out += type.wire
        case .readByTypeResponse(let items):
            out.append(UInt8(2 + (items.first?.value.count ?? 0)))
            for item in items {
                u16(item.handle)
                out += item.value
            }
        case .readByGroupTypeResponse(let items):
            out.append(UInt8(4 + (items.first?.value.count ?? 0)))
            for item in items {
                u16(item.handle)
                u16(item.endGroup)
                out += item.value
            }
        case .readRequest(let handle):
            u16(handle)
        case .readResponse(let value), .readBlobResponse(let value):
            out += value
        case .readBlobRequest(let handle, let offset):
            u16(handle)
            u16(offset)
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
             .notification(let handle, let value), .indication(let handle, let value):
            u16(handle)
            out += value
        case .writeResponse, .confirmation:
            break
        }
        return out
    }

    // MARK: Decoding

    public init(bytes: [UInt8]) throws(ATTDecodeError) {
        guard let first = bytes.first else { throw .empty }
        guard let opcode = Opcode(rawValue: first) else { throw .unknownOpcode(first) }
        var reader = ByteReader(bytes: bytes[1...], opcode: opcode)
        switch opcode {
        case .errorResponse:
            self = .errorResponse(request: try reader.u8(), handle: try reader.u16(), error: ATTErrorCode(try reader.u8()))
        case .exchangeMTURequest:
            self = .exchangeMTURequest(mtu: try reader.u16())
        case .exchangeMTUResponse:
            self = .exchangeMTUResponse(mtu: try reader.u16())
        case .findInformationRequest:
            self = .findInformationRequest(start: try reader.u16(), end: try reader.u16())
        case .findInformationResponse:
            let format = try reader.u8()
            let uuidLength: Int
            switch format {
            case 0x01: uuidLength = 2
            case 0x02: uuidLength = 16
            default: throw .malformed(opcode, "format \(format)")
            }
            var pairs: [(handle: UInt16, type: BluetoothUUID)] = []
            while !reader.isAtEnd {
                let handle = try reader.u16()
                guard let uuid = BluetoothUUID(wire: try reader.take(uuidLength)) else { throw .malformed(opcode, "UUID") }
                pairs.append((handle, uuid))
            }
            guard !pairs.isEmpty else { throw .malformed(opcode, "no entries") }
            self = .findInformationResponse(pairs)
        case .readByTypeRequest, .readByGroupTypeRequest:
            let start = try reader.u16()
            let end = try reader.u16()
            guard let uuid = BluetoothUUID(wire: reader.rest()) else { throw .malformed(opcode, "UUID must be 2 or 16 bytes") }
            self = opcode == .readByTypeRequest
                ? .readByTypeRequest(start: start, end: end, type: uuid)
                : .readByGroupTypeRequest(start: start, end: end, type: uuid)
        case .readByTypeResponse:
            let length = Int(try reader.u8())
            guard length >= 2 else { throw .malformed(opcode, "item length \(length)") }
            var items: [(handle: UInt16, value: [UInt8])] = []
            while !reader.isAtEnd {
                var item = ByteReader(bytes: try reader.take(length), opcode: opcode)
                items.append((try item.u16(), Array(item.rest())))
            }
            guard !items.isEmpty else { throw .malformed(opcode, "no items") }
            self = .readByTypeResponse(items)
        case .readByGroupTypeResponse:
            let length = Int(try reader.u8())
            guard length >= 4 else { throw .malformed(opcode, "item length \(length)") }
            var items: [(handle: UInt16, endGroup: UInt16, value: [UInt8])] = []
            while !reader.isAtEnd {
                var item = ByteReader(bytes: try reader.take(length), opcode: opcode)
                items.append((try item.u16(), try item.u16(), Array(item.rest())))
            }
            guard !items.isEmpty else { throw .malformed(opcode, "no items") }
            self = .readByGroupTypeResponse(items)
        case .readRequest:
            self = .readRequest(handle: try reader.u16())
        case .readResponse:
            self = .readResponse(Array(reader.rest()))
        case .readBlobRequest:
            self = .readBlobRequest(handle: try reader.u16(), offset: try reader.u16())
        case .readBlobResponse:
            self = .readBlobResponse(Array(reader.rest()))
        case .writeRequest:
            self = .writeRequest(handle: try reader.u16(), value: Array(reader.rest()))
        case .writeResponse:
            self = .writeResponse
        case .writeCommand:
            self = .writeCommand(handle: try reader.u16(), value: Array(reader.rest()))
        case .notification:
            self = .notification(handle: try reader.u16(), value: Array(reader.rest()))
        case .indication:
            self = .indication(handle: try reader.u16(), value: Array(reader.rest()))
        case .confirmation:
            self = .confirmation
        }
        // Fixed-size PDUs must not carry extra bytes; a peer that sends them is confused.
        switch opcode {
        case .errorResponse, .exchangeMTURequest, .exchangeMTUResponse, .findInformationRequest, .readRequest,
             .readBlobRequest, .writeResponse, .confirmation:
            guard reader.isAtEnd else { throw .malformed(opcode, "\(reader.remaining) extra bytes") }
        default:
            break
        }
    }

    public static func == (lhs: ATTPDU, rhs: ATTPDU) -> Bool { lhs.bytes == rhs.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}

/// Why bytes are not an ATT PDU.
public enum ATTDecodeError: Error, Hashable, CustomStringConvertible {
    case empty
    case unknownOpcode(UInt8)
    case truncated(ATTPDU.Opcode)
    case malformed(ATTPDU.Opcode, String)

    public var description: String {
        switch self {
        case .empty: return "empty ATT PDU"
        case .unknownOpcode(let op): return "unknown ATT opcode 0x\(String(op, radix: 16, uppercase: true))"
        case .truncated(let op): return "truncated ATT PDU \(op)"
        case .malformed(let op, let what): return "malformed ATT PDU \(op): \(what)"
        }
    }
}

/// Reads little-endian fields from a PDU, throwing instead of trapping when bytes run out.
struct ByteReader {
    private var bytes: ArraySlice<UInt8>
    private let opcode: ATTPDU.Opcode

    init(bytes: ArraySlice<UInt8>, opcode: ATTPDU.Opcode) {
        self.bytes = bytes
        self.opcode = opcode
    }

    var isAtEnd: Bool { bytes.isEmpty }
    var remaining: Int { bytes.count }

    mutating func u8() throws(ATTDecodeError) -> UInt8 {
        guard let b = bytes.first else { throw .truncated(opcode) }
        bytes = bytes.dropFirst()
        return b
    }

    mutating func u16() throws(ATTDecodeError) -> UInt16 {
        let lo = try u8()
        let hi = try u8()
        return UInt16(lo) | UInt16(hi) << 8
    }

    mutating func take(_ n: Int) throws(ATTDecodeError) -> ArraySlice<UInt8> {
        guard bytes.count >= n else { throw .truncated(opcode) }
        let out = bytes.prefix(n)
        bytes = bytes.dropFirst(n)
        return out
    }

    mutating func rest() -> ArraySlice<UInt8> {
        let out = bytes
        bytes = []
        return out
    }
}
