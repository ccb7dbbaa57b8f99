import Foundation
@testable import MTTMQTT
import TestSupport
import Testing

@Suite("JSON parser of the uplink fast path")
struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    @Test func readsEveryKindOfValue() throws {
        let value = try parse(#" {"a": [1, -2, 3.5, -0.25e2, 1E3], "b": {"c": true, "d": false, "e": null}, "s": "x\"y\\z\/\n\t\u00e9\ud83d\ude00"} "#)
        guard case .array(let numbers)? = value["a"] else { Issue.record("a is not an array"); return }
        let parsed = numbers.map { n -> Double? in if case .number(let d, _) = n { return d }; return nil }
        #expect(parsed == [1, -2, 3.5, -25, 1000])
        if case .number(_, let integer)? = numbers.first { #expect(integer == 1) }
        if case .number(_, let integer)? = numbers.dropFirst(2).first { #expect(integer == nil) }
        #expect(try value["b"]?.bool("c") == true && value["b"]?.bool("d") == false)
        #expect(try value["b"]?.string("e") == nil)
        #expect(try value.string("s") == "x\"y\\z/\n\té😀")
    }

    @Test(arguments: [
        "", "{", "{\"a\":}", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "tru", "nul", "\"abc", "\"a\u{1}b\"",
        "{\"a\":1} x", "\"\\x\"", "\"\\ud800\"", "{a:1}", "[1 2]",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(throws: JSONParser.Malformed.self) { try parse(text) }
    }

    @Test func refusesInvalidUTF8WhenReadAndDeepNesting() throws {
        // Strings are checked when a field is read, so a broken one that nobody reads costs nothing.
        let broken = try JSONParser.parse(Array(#"{"a":""#.utf8) + [0xFF, 0xFE] + Array(#"","b":"ok","c":"escaped key"}"#.utf8))
        #expect(throws: JSONFieldMismatch.self) { try broken.string("a") }
        #expect(try broken.string("b") == "ok")
        #expect(try broken.string("c") == "escaped key")
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Malformed.self) { try parse(deep) }
        #expect(throws: Never.self) { try parse(String(repeating: "[", count: 60) + String(repeating: "]", count: 60)) }
    }

    /// Both paths must read a message the same way: compare what each makes of every fixture.
    @Test func fastPathAndJSONDecoderAgreeOnEveryFixture() throws {
        var paths = try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.own("ttn")).map { FixtureFiles.own("ttn/" + $0) }
        if FixtureFiles.sharedIsPresent, let folder = FixtureFiles.shared("ttn") {
            paths += try FileManager.default.contentsOfDirectory(atPath: folder).map { folder + "/" + $0 }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for path in paths where path.hasSuffix(".json") {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let slow = try JSONDecoder().decode(TTSUplinkMessage.self, from: Data(bytes))
            let fast = try TTSUplinkMessage(json: JSONParser.parse(bytes))
            #expect(try encoder.encode(fast) == encoder.encode(slow), "\(path)")
        }
    }

    @Test func aWrongFieldTypeLeavesTheFastPath() throws {
        let json = try parse(#"{"end_device_ids":{"device_id":"d"},"uplink_message":{"f_cnt":"many"}}"#)
        #expect(throws: JSONFieldMismatch.self) { try TTSUplinkMessage(json: json) }
        let fraction = try parse(#"{"uplink_message":{"f_port":1.5}}"#)
        #expect(throws: JSONFieldMismatch.self) { try TTSUplinkMessage(json: fraction) }
    }
}
