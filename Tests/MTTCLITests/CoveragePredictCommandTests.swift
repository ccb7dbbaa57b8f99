import Foundation
import MTTCore
import TestSupport
import Testing

/// `mtt coverage predict` and `validate` as a user runs them, on a simulated drive.
@Suite("mtt coverage predict and validate")
struct CoveragePredictCommandTests {
    @Test func aDrivesAntennasPredictTheirSignalAndSayHowFarToTrustIt() async throws {
        let mtt = MTTCommand()
        // Drives until a gateway has heard enough for a model (20 receptions), in every fold too:
        // one 20 s drive at 100× gives the nearest some 70, a loaded machine's fewer (six beside
        // two other suites were not enough), and each drive adds a session.
        var predicted: ChildProcess.Result?
        for _ in 0..<20 {
            let drive = try await mtt.run([
                "collect", "--mode", "active", "--node", "fake:2", "--gps", "fake", "--network", "fake", "--speed", "100", "--duration", "20s", "--db", mtt.database,
            ])
            #expect(drive.status == 0, "\(drive.stderr)")
            // A place on the route: the gateway with enough receptions predicts; the others say why not.
            predicted = try await mtt.run(["coverage", "predict", "--at", "40.68,-73.95", "--json", "--db", mtt.database])
            // And enough for cross-validation: each fold's model is fitted on the others' receptions
            // (200 m squares: a drive that stays within one 1 km square, as a loaded machine's
            // short ones can, has no other fold to fit on).
            let folds = try await mtt.run(["coverage", "validate", "--block", "200", "--json", "--db", mtt.database]).stdout
            if predicted?.stdout.contains(#""signal":"#) == true && !folds.contains(#""receptions":0"#) { break }
        }
        let answer = try #require(predicted)
        #expect(answer.status == 0, "\(answer.stderr)")
        let point = try #require(try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any])
        #expect(point["lat"] as? Double == 40.68 && point["lon"] as? Double == -73.95)
        let gateways = try #require(point["gateways"] as? [[String: Any]])
        let modelled = gateways.filter { $0["signal"] != nil }
        #expect(!modelled.isEmpty, "\(answer.stdout)")
        for g in modelled {
            let signal = try #require(g["signal"] as? Double), low = try #require(g["low"] as? Double), high = try #require(g["high"] as? Double)
            #expect(low < signal && signal < high && (0...1).contains(g["p_heard"] as? Double ?? -1), "\(g)")
            #expect(g["eui"] as? String != nil && g["network"] as? String != nil)
        }
        #expect(gateways.allSatisfy { $0["signal"] != nil || ($0["reason"] as? String)?.isEmpty == false }, "\(gateways)")
        #expect((0...1).contains(point["p_heard_any"] as? Double ?? -1))

        // A file of places with a header, in CSV; a line that is no place is named.
        let places = mtt.dir.file("places.csv")
        try "lat,lon\n40.68,-73.95\n40.69,-73.94\n".write(toFile: places, atomically: true, encoding: .utf8)
        let csv = try await mtt.run(["coverage", "predict", "--points", places, "--csv", "--db", mtt.database])
        let lines = csv.stdout.split(separator: "\n")
        #expect(csv.status == 0 && lines.first == "lat,lon,network,gateway_id,antenna,signal,low,high,p_heard,p_heard_any,reason", "\(csv.stdout)")
        #expect(lines.count == 1 + 2 * gateways.count, "\(csv.stdout)")
        try "lat,lon\n40.68,-73.95\nhere,there\n".write(toFile: places, atomically: true, encoding: .utf8)
        let bad = try await mtt.run(["coverage", "predict", "--points", places, "--db", mtt.database])
        #expect(bad.status == 1 && bad.stderr.contains("line 3: not lat,lon: here,there"), "\(bad.stderr)")

        // The predicted layer: tiles nobody measured only, each a prediction with its interval.
        let predictedLayer = try await mtt.run(["export", "--format", "geojson", "--layer", "predicted", "--db", mtt.database])
        let cellsLayer = try await mtt.run(["export", "--format", "geojson", "--layer", "cells", "--db", mtt.database])
        func features(_ text: String) throws -> [[String: Any]] {
            let collection = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return (collection?["features"] as? [[String: Any]] ?? []).compactMap { $0["properties"] as? [String: Any] }
        }
        let measured = Set(try features(cellsLayer.stdout).compactMap { p -> String? in
            guard let x = p["x"] as? Int, let y = p["y"] as? Int else { return nil }
            return "\(x >> 2)/\(y >> 2)"
        })
        let tiles = try features(predictedLayer.stdout)
        #expect(!tiles.isEmpty && !measured.isEmpty, "\(predictedLayer.stderr)")
        for tile in tiles {
            #expect(tile["state"] as? String == "predicted" && tile["z"] as? Int == 17)
            #expect(!measured.contains("\(tile["x"] as? Int ?? -1)/\(tile["y"] as? Int ?? -1)"), "a predicted tile over a measured cell: \(tile)")
            if let low = tile["low"] as? Double, let signal = tile["signal"] as? Double, let high = tile["high"] as? Double {
                #expect(low < signal && signal < high)
            }
        }

        // The map's predicted layer for a view: the export's tiles in it, with the same figures;
        // a view wider than zoom 12 gets none.
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "127.0.0.1:\(port)", "--tiles", "none", "--db", mtt.database])
        defer { server.kill() }
        #expect(await server.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(server.stderr)")
        let exported = Dictionary(tiles.map { ("\($0["x"] as? Int ?? -1)/\($0["y"] as? Int ?? -1)", $0["signal"] as? Double) }) { first, _ in first }
        let view = try await PlainHTTP.get(port: port, "/api/predicted?z=14&bbox=-74.0,40.65,-73.9,40.70")
        #expect(view.status == 200 && view.headers["content-type"] == "application/geo+json", "\(view.text)")
        let served = try features(view.text)
        #expect(!served.isEmpty)
        for tile in served {
            let key = "\(tile["x"] as? Int ?? -1)/\(tile["y"] as? Int ?? -1)"
            #expect(exported[key] != nil && exported[key] == tile["signal"] as? Double, "\(key): served \(tile), exported \(String(describing: exported[key]))")
        }
        // The simulated gateways stand where they say: the map's list says nothing of their position.
        let listed = try await PlainHTTP.get(port: port, "/api/gateways")
        let gatewayList = try #require(try JSONSerialization.jsonObject(with: Data(listed.text.utf8)) as? [[String: Any]])
        #expect(!gatewayList.isEmpty && gatewayList.allSatisfy { $0.keys.contains("position_check") && $0["position_check"] is NSNull }, "\(listed.text)")
        let wide = try await PlainHTTP.get(port: port, "/api/predicted?z=10&bbox=-75,40,-73,41")
        let wideTiles = try features(wide.text)
        #expect(wide.status == 200 && wideTiles.isEmpty, "\(wide.text.prefix(200))")

