import Foundation
@testable import MTTMQTT
import TestSupport
import Testing

@Suite("JSON reader of the uplink fast path")
struct JSONReaderTests {
    typealias Mismatch = JSONReader.Mismatch

    func skipAll(_ text: String) throws(Mismatch) {
        try JSONReader.read(Array(text.utf8)) { r throws(Mismatch) in try r.skip() }
    }

    /// Decimals take a shortcut past strtod when one division is exact; it must give strtod's
    /// answer to the bit, and the numbers it cannot take must still reach strtod.
    @Test func decimalsAreReadExactlyAsStrtodReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0.1", "-0.0", "0.0", "52.0907", "-97.25", "7.25", "5.1214", "0.000000000000000000001",
                     "123456789012345.6", "9007199254740993.5", "1.7976931348623157", "-118.0", "0.061696",
                     "1.5e3", "-2.5E-3", "12345678901234567890.5", "0.30000000000000004"]
        for _ in 0..<20_000 {
            let whole = UInt64.random(in: 0...999_999, using: &generator)
            let fraction = (0..<Int.random(in: 1...14, using: &generator)).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            texts.append("\(Bool.random(using: &generator) ? "-" : "")\(whole).\(fraction)")
        }
        for text in texts {
            let read = try JSONReader.read(Array(text.utf8)) { r throws(Mismatch) in try r.double() }
            let expected = strtod(text, nil)
            #expect(read?.bitPattern == expected.bitPattern, "\(text): \(String(describing: read)) instead of \(expected)")
        }
    }

    @Test func readsEveryKindOfValue() throws {
        var numbers: [Double] = []
        var integers: [Int?] = []
        var text: String?
        var flags: [Bool?] = []
        let source = #" {"a": [1, -2, 3.5, -0.25e2, 1E3], "b": {"c": true, "d": false, "e": null}, "s": "x\"y\\z\/\n\t\u00e9\ud83d\ude00", "skipped": {"deep": [[{}]]}} "#
        try JSONReader.read(Array(source.utf8)) { r throws(Mismatch) in
            try r.object { key, r throws(Mismatch) in
                if key.matches("a") {
                    try r.array { r throws(Mismatch) in
                        numbers.append(try r.double() ?? .nan)
                    }
                } else if key.matches("b") {
                    try r.object { key, r throws(Mismatch) in flags.append(try r.bool()) }
                } else if key.matches("s") {
                    text = try r.string()
                }
            }
        }
        #expect(numbers == [1, -2, 3.5, -25, 1000])
        #expect(flags == [true, false, nil])
        #expect(text == "x\"y\\z/\n\té😀")
        try JSONReader.read(Array("[7, 7.5]".utf8)) { r throws(Mismatch) in
            try r.array { r throws(Mismatch) in integers.append(try? r.integer(Int.self)) }
        }
        #expect(integers == [7, nil])
        integers = []
        try JSONReader.read(Array("[1.0, 1.25e5, -0.0, 1e30]".utf8)) { r throws(Mismatch) in
            try r.array { r throws(Mismatch) in integers.append(try? r.integer(Int.self)) }
        }
        #expect(integers == [1, 125_000, 0, nil])
    }

    @Test(arguments: [
        "", "{", "{\"a\":}", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "tru", "nul", "\"abc", "\"a\u{1}b\"",
        "{\"a\":1} x", "\"\\x\"", "\"\\ud800\"", "{a:1}", "[1 2]", "\"\\u12G4\"",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(throws: Mismatch.self) { try skipAll(text) }
    }

    @Test func refusesDeepNestingAndReadsInvalidUTF8OnlyWhenAsked() throws {
        #expect(throws: Mismatch.self) { try skipAll(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)) }
        #expect(throws: Never.self) { try skipAll(String(repeating: "[", count: 60) + String(repeating: "]", count: 60)) }
        // Strings are checked when read, so a broken one nobody reads costs nothing.
        let broken = Array(#"{"a":""#.utf8) + [0xFF, 0xFE] + Array(#"","b":"ok","\u0063":"escaped key"}"#.utf8)
        var b: String?
        var c: String?
        try JSONReader.read(broken) { r throws(Mismatch) in
            try r.object { key, r throws(Mismatch) in
                if key.matches("b") { b = try r.string() } else if key.matches("c") { c = try r.string() }
            }
        }
        #expect(b == "ok" && c == "escaped key")
        #expect(throws: Mismatch.self) {
            try JSONReader.read(broken) { r throws(Mismatch) in
                try r.object { key, r throws(Mismatch) in if key.matches("a") { _ = try r.string() } }
            }
        }
    }

    /// Strings are scanned eight bytes at a time: a quote, an escape or a control byte must be
    /// found at every offset in and across those words, and bytes next to them in value must not.
    @Test func findsTheEndOfAStringAtEveryOffset() throws {
        func read(_ bytes: [UInt8]) throws(Mismatch) -> String? {
            try JSONReader.read(Array("[\"".utf8) + bytes + Array("\"]".utf8)) { r throws(Mismatch) in
                var text: String?
                try r.array { r throws(Mismatch) in text = try r.string() }
                return text
            }
        }
        let neighbours: [String] = [" ", "!", "#", "[", "]", "^", "\u{7F}", "é"]  // 0x20 0x21 0x23 0x5B 0x5D 0x5E 0x7F, 0xC3 0xA9
        for length in 0..<24 {
            let text = (0..<length).map { neighbours[$0 % neighbours.count] }.joined()
            let plain = Array(text.utf8)
            #expect(try read(plain) == text, "\(length) plain bytes")
            #expect(try read(plain + Array(#"\n\"x"#.utf8)) == text + "\n\"x", "escape after \(length) bytes")
            #expect(throws: Mismatch.self, "control byte after \(length) bytes") { try read(plain + [0x1F] + plain) }
            #expect(throws: Mismatch.self, "tab after \(length) bytes") { try read(plain + [0x09]) }
        }
    }

    @Test func readsUTF8TextAsWritten() throws {
        // ASCII takes a shortcut; anything else goes through full UTF-8 validation.
        for text in ["gw-zurich-01", "Zürich Hauptbahnhof 🏔", "", "\u{7F}"] {
            var read: String?
            try JSONReader.read(Array(#"{"name":""#.utf8) + Array(text.utf8) + Array(#""}"#.utf8)) { r throws(Mismatch) in
                try r.object { key, r throws(Mismatch) in if key.matches("name") { read = try r.string() } }
            }
            #expect(read == text)
        }
    }

    /// The one-pass reader is the only reader of uplinks; JSONDecoder, reading the same types
    /// through their Codable conformance, is the reference it must agree with on every fixture.
    @Test func theReaderAndJSONDecoderAgreeOnEveryFixture() throws {
        var paths = try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.own("ttn")).map { FixtureFiles.own("ttn/" + $0) }
        if FixtureFiles.sharedIsPresent, let folder = FixtureFiles.shared("ttn") {
            paths += try FileManager.default.contentsOfDirectory(atPath: folder).map { folder + "/" + $0 }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var v2 = 0
        for path in paths where path.hasSuffix(".json") {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let slow = try JSONDecoder().decode(TTSUplinkMessage.self, from: Data(bytes))
            let fast = try JSONReader.read(bytes) { r throws(Mismatch) in try TTSUplinkMessage(reading: &r) }
            #expect(try encoder.encode(fast) == encoder.encode(slow), "\(path)")
            guard slow.end_device_ids == nil else { continue }
            v2 += 1
            let slowV2 = try JSONDecoder().decode(TTNV2UplinkMessage.self, from: Data(bytes))
            let fastV2 = try JSONReader.read(bytes) { r throws(Mismatch) in try TTNV2UplinkMessage(reading: &r) }
            #expect(try encoder.encode(fastV2) == encoder.encode(slowV2), "\(path)")
            #expect(fastV2.metadata?.gateways?.isEmpty == false, "\(path): a v2 fixture without gateways proves little")
        }
        #expect(paths.count >= 5 && v2 >= 1)
    }

    /// What a log line says about a message of the wrong shape: the field's path and what it
    /// should have been, or "not JSON" when the text is broken anywhere.
    @Test(arguments: [
        (#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"f_cnt":"many"}}"#, "uplink_message.f_cnt is not an integer"),
        (#"{"uplink_message":{"f_port":1.5}}"#, "uplink_message.f_port is not an integer"),
        (#"{"uplink_message":{"f_cnt":-1}}"#, "uplink_message.f_cnt is not an integer from 0 to 4294967295"),
        (#"{"uplink_message":{"rx_metadata":[{},null]}}"#, "uplink_message.rx_metadata[1] is not an object"),
        (#"{"uplink_message":{"rx_metadata":[{"location":{"latitude":"52.1"}}]}}"#, "uplink_message.rx_metadata[0].location.latitude is not a number"),
        (#"{"simulated":"yes"}"#, "simulated is not true or false"),
        (#"{"end_device_ids":[]}"#, "end_device_ids is not an object"),
        (#"[1,2,3]"#, "the message is not an object"),
        (#"null"#, "the message is not an object"),
        (#"{"uplink_message":{"f_cnt":"many"}, "x": tru}"#, "not JSON"),
    ])
    func aWrongFieldTypeIsNamedByItsPath(text: String, reason: String) {
        let read = { (r: inout JSONReader) throws(Mismatch) in try TTSUplinkMessage(reading: &r) }
        #expect(throws: Mismatch.self) { try JSONReader.read(Array(text.utf8), read) }
        #expect(JSONReader.explain(Array(text.utf8), read) == reason)
    }

    @Test func aV2FieldOfTheWrongTypeIsNamedByItsPath() {
        let text = #"{"dev_id":"d","metadata":{"time":"2018-05-01T14:41:00Z","gateways":[{"gtw_id":"g","rssi":"-90"}]}}"#
        let read = { (r: inout JSONReader) throws(Mismatch) in try TTNV2UplinkMessage(reading: &r) }
        #expect(throws: Mismatch.self) { try JSONReader.read(Array(text.utf8), read) }
        #expect(JSONReader.explain(Array(text.utf8), read) == "metadata.gateways[0].rssi is not a number")
    }
}
