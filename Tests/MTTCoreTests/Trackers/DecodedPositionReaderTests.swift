import Foundation
import MTTCore
import TestSupport
import Testing

/// TTN Mapper's key set against decoded payloads in the shapes decoders write
/// (`Fixtures/trackers/decoded-payloads.json`, made by `make_decoded_payloads.py`).
@Suite("Trackers: positions in decoded payloads")
struct DecodedPositionReaderTests {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        var note: String
        var decoded: JSONValue
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var satellites: Int?
        var hdop: Double?
        var accuracy: Double?
        var unread: String?

        var testDescription: String { note }
    }

    static let cases: [Case] = {
        let data = FileManager.default.contents(atPath: FixtureFiles.own("trackers/decoded-payloads.json")) ?? Data()
        return (try? JSONDecoder().decode([Case].self, from: data)) ?? []
    }()

    @Test func theTableIsThere() {
        #expect(Self.cases.count > 40)
    }

    @Test(arguments: cases)
    func decodedPayloadGivesItsPosition(_ c: Case) {
        do {
            let position = try DecodedPositionReader.position(in: c.decoded)
            #expect(c.unread == nil, "found \(position), expected \(c.unread ?? "")")
            #expect(position.latitude == c.latitude && position.longitude == c.longitude, "\(position)")
            #expect(position.altitude == c.altitude)
            #expect(position.satellites == c.satellites)
            #expect(position.hdop == c.hdop)
            #expect(position.accuracy == c.accuracy)
        } catch {
            #expect(error.kind.rawValue == c.unread, "\(error.detail)")
        }
    }

    /// What The Things Stack's JSON holds reads the same after JSONDecoder as the table says.
    @Test func aDecodedPayloadReadsBackFromJSONText() throws {
        let text = #"{"gps":{"latitude":"52.0907","longitude":5.1214},"sats":7,"fixFailed":false,"list":[1,null,true]}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value["gps"]?["latitude"] == .string("52.0907"))
        #expect(value["list"] == .array([.number(1), .null, .bool(true)]))
        let position = try DecodedPositionReader.position(in: value)
        #expect(position == PayloadPosition(latitude: 52.0907, longitude: 5.1214, satellites: 7))
    }
}
