import Foundation
import GRDB
#if canImport(FoundationXML)
import FoundationXML
#endif
import MTTCore
import TestSupport
import Testing

/// Reads an XML document back and records its root's namespace and every element's name.
final class XMLCheck: NSObject, XMLParserDelegate {
    var rootNamespace: String?
    var elements: [String: Int] = [:]
    var coordinates: [String] = []
    private var inCoordinates = false

    init(_ data: Data) {
        super.init()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = self
        parsed = parser.parse()
    }

    private(set) var parsed = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if rootNamespace == nil { rootNamespace = namespaceURI }
        elements[name, default: 0] += 1
        inCoordinates = name == "coordinates"
        if inCoordinates { coordinates.append("") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inCoordinates { coordinates[coordinates.count - 1] += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        inCoordinates = false
    }
}

@Suite("Export")
struct ExporterTests {
    let dir = TemporaryDirectory()

    /// A small active session: three attempts (heard, lost, failed) on a three-fix track.
    func store() throws -> Store {
        let store = try Store(path: dir.file("e.sqlite"))
        let session = try store.sessions.startSession(mode: .active)
        let t0 = Timestamp(nanosecondsSinceEpoch: 1_782_036_900_000_000_000)
        func fix(_ s: Double, _ lat: Double) -> Fix {
            Fix(time: t0.adding(seconds: s), latitude: lat, longitude: 5.12, altitudeMSL: 4, mode: .threeD, source: "t")
        }
        for s in [0.0, 15, 30] { try store.records.record(fix(s, 52.09 + s * 1e-4), session: session) }
        let heard = try store.records.record(Attempt(sessionID: session, node: "fake:1", payload: [2], fix: fix(0, 52.09), sentAt: t0, state: .confirmed, frameCounter: 0))
        try store.records.record(Attempt(sessionID: session, node: "fake:1", payload: [2], fix: fix(15, 52.0915), sentAt: t0, state: .confirmed, frameCounter: 1))
        try store.records.record(Attempt(sessionID: session, node: "fake:1", payload: [2], fix: fix(30, 52.093), sentAt: t0, state: .failed, failureReason: "busy"))
        let uplink = try store.records.record(Uplink(deviceID: "fake-1", fCnt: 0, receivedAt: t0, receptions: [
            GatewayReception(gatewayID: "gw, \"north\"", rssi: -103, snr: -4), GatewayReception(gatewayID: "gw-east", rssi: -118, snr: -12),
        ]), session: session)
        try store.records.link(attempt: heard, toUplink: uplink)
        try store.records.record(Sample(sessionID: session, subject: .uplink(uplink), time: t0, position: GeoPoint(latitude: 52.09, longitude: 5.12, altitude: 4), method: .txTime))
        return store
    }

