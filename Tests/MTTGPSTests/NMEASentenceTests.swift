import MTTCore
import MTTGPS
import Testing

@Suite("NMEA sentences")
struct NMEASentenceTests {
    @Test func splitsAddressAndFields() throws {
        let s = try NMEASentence(line: Array("$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D\r\n".utf8))
        #expect(s.talker == "GP" && s.type == "GGA")
        #expect(s.fields.count == 14)
        #expect(s.fields[1] == "3747.0873" && s.fields[13] == "0000")
    }

    @Test func proprietarySentencesHaveNoTalker() throws {
        // $PGRME: Garmin's error estimate; checksum computed by hand over "PGRME,15.0,M,45.0,M,25.0,M".
        let body = "PGRME,15.0,M,45.0,M,25.0,M"
        let sum = body.utf8.reduce(UInt8(0), ^)
        let s = try NMEASentence(line: Array("$\(body)*\(Hex.string([sum]))".utf8))
        #expect(s.talker == "" && s.type == "GRME")
    }

    @Test func refusesBadChecksumsAndMissingOnes() {
        #expect(throws: NMEAError.badChecksum(expected: 0x7D, found: 0x7E)) {
            try NMEASentence(line: Array("$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7E".utf8))
        }
        #expect(throws: NMEAError.missingChecksum) {
            try NMEASentence(line: Array("$GPGGA,030719.000,3747.0873,S".utf8))
        }
        #expect(throws: NMEAError.missingChecksum) {
            try NMEASentence(line: Array("$GPGGA,030719.000*7".utf8))
        }
    }

    @Test func refusesGarbage() {
        for line in [[UInt8](), [0x00, 0xFF, 0x24, 0x47], Array("hello".utf8), Array("$GP*00".utf8), [0x24] + [UInt8](repeating: 0xB5, count: 40) + Array("*00".utf8)] {
            #expect(throws: NMEAError.self) { try NMEASentence(line: line) }
        }
    }
}
