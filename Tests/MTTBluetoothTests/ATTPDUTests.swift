import MTTBluetooth
import MTTCore
import Testing

/// Byte vectors worked by hand from the Core spec (Vol 3 Part F 3.4): opcode, then little-endian fields.
@Suite("ATT PDUs")
struct ATTPDUTests {
    @Test(arguments: [
        // Exchange MTU Request, Client Rx MTU 517 = 0x0205.
        (ATTPDU.exchangeMTURequest(mtu: 517), "020502"),
        (.exchangeMTUResponse(mtu: 23), "031700"),
        // Read By Group Type Request 0x0001–0xFFFF, «Primary Service» 0x2800.
        (.readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService), "100100FFFF0028"),
        // Read By Group Type Response: length 6, service 0x0001–0x0018 UUID 0x1830.
        (.readByGroupTypeResponse([(handle: UInt16(1), endGroup: UInt16(0x18), value: [UInt8]([0x30, 0x18]))]), "1106010018003018"),
        // Read By Type Request for «Characteristic» 0x2803 in 0x0001–0x0018.
        (.readByTypeRequest(start: 1, end: 0x18, type: .characteristic), "080100180003 28".replacingOccurrences(of: " ", with: "")),
        // Read By Type Response: length 7; declaration 0x0002: props 0x08 (write), value handle 0x0003, UUID 0x2AD0.
        (.readByTypeResponse([(handle: UInt16(2), value: [UInt8]([0x08, 0x03, 0x00, 0xD0, 0x2A]))]), "090702000803 00D02A".replacingOccurrences(of: " ", with: "")),
        // Find Information Request 0x000A–0x000A; Response format 1 (16-bit), 0x000A = 0x2902.
        (.findInformationRequest(start: 10, end: 10), "040A000A00"),
        (.findInformationResponse([(handle: UInt16(10), type: BluetoothUUID.clientCharacteristicConfiguration)]), "05010A000229"),
        (.readRequest(handle: 0x0023), "0A2300"),
        (.readResponse(Array("0.1.0".utf8)), "0B302E312E30"),
        (.readBlobRequest(handle: 0x0023, offset: 22), "0C23001600"),
        // Write Request: CCCD 0x000A ← 0x0001 (notifications on).
        (.writeRequest(handle: 10, value: [0x01, 0x00]), "120A000100"),
        (.writeResponse, "13"),
        // Notification on 0x0009 with a TX result 01 05 0000 A0000000.
        (.notification(handle: 9, value: [1, 5, 0, 0, 0xA0, 0, 0, 0]), "1B09000105 0000A0000000".replacingOccurrences(of: " ", with: "")),
        // Error Response to Read By Group Type, handle 0x0025, Attribute Not Found (0x0A).
        (.errorResponse(request: 0x10, handle: 0x25, error: .attributeNotFound), "011025000A"),
    ])
    func encodesAndDecodesTheSpecLayout(pdu: ATTPDU, hex: String) throws {
        #expect(Hex.string(pdu.bytes) == hex.uppercased())
        #expect(try ATTPDU(bytes: Hex.bytes(hex)!) == pdu)
    }

    @Test func errorNamesComeFromTheSpec() {
        #expect(ATTErrorCode.attributeNotFound.description == "Attribute Not Found")
        #expect(ATTErrorCode(0x05).description == "Insufficient Authentication")
        #expect(ATTErrorCode(0x81).description == "Application Error 0x81")
    }

    @Test(arguments: [
        ("", ATTDecodeError.empty),
        ("FF0102", .unknownOpcode(0xFF)),
        ("0205", .truncated(.exchangeMTURequest)),
        ("0A23", .truncated(.readRequest)),
        ("01100100", .truncated(.errorResponse)),
        ("0205020000", .malformed(.exchangeMTURequest, "2 extra bytes")),
        ("0A230000", .malformed(.readRequest, "1 extra bytes")),
        ("1101", .malformed(.readByGroupTypeResponse, "item length 1")),
        ("110601001800301801", .truncated(.readByGroupTypeResponse)),
        ("0503", .malformed(.findInformationResponse, "format 3")),
        ("08010018000328FF", .malformed(.readByTypeRequest, "UUID must be 2 or 16 bytes")),
        ("1B09", .truncated(.notification)),
    ])
    func refusesTruncatedOversizedAndUnknown(hex: String, error: ATTDecodeError) {
        #expect(throws: error) { try ATTPDU(bytes: Hex.bytes(hex)!) }
    }

    @Test func randomBytesNeverTrap() throws {
        var random = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...30, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            if let pdu = try? ATTPDU(bytes: bytes) {
                // Whatever decodes re-encodes to a PDU that decodes to itself.
                #expect(try ATTPDU(bytes: pdu.bytes) == pdu)
            }
        }
    }

    @Test func uuid128OnTheBaseFoldsTo16Bit() {
        let wire: [UInt8] = [0xFB, 0x34, 0x9B, 0x5F, 0x80, 0x00, 0x00, 0x80, 0x00, 0x10, 0x00, 0x00, 0x30, 0x18, 0x00, 0x00]
        #expect(BluetoothUUID(wire: wire[...]) == .short(0x1830))
        #expect(BluetoothUUID.short(0x2AD9).description == "2AD9")
    }
}
