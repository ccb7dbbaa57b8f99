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

@Suite("Console keys")
struct ConsoleKeyTests {
    /// A wrong key is still a secret: described, never shown. An EUI is no secret.
    @Test func aMalformedAppKeyIsDescribedNotShown() {
        let key = "2B7E151628AED2A6ABF7158809CF4F3"
        #expect { try ConsoleKey.bytes(key, bytes: 16, "AppKey") } throws: { "\($0)" == "AppKey must be 32 hex digits, got 31 characters" }
        #expect { try ConsoleKey.bytes("0004A30B001C05ZZ", bytes: 8, "DevEUI") } throws: { "\($0)" == "DevEUI must be 16 hex digits, got 0004A30B001C05ZZ" }
    }
}
