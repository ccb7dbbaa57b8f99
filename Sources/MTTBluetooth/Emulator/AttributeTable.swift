/// A GATT server's attributes in handle order, built from a list of services (Core spec Vol 3 Part G 3).
struct AttributeTable {
    struct Attribute {
        var handle: UInt16
        var type: BluetoothUUID
        var value: [UInt8]
        /// For characteristic values: the characteristic's UUID; nil for declarations and descriptors.
        var characteristic: BluetoothUUID?
        var readable: Bool
        var writable: Bool
        /// The end of the service group, for service declarations.
        var groupEnd: UInt16 = 0
    }

    struct CharacteristicSpec {
        var uuid: BluetoothUUID
        var properties: GATTCharacteristic.Properties
        var value: [UInt8] = []
    }

    struct ServiceSpec {
        var uuid: BluetoothUUID
        var characteristics: [CharacteristicSpec]
    }

    private(set) var attributes: [Attribute] = []

    init(_ services: [ServiceSpec]) {
        var handle: UInt16 = 1
        for service in services {
            let serviceIndex = attributes.count
            attributes.append(Attribute(handle: handle, type: .primaryService, value: service.uuid.wire, readable: true, writable: false))
            handle += 1
            for c in service.characteristics {
                let valueHandle = handle + 1
                let declaration = [c.properties.rawValue, UInt8(valueHandle & 0xFF), UInt8(valueHandle >> 8)] + c.uuid.wire
                attributes.append(Attribute(handle: handle, type: .characteristic, value: declaration, readable: true, writable: false))
                attributes.append(Attribute(
                    handle: valueHandle, type: c.uuid, value: c.value, characteristic: c.uuid,
                    readable: c.properties.contains(.read),
                    writable: c.properties.contains(.write) || c.properties.contains(.writeWithoutResponse)))
                handle = valueHandle + 1
                if c.properties.contains(.notify) || c.properties.contains(.indicate) {
                    attributes.append(Attribute(handle: handle, type: .clientCharacteristicConfiguration, value: [0, 0], readable: true, writable: true))
                    handle += 1
                }
            }
            attributes[serviceIndex].groupEnd = handle - 1
        }
    }

    func index(of handle: UInt16) -> Int? {
        attributes.firstIndex { $0.handle == handle }
    }

    func valueHandle(of characteristic: BluetoothUUID) -> UInt16? {
        attributes.first { $0.characteristic == characteristic }?.handle
    }

    /// The CCCD that follows a characteristic's value, if it has one.
    func configurationHandle(of characteristic: BluetoothUUID) -> UInt16? {
        guard let value = valueHandle(of: characteristic), let i = index(of: value), i + 1 < attributes.count,
              attributes[i + 1].type == .clientCharacteristicConfiguration
        else { return nil }
        return attributes[i + 1].handle
    }

    subscript(handle: UInt16) -> Attribute? {
        index(of: handle).map { attributes[$0] }
    }

    mutating func setValue(_ value: [UInt8], at handle: UInt16) {
        if let i = index(of: handle) { attributes[i].value = value }
    }

    /// The answer to a request as an ATT server gives it: a response PDU or an Error Response.
    func answer(_ request: ATTPDU, mtu: Int) -> ATTPDU? {
        func error(_ code: ATTErrorCode, _ handle: UInt16) -> ATTPDU {
            .errorResponse(request: request.opcode.rawValue, handle: handle, error: code)
        }
        switch request {
        case .readByGroupTypeRequest(let start, let end, let type):
            guard start != 0, start <= end else { return error(.invalidHandle, start) }
            guard type == .primaryService else { return error(.unsupportedGroupType, start) }
            let matches = attributes.filter { $0.type == .primaryService && $0.handle >= start && $0.handle <= end }
            guard let first = matches.first else { return error(.attributeNotFound, start) }
            // One response holds entries of one length only, as many as fit.
            let same = matches.filter { $0.value.count == first.value.count }.prefix((mtu - 2) / (4 + first.value.count))
            return .readByGroupTypeResponse(same.map { ($0.handle, $0.groupEnd, $0.value) })
        case .readByTypeRequest(let start, let end, let type):
            guard start != 0, start <= end else { return error(.invalidHandle, start) }
            let matches = attributes.filter { $0.type == type && $0.handle >= start && $0.handle <= end }
            guard let first = matches.first else { return error(.attributeNotFound, start) }
            guard first.readable else { return error(.readNotPermitted, first.handle) }
            let length = min(first.value.count, mtu - 4)
            let same = matches.filter { $0.readable && $0.value.count == first.value.count }.prefix((mtu - 2) / (2 + length))
            return .readByTypeResponse(same.map { ($0.handle, Array($0.value.prefix(length))) })
        case .findInformationRequest(let start, let end):
            guard start != 0, start <= end else { return error(.invalidHandle, start) }
            let matches = attributes.filter { $0.handle >= start && $0.handle <= end }
            guard let first = matches.first else { return error(.attributeNotFound, start) }
            let isShort = first.type.wire.count == 2
            let same = matches.filter { ($0.type.wire.count == 2) == isShort }
                .prefix((mtu - 2) / (isShort ? 4 : 18))
            return .findInformationResponse(same.map { ($0.handle, $0.type) })
        case .readRequest(let handle):
            guard let a = self[handle] else { return error(.invalidHandle, handle) }
            guard a.readable else { return error(.readNotPermitted, handle) }
            return .readResponse(Array(a.value.prefix(mtu - 1)))
        case .readBlobRequest(let handle, let offset):
            guard let a = self[handle] else { return error(.invalidHandle, handle) }
            guard a.readable else { return error(.readNotPermitted, handle) }
            guard Int(offset) <= a.value.count else { return error(.invalidOffset, handle) }
            return .readBlobResponse(Array(a.value.dropFirst(Int(offset)).prefix(mtu - 1)))
        case .writeRequest(let handle, _), .writeCommand(let handle, _):
            guard let a = self[handle] else { return error(.invalidHandle, handle) }
            guard a.writable else { return error(.writeNotPermitted, handle) }
            return nil  // the caller applies the write and answers
        default:
            return error(.requestNotSupported, 0)
        }
    }
}