    func export(_ store: Store, _ format: ExportFormat, filter: ExportFilter = ExportFilter()) throws -> (count: Int, data: Data) {
        let path = dir.file("out.\(format.rawValue)")
        let sink = try TextSink(path: path)
        let count = try Exporter.export(store, as: format, filter: filter, to: sink)
        try sink.close()
        return (count, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func jsonLinesHaveOneObjectPerRecordWithEveryGateway() throws {
        let (count, data) = try export(try store(), .jsonl)
        let objects = try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(count == 3 && objects.count == 3)
        #expect(Set(objects.compactMap { $0["status"] as? String }) == ["heard", "lost", "failed"])
        let heard = try #require(objects.first { $0["status"] as? String == "heard" })
        let gateways = try #require(heard["gateways"] as? [[String: Any]])
        #expect(gateways.count == 2)
        #expect(gateways.first?["id"] as? String == "gw, \"north\"")
        #expect(heard["rssi"] as? Double == -103 && heard["snr"] as? Double == -4)
        #expect(heard["f_cnt"] as? Int == 0 && heard["mode"] as? String == "active")
    }

    @Test func csvHasAHeaderAndOneRowPerRecordWithTheBestGateway() throws {
        let (count, data) = try export(try store(), .csv)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(count == 3 && lines.count == 4)
        #expect(lines[0].hasPrefix("time,lat,lon,alt,status"))
        #expect(lines[1].contains(",heard,tx-time,active,fake-1,,0,,,2,\"gw, \"\"north\"\"\",-103,-4"))
        #expect(lines[2].contains(",lost,,active,fake:1,,1,"))
        #expect(lines[3].contains(",failed,,active,fake:1,"))
    }

    @Test func geoJSONCoordinatesAreLonLatAsStored() throws {
        let (_, data) = try export(try store(), .geojson)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let features = try #require(object["features"] as? [[String: Any]])
        #expect(features.count == 3)
        let coordinates = (features[0]["geometry"] as? [String: Any])?["coordinates"] as? [Double]
        #expect(coordinates == [5.12, 52.09, 4])
        #expect((features[0]["properties"] as? [String: Any])?["rssi"] as? Double == -103)
    }

    @Test func gpxParsesWithItsNamespaceWaypointsThenTrack() throws {
        let (_, data) = try export(try store(), .gpx)
        let check = XMLCheck(data)
        #expect(check.parsed)
        #expect(check.rootNamespace == "http://www.topografix.com/GPX/1/1")
        #expect(check.elements["wpt"] == 3 && check.elements["trkpt"] == 6 && check.elements["trkseg"] == 1)
    }

    @Test func kmlParsesWithItsNamespaceAndColoursBySignal() throws {
        let (_, data) = try export(try store(), .kml)
        let check = XMLCheck(data)
        #expect(check.parsed)
        #expect(check.rootNamespace == "http://www.opengis.net/kml/2.2")
        #expect(check.elements["Placemark"] == 3)
        #expect(check.coordinates.first == "5.12,52.09,4")
        let text = String(decoding: data, as: UTF8.self)
        // −103 + min(−4, 0) = −107: the yellow band; the lost and failed attempts are black.
        #expect(text.contains("<styleUrl>#above-110</styleUrl>"))
        #expect(text.components(separatedBy: "<styleUrl>#not-heard</styleUrl>").count - 1 == 2)
    }

    @Test func filtersByTimeAndMode() throws {
        let s = try store()
        let t0 = Timestamp(nanosecondsSinceEpoch: 1_782_036_900_000_000_000)
        #expect(try export(s, .csv, filter: ExportFilter(since: t0.adding(seconds: 10))).count == 2)
        #expect(try export(s, .csv, filter: ExportFilter(until: t0.adding(seconds: 10))).count == 1)
        #expect(try export(s, .csv, filter: ExportFilter(mode: .listener)).count == 0)
        #expect(try export(s, .csv, filter: ExportFilter(mode: .active)).count == 3)
    }
}

@Suite("Export of the Utrecht data set", .enabled(if: FixtureFiles.sharedIsPresent, "\(FixtureFiles.sharedSkipReason)"))
struct UtrechtExportTests {
    let dir = TemporaryDirectory()

    @Test func allFourFormatsReadBack() throws {
        let store = try Store(path: dir.file("u.sqlite"))
        _ = try MapTheThingsDataSet.importFile(try #require(FixtureFiles.shared("mapthethings/utrecht-coverage.json")), into: store)
        for format in ExportFormat.allCases {
            let path = dir.file("utrecht.\(format.rawValue)")
            let sink = try TextSink(path: path)
            #expect(try Exporter.export(store, as: format, to: sink) == 5705)
            try sink.close()
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            switch format {
            case .csv:
                #expect(String(decoding: data, as: UTF8.self).split(separator: "\n").count == 5706)
            case .geojson:
                let features = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["features"] as? [Any]
                #expect(features?.count == 5705)
            case .gpx:
                let check = XMLCheck(data)
                #expect(check.parsed && check.rootNamespace == "http://www.topografix.com/GPX/1/1" && check.elements["wpt"] == 5705)
            case .kml:
                let check = XMLCheck(data)
                #expect(check.parsed && check.rootNamespace == "http://www.opengis.net/kml/2.2" && check.elements["Placemark"] == 5705)
            case .jsonl:
                let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
                #expect(lines.count == 5705)
                #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] })
            case .gpkg:
                // A GeoPackage (its application id "GPKG") whose two point layers hold every record.
                let file = try DatabaseQueue(path: path)
                let (id, points) = try file.read { db in
                    (try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                     try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM samples) + (SELECT COUNT(*) FROM unheard_attempts)") ?? 0)
                }
                try file.close()
                #expect(id == 0x4750_4B47 && points == 5705)
            default:
                Issue.record("\(format) has no read-back check here")
            }
        }
    }
}
