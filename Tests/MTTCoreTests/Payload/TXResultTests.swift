import MTTCore
import TestSupport
import Testing

@Suite("TX result notification")
struct TXResultTests {
    @Test func decodesSequenceErrorAndLittleEndianFrameCounter() throws {
        // 01, ble_seq 5, error 0x0000, f_cnt 0x000000A0 = 160 (LE).
        let result = try TXResult(bytes: Hex.bytes("01050000A0000000")!)
        #expect(result.bleSequence == 5)
        #expect(result.error == 0)
        #expect(result.frameCounter == 160)
    }

    @Test func multiByteFieldsAreLittleEndian() throws {
        let result = try TXResult(bytes: Hex.bytes("01FF3412785634 12".replacingOccurrences(of: " ", with: ""))!)
        #expect(result.bleSequence == 255)
        #expect(result.error == 0x1234)
        #expect(result.frameCounter == 0x1234_5678)
        #expect(result.bytes == Hex.bytes("01FF341278563412")!)
    }

    @Test func rejectsShortAndForeignNotifications() {
        #expect(throws: PayloadError.self) { try TXResult(bytes: [1, 2, 3]) }
        #expect(throws: PayloadError.unknownFormat(2)) { try TXResult(bytes: [2, 0, 0, 0, 0, 0, 0, 0]) }
    }
}
