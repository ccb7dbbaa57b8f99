import Foundation
import MTTCore
import TestSupport
import Testing

/// A map that stays true (issue 45): a gateway nothing was heard from in the five days before the
/// newest reception has its cells left off the map, unless asked for, then marked silent; a click
/// says how long it has been silent; the exports keep everything. And what changed since a day.
@Suite("Silent gateways on the map")
struct SilentGatewayMapTests {
    let mtt = MTTCommand()

    /// Three places: `gone` heard only by gw-gone (ten days before the newest reception), `both`
    /// heard by gw-gone then and by gw-here ten days later, `here` only by gw-here then.
    static let gone = GeoPoint(latitude: 52.10, longitude: 5.10)
    static let both = GeoPoint(latitude: 52.11, longitude: 5.11)
    static let here = GeoPoint(latitude: 52.12, longitude: 5.12)

    func fill(_ store: Store) throws {
        let old = MapTestData.start, recent = MapTestData.start.adding(seconds: 10 * 86_400)
        try MapTestData.heardSamples(store, at: [Self.gone, Self.both], startingAt: old, receptions: [GatewayReception(gatewayID: "gw-gone", rssi: -100, snr: 5)])
        try MapTestData.heardSamples(store, at: [Self.both, Self.here], startingAt: recent, receptions: [GatewayReception(gatewayID: "gw-here", rssi: -90, snr: 5)])
    }

    static func properties(_ text: String) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (json?["features"] as? [[String: Any]] ?? []).compactMap { $0["properties"] as? [String: Any] }
    }

    static func tile(_ p: GeoPoint) -> MapTile { MapTile(containing: p, zoom: MapTile.cellZoom) }

    @Test func aGatewaySilentForDaysLeavesTheMapButNotTheExports() async throws {
        try fill(try Store(path: mtt.database))
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "127.0.0.1:\(port)", "--tiles", "none", "--db", mtt.database])
        defer { server.kill() }
        #expect(await server.waitForOutput(timeout: 60) { $0.contains("the map is at") }, "\(server.stderr)")
        let view = "/api/cells?z=19&bbox=5.0,52.0,5.3,52.2"
        func tiles(_ cells: [[String: Any]]) -> Set<MapTile> {
            Set(cells.compactMap { p in (p["x"] as? Int).flatMap { x in (p["y"] as? Int).map { MapTile(zoom: 19, x: x, y: $0) } } })
        }

        // By default: gw-gone's own cell is not on the map; the shared one is, with gw-here's reception alone.
        let shown = try Self.properties(try await PlainHTTP.get(port: port, view).text)
        #expect(tiles(shown) == [Self.tile(Self.both), Self.tile(Self.here)], "\(shown)")
        #expect(shown.allSatisfy { $0["receptions"] as? Int == 1 && $0["silent"] == nil }, "\(shown)")

        // Asked for: all three, the one only gw-gone heard marked silent.
        let all = try Self.properties(try await PlainHTTP.get(port: port, view + "&silent=show").text)
        #expect(tiles(all) == [Self.tile(Self.gone), Self.tile(Self.both), Self.tile(Self.here)], "\(all)")
        let marked = all.filter { $0["silent"] as? Bool == true }
        #expect(tiles(marked) == [Self.tile(Self.gone)], "\(all)")
        #expect(all.first { tiles([$0]) == [Self.tile(Self.both)] }?["receptions"] as? Int == 2)

        // A click on the shared cell: gw-here alone, or both with how long gw-gone has been silent.
        let both = Self.tile(Self.both)
        let click = "/api/cell?z=19&x=\(both.x)&y=\(both.y)"
        #expect(try Self.properties(try await PlainHTTP.get(port: port, click).text).map { $0["gateway"] as? String } == ["gw-here"])
        let listed = try Self.properties(try await PlainHTTP.get(port: port, click + "&silent=show").text)
        #expect(Set(listed.compactMap { $0["gateway"] as? String }) == ["gw-here", "gw-gone"], "\(listed)")
        #expect(listed.first { $0["gateway"] as? String == "gw-gone" }?["silent_days"] as? Double == 10, "\(listed)")
        #expect(listed.first { $0["gateway"] as? String == "gw-here" }?["silent_days"] == nil)
        // Another threshold: over 10 days nobody is silent.
        #expect(tiles(try Self.properties(try await PlainHTTP.get(port: port, view + "&silent_days=11").text)).count == 3)
        let refused = try await PlainHTTP.get(port: port, view + "&silent=maybe")
        #expect(refused.status == 400 && refused.text.contains("silent must be show or hide"), "\(refused.text)")

        // What changed since gw-here came: its own cell is new; the shared one was heard before.
        let since = RFC3339.string(MapTestData.start.adding(seconds: 10 * 86_400), fractionDigits: 0)
        let changes = try Self.properties(try await PlainHTTP.get(port: port, "/api/diff?since=\(since)").text)
        #expect(changes.map { "\($0["change"] ?? "")" } == ["new"] && tiles(changes) == [Self.tile(Self.here)], "\(changes)")
        let undated = try await PlainHTTP.get(port: port, "/api/diff")
        #expect(undated.status == 400 && undated.text.contains("since is missing"), "\(undated.text)")

        // The gateways' list says so; the exports keep gw-gone's samples.
        let gateways = try JSONSerialization.jsonObject(with: Data(try await PlainHTTP.get(port: port, "/api/gateways").text.utf8)) as? [[String: Any]] ?? []
        #expect(gateways.first { $0["gateway"] as? String == "gw-gone" }?["silent_days"] as? Double == 10, "\(gateways)")
        let exported = try await mtt.run(["export", "--format", "jsonl", "--db", mtt.database])
        #expect(exported.stdout.split(separator: "\n").count == 4, "\(exported.stdout)")
    }
}
