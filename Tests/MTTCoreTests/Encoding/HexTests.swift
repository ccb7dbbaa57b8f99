import MTTCore
import Testing

@Suite("Hex text")
struct HexTests {
    @Test func roundTripsUpperCase() {
        #expect(Hex.string([0x00, 0xAB, 0x7F]) == "00AB7F")
        #expect(Hex.bytes("00ab7F") == [0x00, 0xAB, 0x7F])
    }

    @Test func acceptsConsoleSeparators() {
        #expect(Hex.bytes("70:B3:D5:7E") == [0x70, 0xB3, 0xD5, 0x7E])
        #expect(Hex.bytes("70 B3-D5") == [0x70, 0xB3, 0xD5])
    }

    @Test func refusesOddLengthAndNonHex() {
        #expect(Hex.bytes("ABC") == nil)
        #expect(Hex.bytes("GG") == nil)
        #expect(Hex.bytes("A:B") == nil)
    }
}
