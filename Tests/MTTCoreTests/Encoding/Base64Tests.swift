import Foundation
import MTTCore
import Testing

@Suite("Base64")
struct Base64Tests {
    @Test func agreesWithFoundationOnEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Data(bytes).base64EncodedString()
            #expect(Base64.decode(text) == bytes, "\(text)")
        }
        #expect(Base64.decode("AtY3DlYcBw==") == [0x02, 0xD6, 0x37, 0x0E, 0x56, 0x1C, 0x07])
    }

    @Test(arguments: ["A", "AB=", "A===", "****", "AtY3DlYcBw=", "Q===", "=AAA"])
    func refusesWhatFoundationRefuses(_ text: String) {
        #expect(Base64.decode(text) == nil)
        #expect(Data(base64Encoded: text) == nil)
    }

    @Test func ignoresLeftoverBitsLikeFoundation() {
        for text in ["QR==", "QUJ="] {
            #expect(Base64.decode(text).map { Data($0) } == Data(base64Encoded: text))
        }
    }
}
