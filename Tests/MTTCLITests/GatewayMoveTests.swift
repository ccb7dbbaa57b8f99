import Foundation
import MTTCore
import TestSupport
import Testing

/// Issue 45, "a map that stays true": a gateway that moved more than 100 m is covered by what it
/// heard since, and the cells from before stay as history in the exports. The uplinks are a
/// tracker's, written for mtt from SPEC §3 (The Things Stack's `rx_metadata` with the gateway's
/// location).
@Suite("A gateway that moved")
struct GatewayMoveTests {
    let mtt = MTTCommand()
    static let old = GeoPoint(latitude: 52.1200, longitude: 5.1200)
    static let new = old.destination(metres: 2_000, bearing: 90)

    static func uplink(_ n: Int, gatewayAt gateway: GeoPoint) -> String {
        let time = RFC3339.string(RFC3339.parse("2026-06-21T10:00:00Z")!.adding(seconds: Double(n * 60)), fractionDigits: 0)
        let at = GeoPoint(latitude: 52.0900, longitude: 5.1000).destination(metres: Double(n) * 250, bearing: 90)
        return #"{"end_device_ids":{"device_id":"tbeam-1","dev_eui":"70B3D57ED000AB01"},"received_at":"\#(time)","uplink_message":{"f_port":1,"f_cnt":\#(n),"frm_payload":"AQ==","decoded_payload":{"gps":{"latitude":\#(at.latitude),"longitude":\#(at.longitude),"altitude":4},"sats":7},"rx_metadata":[{"gateway_ids":{"gateway_id":"gw-1"},"rssi":-101,"snr":4.5,"location":{"latitude":\#(gateway.latitude),"longitude":\#(gateway.longitude),"altitude":20,"source":"SOURCE_REGISTRY"}}],"settings":{"data_rate":{"lora":{"bandwidth":125000,"spreading_factor":7}},"frequency":"868500000"}}}"#
    }

    @Test func itsCoverageIsWhatItHeardSinceAndTheRestIsHistory() async throws {
        let log = mtt.dir.file("tts.jsonl")
        let lines = (0..<3).map { Self.uplink($0, gatewayAt: Self.old) } + (3..<6).map { Self.uplink($0, gatewayAt: Self.new) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: false, encoding: .utf8)
        let imported = try await mtt.run(["import", log, "--db", mtt.database])
        #expect(imported.status == 0 && imported.stdout.contains("6 placed by their device's own position"), "\(imported.stdout)\(imported.stderr)")

        let text = try await mtt.run(["coverage", "--gateway", "gw-1", "--db", mtt.database])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("gw-1: 3 cell(s), 3 reception(s)"), "\(text.stdout)")
        #expect(text.stdout.contains("moved 2.00 km on 2026-06-21T10:03:00Z from 52.12000, 5.12000; its cells from before are history (mtt export --format geojson --layer moved)"),
                "\(text.stdout)")
        let json = try await mtt.run(["coverage", "--gateway", "gw-1", "--json", "--db", mtt.database])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let moves = try #require(summary["moves"] as? [[String: Any]])
        #expect(moves.count == 1 && moves.first?["moved_at"] as? String == "2026-06-21T10:03:00.000Z" && moves.first?["metres"] as? Double == 2_000,
                "\(moves)")

        let geojson = try await mtt.run(["export", "--format", "geojson", "--layer", "moved", "--db", mtt.database])
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        #expect(properties.count == 3 && properties.allSatisfy { $0["state"] as? String == "moved" && $0["moved_at"] as? String == "2026-06-21T10:03:00Z" },
                "\(properties)")
        let cells = try await mtt.run(["export", "--format", "geojson", "--layer", "cells", "--db", mtt.database])
        #expect(cells.stdout.components(separatedBy: #""state":"heard""#).count - 1 == 3, "the map's cells are the 3 since the move")

        let file = mtt.dir.file("coverage.gpkg")
        #expect(try await mtt.run(["export", "--format", "gpkg", "--out", file, "--db", mtt.database]).status == 0)
        let layer = try await ChildProcess.run("/usr/bin/ogrinfo", ["-so", file, "moved_cells"])
        #expect(layer.stdout.contains("Feature Count: 3\n"), "\(layer.stdout)\(layer.stderr)")

        let rebuilt = try await mtt.run(["coverage", "--rebuild", "--gateway", "gw-1", "--db", mtt.database])
        #expect(rebuilt.stdout == text.stdout, "a rebuild reads the same move")
    }
}
