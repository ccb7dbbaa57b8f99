import MTTSerial
import Testing

@Suite("Modem line splitting")
struct LineSplitterTests {
    @Test func linesEndAtLFWithOrWithoutCR() {
        var splitter = LineSplitter()
        #expect(splitter.feed(Array("ok\r\nmac_tx".utf8)).map { String(decoding: $0, as: UTF8.self) } == ["ok"])
        #expect(splitter.feed(Array("_ok\n\r\n\n+EVT:TX_DONE\r\n".utf8)).map { String(decoding: $0, as: UTF8.self) } == ["mac_tx_ok", "+EVT:TX_DONE"])
    }

    @Test func aStreamWithoutNewlinesCannotGrowALineWithoutEnd() {
        var splitter = LineSplitter()
        let noise = [UInt8](repeating: 0x55, count: 10_000)
        #expect(splitter.feed(noise).isEmpty)
        #expect(splitter.overlong == 1)
        // The rest of the overlong line is dropped; the next line is whole.
        #expect(splitter.feed(Array("tail\nok\n".utf8)).map { String(decoding: $0, as: UTF8.self) } == ["ok"])
    }

    @Test func noiseIsNotText() {
        #expect(LineSplitter.text(of: [0x6F, 0x6B]) == "ok")
        #expect(LineSplitter.text(of: [0x6F, 0x00, 0x6B]) == nil)
        #expect(LineSplitter.text(of: [0xFF, 0xFE]) == nil)
    }
}