        // Where to put the next gateway: a site amid the mapped cells ranks above one 30 km away,
        // which would hear none of them (a drive nobody missed has no unheard cells to rank by:
        // the mapped ones decide then), and the ranked sites are written as points.
        let cells = try features(cellsLayer.stdout).compactMap { p -> GeoPoint? in
            guard let x = p["x"] as? Int, let y = p["y"] as? Int else { return nil }
            return MapTile(zoom: 19, x: x, y: y).centre
        }
        let middle = GeoPoint(
            latitude: cells.map(\.latitude).reduce(0, +) / Double(max(cells.count, 1)), longitude: cells.map(\.longitude).reduce(0, +) / Double(max(cells.count, 1)))
        let far = middle.offset(metres: 30_000, bearing: 90)
        let sites = mtt.dir.file("sites.csv")
        try "lat,lon,height\n\(far.latitude),\(far.longitude),10\n\(middle.latitude),\(middle.longitude),10\n".write(toFile: sites, atomically: false, encoding: .utf8)
        let planned = try await mtt.run(["coverage", "plan", "--candidates", sites, "--json", "--out", mtt.dir.file("sites.geojson"), "--db", mtt.database])
        #expect(planned.status == 0, "\(planned.stderr)")
        let ranked = try planned.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(ranked.count == 2 && abs((ranked.first?["lat"] as? Double ?? 0) - middle.latitude) < 1e-5, "\(planned.stdout)")
        #expect((ranked.first?["mapped_cells"] as? Int ?? 0) > 0 && ranked.last?["mapped_cells"] as? Int == 0, "\(planned.stdout)")
        #expect((ranked.first?["expected_unheard_cells"] as? Double ?? -1) >= (ranked.last?["expected_unheard_cells"] as? Double ?? 0))
        let points = try features(try String(contentsOfFile: mtt.dir.file("sites.geojson"), encoding: .utf8))
        #expect(points.map { $0["rank"] as? Int } == [1, 2], "\(points)")

        let validated = try await mtt.run(["coverage", "validate", "--block", "200", "--json", "--db", mtt.database])
        #expect(validated.status == 0, "\(validated.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(validated.stdout.utf8)) as? [String: Any])
        #expect((report["receptions"] as? Int ?? 0) > 0 && report["folds"] as? Int == 5 && report["block_m"] as? Double == 200, "\(validated.stdout)")
        for method in ["model", "log_distance_baseline"] {
            let scores = try #require(report[method] as? [String: Any])
            #expect((scores["rmse"] as? Double ?? 0) > 0 && (0...1).contains(scores["inside_80"] as? Double ?? -1), "\(method): \(scores)")
        }
        let text = try await mtt.run(["coverage", "validate", "--block", "200", "--db", mtt.database]).stdout
        #expect(text.contains("RMSE") && text.contains("log-distance line alone"), "\(text)")
    }

    @Test func placesAreRequiredAndChecked() async throws {
        let mtt = MTTCommand()
        let none = try await mtt.run(["coverage", "predict", "--db", mtt.database])
        #expect(none.status == 64 && none.stderr.contains("give the places"), "\(none.stderr)")
        let wrong = try await mtt.run(["coverage", "predict", "--at", "95,5", "--db", mtt.database])
        #expect(wrong.status == 64 && wrong.stderr.contains("--at takes LAT,LON"), "\(wrong.stderr)")
    }
}
