import Foundation
import MTTCore
import TestSupport
import Testing

/// Issue 48: the coverage as Mapbox vector tiles, read by a client nobody here wrote (GDAL's MVT
/// driver, as QGIS uses it): the layer, its features and fields are what `/api/cells` gives for
/// the same tile.
@Suite("Vector tiles")
struct VectorTileTests {
    let mtt = MTTCommand()

    func serve() async throws -> (ChildProcess.Running, Int) {
        try MapTestData.drive(try Store(path: mtt.database))
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "127.0.0.1:\(port)", "--tiles", "none", "--db", mtt.database])
        #expect(await server.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(server.stderr)")
        return (server, port)
    }

    /// `ogrinfo` on the fetched tile, georeferenced by its z/x/y.
    func ogrinfo(_ tile: MapTile, _ bytes: Data, _ arguments: [String]) async throws -> String {
        let file = mtt.dir.file("\(tile.zoom)-\(tile.x)-\(tile.y).mvt")
        try bytes.write(to: URL(fileURLWithPath: file))
        let result = try await ChildProcess.run("/usr/bin/ogrinfo", ["-oo", "Z=\(tile.zoom)", "-oo", "X=\(tile.x)", "-oo", "Y=\(tile.y)"] + arguments + [file])
        #expect(result.status == 0, "ogrinfo: \(result.stderr)")
        return result.stdout
    }

    @Test func gdalReadsTheCellsOfATileAsTheAPIGivesThem() async throws {
        let (server, port) = try await serve()
        defer { server.kill() }
        let tile = MapTile(containing: MapTestData.here.offset(metres: 1_000, bearing: 90), zoom: 14)
        let answer = try await PlainHTTP.get(port: port, "/tiles/cells/\(tile.zoom)/\(tile.x)/\(tile.y).mvt")
        #expect(answer.status == 200 && answer.headers["content-type"] == "application/vnd.mapbox-vector-tile", "\(answer.status) \(answer.text.prefix(200))")
        let nw = tile.northWest, se = tile.southEast, inset = 1e-7
        let bbox = "\(nw.longitude + inset),\(se.latitude + inset),\(se.longitude - inset),\(nw.latitude - inset)"
        let cells = try await CoverageMapTests.features(port: port, "/api/cells?z=19&bbox=\(bbox)").compactMap { $0["properties"] as? [String: Any] }
        #expect(cells.count > 10, "the tile holds \(cells.count) cells")

        let summary = try await ogrinfo(tile, answer.body, ["-so", "-al"])
        #expect(summary.contains("Layer name: cells") && summary.contains("Feature Count: \(cells.count)\n") && summary.contains("Geometry: Polygon"), "\(summary)")
        // Where they are: the layer's extent (Web Mercator metres) is the cells', to a unit of the
        // tile's grid (0.6 m at zoom 14).
        let rings = try await CoverageMapTests.features(port: port, "/api/cells?z=19&bbox=\(bbox)").flatMap(CommunityMapTests.ring)
        func mercator(_ lon: Double, _ lat: Double) -> (Double, Double) {
            (lon * .pi / 180 * 6_378_137, log(tan(.pi / 4 + lat * .pi / 360)) * 6_378_137)
        }
        let (west, south) = mercator(rings.map { $0[0] }.min() ?? 0, rings.map { $0[1] }.min() ?? 0)
        let (east, north) = mercator(rings.map { $0[0] }.max() ?? 0, rings.map { $0[1] }.max() ?? 0)
        let extent = summary.split(separator: "\n").first { $0.contains("Extent: (") }.map(String.init) ?? ""
        let numbers = extent.split(whereSeparator: { "(), -:".contains($0) }).compactMap { Double($0) }
        #expect(numbers.count == 4 && zip(numbers, [west, south, east, north]).allSatisfy { abs($0 - $1) < 1 }, "\(extent) against \([west, south, east, north])")
        for field in ["state: String", "receptions: Integer", "color: String", "best: Real", "gateways: Integer"] {
            #expect(summary.contains(field), "no field \(field) in \(summary)")
        }
        // Each cell's figures: the same states and receptions, cell by cell.
        let all = try await ogrinfo(tile, answer.body, ["-q", "-al", "-geom=NO"])
        func tally(_ states: [String]) -> [String: Int] { Dictionary(states.map { ($0, 1) }, uniquingKeysWith: +) }
        let drawnStates = all.split(separator: "\n").filter { $0.contains("state (String) = ") }.map { String($0.split(separator: "=").last!.trimmingCharacters(in: .whitespaces)) }
        #expect(tally(drawnStates) == tally(cells.compactMap { $0["state"] as? String }), "\(tally(drawnStates))")
        let receptions = all.split(separator: "\n").filter { $0.contains("receptions (Integer) = ") }.compactMap { Int($0.split(separator: "=").last!.trimmingCharacters(in: .whitespaces)) }
        #expect(receptions.reduce(0, +) == cells.compactMap { $0["receptions"] as? Int }.reduce(0, +))

        // A cache's second ask: not modified while nothing changed.
        let etag = try #require(answer.headers["etag"])
        #expect(answer.headers["cache-control"] == "public, max-age=60")
        let again = try await PlainHTTP.get(port: port, "/tiles/cells/\(tile.zoom)/\(tile.x)/\(tile.y).mvt", headers: ["If-None-Match: \(etag)"])
        #expect(again.status == 304 && again.body.isEmpty, "\(again.status)")

        // The other layers (the drive's last 20 attempts, 3 to 4.5 km east, nobody heard), and
        // what is no tile.
        let unheardTile = MapTile(containing: MapTestData.here.offset(metres: 3_750, bearing: 90), zoom: 14)
        for (layer, tile) in [("unheard", unheardTile), ("reach", tile), ("gateways", tile)] {
            let other = try await PlainHTTP.get(port: port, "/tiles/\(layer)/\(tile.zoom)/\(tile.x)/\(tile.y).mvt")
            #expect(other.status == 200 && !other.body.isEmpty, "\(layer): \(other.status)")
            #expect(try await ogrinfo(tile, other.body, ["-so", "-al"]).contains("Layer name: \(layer)"))
        }
        let wrong = try await PlainHTTP.get(port: port, "/tiles/roads/14/1/1.mvt")
        #expect(wrong.status == 400 && wrong.text.contains("no layer roads"), "\(wrong.text)")
        let outside = try await PlainHTTP.get(port: port, "/tiles/cells/3/9/1.mvt")
        #expect(outside.status == 400 && outside.text.contains("no tile 3/9/1.mvt"), "\(outside.text)")
    }
}
