import Logging
import MTTCore

/// A GATT client over any ATT bearer (Core spec Vol 3 Part G), written for the MapTheThings node
/// but general: MTU exchange, service, characteristic and descriptor discovery, reads (with Read Blob
/// for long values), writes, notifications.
///
/// ATT allows one outstanding request per direction, so requests queue here; each has a timeout
/// (30 s, ATT's own). A dropped link fails the request in flight and every later one.
public actor GATTClient {
    public struct Notification: Sendable, Hashable {
        public var handle: UInt16
        public var value: [UInt8]

        public init(handle: UInt16, value: [UInt8]) {
            self.handle = handle
            self.value = value
        }
    }

    private let bearer: any ATTBearer
    private let timeout: Double
    /// What a request's timeout runs on.
    private let clock: any TimeSource
    private(set) public var mtu: UInt16 = 23
    private var turns = TurnQueue()
    private var pending: PendingRequest?
    private var nextID = 0
    private var dropped: String?
    /// Why the link dropped, once it has.
    public var dropReason: String? { dropped }
    private var notificationContinuation: AsyncStream<Notification>.Continuation?
    public nonisolated let notifications: AsyncStream<Notification>
    private let logger = Logger(label: "mtt.gatt")
    /// PDUs that could not be decoded or answered nothing asked: counted, never fatal.
    public private(set) var ignoredPDUs = 0

    public init(bearer: any ATTBearer, timeout: Double = 30, clock: any TimeSource = SystemClock()) {
        self.clock = clock
        self.bearer = bearer
        self.timeout = timeout
        let (stream, continuation) = AsyncStream.makeStream(of: Notification.self)
        notifications = stream
        notificationContinuation = continuation
    }

    /// Starts reading the bearer. Call once, before any request.
    public func start() {
        let incoming = bearer.incoming()
        Task { [weak self] in
            for await bytes in incoming { await self?.receive(bytes) }
            await self?.linkDropped()
        }
    }

    public func close() {
        bearer.close()
    }

    // MARK: Procedures

    /// Asks for a larger MTU: by default the largest ATT allows (517), or less where the bearer
    /// carries less (the kernel's L2CAP MTU). The result is the smaller of the two sides' (never
    /// below 23). `timeout` replaces the client's for this request.
    @discardableResult
    public func exchangeMTU(_ asked: UInt16? = nil, timeout: Double? = nil) async throws -> UInt16 {
        let clientMTU = max(23, asked ?? min(517, bearer.mtuLimit ?? 517))
        let answer = try await request(.exchangeMTURequest(mtu: clientMTU), timeout: timeout)
        guard case .exchangeMTUResponse(let serverMTU) = answer else { throw unexpected(.exchangeMTURequest, answer) }
        mtu = max(23, min(clientMTU, serverMTU))
        logger.debug("ATT MTU \(mtu): asked \(clientMTU) (the link carries \(bearer.mtuLimit.map(String.init) ?? "any size")), the node offered \(serverMTU)")
        return mtu
    }

    public func discoverPrimaryServices() async throws -> [GATTService] {
        var services: [GATTService] = []
        var start: UInt16 = 1
        while true {
            let answer: ATTPDU
            do {
                answer = try await request(.readByGroupTypeRequest(start: start, end: 0xFFFF, type: .primaryService))
            } catch GATTError.att(_, _, let error) where error == .attributeNotFound {
                return services
            }
            guard case .readByGroupTypeResponse(let items) = answer else { throw unexpected(.readByGroupTypeRequest, answer) }
            for item in items {
                guard let uuid = BluetoothUUID(wire: item.value[...]), item.endGroup >= item.handle else {
                    throw GATTError.unexpectedResponse(request: .readByGroupTypeRequest, got: "a malformed service entry")
                }
                services.append(GATTService(uuid: uuid, handles: item.handle...item.endGroup))
            }
            guard let last = items.last, last.endGroup < 0xFFFF, last.endGroup >= start else { return services }
            start = last.endGroup + 1
        }
    }

    public func discoverCharacteristics(of service: GATTService) async throws -> [GATTCharacteristic] {
        var found: [GATTCharacteristic] = []
        var start = service.handles.lowerBound
        while start <= service.handles.upperBound {
            let answer: ATTPDU
            do {
                answer = try await request(.readByTypeRequest(start: start, end: service.handles.upperBound, type: .characteristic))
            } catch GATTError.att(_, _, let error) where error == .attributeNotFound {
                break
            }
            guard case .readByTypeResponse(let items) = answer else { throw unexpected(.readByTypeRequest, answer) }
            for item in items {
                // Declaration value: properties (1), value handle (2), UUID (2 or 16).
                guard item.value.count == 5 || item.value.count == 19,
                      let uuid = BluetoothUUID(wire: item.value[3...])
                else { throw GATTError.unexpectedResponse(request: .readByTypeRequest, got: "a malformed characteristic declaration") }
                let valueHandle = UInt16(item.value[1]) | UInt16(item.value[2]) << 8
                found.append(GATTCharacteristic(
                    uuid: uuid, declarationHandle: item.handle, valueHandle: valueHandle,
                    properties: .init(rawValue: item.value[0]), endHandle: service.handles.upperBound))
            }
            guard let last = items.last, last.handle < service.handles.upperBound, last.handle >= start else { break }
            start = last.handle + 1
        }
        // Each characteristic ends where the next declaration starts.
        for i in found.indices.dropLast() {
            found[i].endHandle = found[i + 1].declarationHandle - 1
        }
        return found
    }

    public func discoverDescriptors(of characteristic: GATTCharacteristic) async throws -> [GATTDescriptor] {
        var descriptors: [GATTDescriptor] = []
        guard characteristic.valueHandle < characteristic.endHandle else { return [] }
        var start = characteristic.valueHandle + 1
        while start <= characteristic.endHandle {
            let answer: ATTPDU
            do {
                answer = try await request(.findInformationRequest(start: start, end: characteristic.endHandle))
            } catch GATTError.att(_, _, let error) where error == .attributeNotFound {
                break
            }
            guard case .findInformationResponse(let pairs) = answer else { throw unexpected(.findInformationRequest, answer) }
            descriptors += pairs.map { GATTDescriptor(uuid: $0.type, handle: $0.handle) }
            guard let last = pairs.last, last.handle < characteristic.endHandle, last.handle >= start else { break }
            start = last.handle + 1
        }
        return descriptors
    }

    /// Reads a value, following with Read Blob while the value fills whole responses.
    public func read(handle: UInt16) async throws -> [UInt8] {
        let answer = try await request(.readRequest(handle: handle))
        guard case .readResponse(var value) = answer else { throw unexpected(.readRequest, answer) }
        let full = Int(mtu) - 1
        var part = value.count
        while part == full {
            let more: ATTPDU
            do {
                more = try await request(.readBlobRequest(handle: handle, offset: UInt16(value.count)))
            } catch GATTError.att(_, _, let error) where error == .attributeNotLong || error == .invalidOffset {
                break
            }
            guard case .readBlobResponse(let chunk) = more else { throw unexpected(.readBlobRequest, more) }
            value += chunk
            part = chunk.count
        }
        return value
    }

    /// Write Request: returns when the peer confirmed the write.
    public func write(handle: UInt16, value: [UInt8]) async throws {
        let answer = try await request(.writeRequest(handle: handle, value: value))
        guard case .writeResponse = answer else { throw unexpected(.writeRequest, answer) }
    }

    /// Turns notifications on through the characteristic's Client Characteristic Configuration descriptor.
    public func enableNotifications(_ characteristic: GATTCharacteristic) async throws {
        let descriptors = try await discoverDescriptors(of: characteristic)
        guard let cccd = descriptors.first(where: { $0.uuid == .clientCharacteristicConfiguration }) else {
            throw GATTError.notFound("notification switch (CCCD) for characteristic \(characteristic.uuid)")
        }
        try await write(handle: cccd.handle, value: [0x01, 0x00])
    }

    // MARK: Requests

    private func request(_ pdu: ATTPDU, timeout: Double? = nil) async throws -> ATTPDU {
        while turns.isTaken {
            await withCheckedContinuation { turns.wait($0) }
        }
        turns.take()
        defer { turns.release() }
        if let dropped { throw GATTError.linkDropped(dropped) }
        nextID += 1
        let id = nextID
        let opcode = pdu.opcode
        return try await withCheckedThrowingContinuation { continuation in
            pending = PendingRequest(id: id, request: opcode, continuation: continuation)
            do {
                try bearer.send(pdu.bytes)
            } catch {
                settle(with: .failure(GATTError.linkDropped("\(error)")))
                return
            }
            let seconds = timeout ?? self.timeout
            pending?.timer = Task { [weak self, clock] in
                try? await clock.sleep(seconds: seconds)
                await self?.expire(id, seconds: seconds)
            }
        }
    }

    /// The request on the link. Its timer is cancelled when the answer comes, so that a busy link
    /// does not keep one sleeping task per request for the whole timeout.
    private struct PendingRequest {
        let id: Int
        let request: ATTPDU.Opcode
        let continuation: CheckedContinuation<ATTPDU, any Error>
        var timer: Task<Void, Never>?
    }

    private func settle(with result: Result<ATTPDU, any Error>) {
        guard let p = pending else { return }
        pending = nil
        p.timer?.cancel()
        p.continuation.resume(with: result)
    }

    private func expire(_ id: Int, seconds: Double) {
        guard let p = pending, p.id == id else { return }
        settle(with: .failure(GATTError.timedOut(request: p.request, seconds: seconds)))
    }

    private func receive(_ bytes: [UInt8]) {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(bytes: bytes)
        } catch {
            ignoredPDUs += 1
            logger.debug("ignoring \(error)")
            return
        }
        switch pdu {
        case .notification(let handle, let value):
            notificationContinuation?.yield(Notification(handle: handle, value: value))
        case .indication(let handle, let value):
            notificationContinuation?.yield(Notification(handle: handle, value: value))
            try? bearer.send(ATTPDU.confirmation.bytes)
        case .errorResponse(let request, let handle, let error):
            guard let p = pending, p.request.rawValue == request else {
                ignoredPDUs += 1
                return
            }
            settle(with: .failure(GATTError.att(request: p.request, handle: handle, error: error)))
        default:
            guard let p = pending, Self.answers(p.request, with: pdu.opcode) else {
                ignoredPDUs += 1
                return
            }
            settle(with: .success(pdu))
        }
    }

    private static func answers(_ request: ATTPDU.Opcode, with response: ATTPDU.Opcode) -> Bool {
        switch request {
        case .exchangeMTURequest: return response == .exchangeMTUResponse
        case .findInformationRequest: return response == .findInformationResponse
        case .readByTypeRequest: return response == .readByTypeResponse
        case .readRequest: return response == .readResponse
        case .readBlobRequest: return response == .readBlobResponse
        case .readByGroupTypeRequest: return response == .readByGroupTypeResponse
        case .writeRequest: return response == .writeResponse
        default: return false
        }
    }

    private func linkDropped() {
        let reason = bearer.closeReason ?? "the link closed"
        dropped = reason
        notificationContinuation?.finish()
        settle(with: .failure(GATTError.linkDropped(reason)))
    }

    private func unexpected(_ request: ATTPDU.Opcode, _ answer: ATTPDU) -> GATTError {
        .unexpectedResponse(request: request, got: "\(answer.opcode)")
    }
}
