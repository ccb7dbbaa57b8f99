import Foundation
import MTTCore
import TestSupport
import Testing

/// `mtt coverage` over what a drive, a fetch and an import stored (issue 28).
@Suite("mtt coverage")
struct CoverageCommandTests {
    let mtt = MTTCommand()

    func coverage(_ extra: [String] = []) async throws -> [String: Any] {
        let result = try await mtt.run(["coverage", "--json", "--db", mtt.database] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    /// The tables kept while recording equal those `--rebuild` makes from the records.
    func expectRebuildKeeps(after what: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let kept = try Store(path: mtt.database, access: .readOnly).coverage.coverageTables()
        let before = try await coverage()
        let rebuilt = try await mtt.run(["coverage", "--rebuild", "--db", mtt.database])
        #expect(rebuilt.status == 0 && rebuilt.stderr.contains("coverage rebuilt from the records"), "\(rebuilt.stderr)", sourceLocation: sourceLocation)
        let again = try Store(path: mtt.database, access: .readOnly).coverage.coverageTables()
        #expect(kept.values.contains { !$0.isEmpty }, "nothing kept after \(what)", sourceLocation: sourceLocation)
        for (table, rows) in kept {
            #expect(rows == again[table], "after \(what), \(table): kept \(rows.count) rows, rebuilt \(again[table]?.count ?? 0)", sourceLocation: sourceLocation)
        }
        #expect(NSDictionary(dictionary: before) == NSDictionary(dictionary: try await coverage()), sourceLocation: sourceLocation)
    }

    @Test func aDriveAFetchAndAnImportKeepWhatARebuildMakes() async throws {
        let drive = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake:2", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "4s",
            "--db", mtt.database,
        ])
        #expect(drive.status == 0, "\(drive.stderr)")
        let driven = try await coverage()
        let area = try #require(driven["area"] as? [String: Int])
        #expect((area["mapped"] ?? 0) > 0 && (area["heard"] ?? 0) > 0, "\(area)")
        let gateways = (driven["gateways"] as? [[String: Any]] ?? []).compactMap { $0["gateway"] as? String }
        #expect(gateways.contains("sim-gw-north"), "\(gateways)")
        try await expectRebuildKeeps(after: "a simulated drive")

        let storage = try await mtt.offlineListenerRun()
        let fetched = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database], environment: FetchCommandTests.key)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        try await expectRebuildKeeps(after: "a fetch")

        let imported = try await mtt.run(["import", FixtureFiles.own("mapthethings/walk-sample.json"), "--db", mtt.database])
        #expect(imported.status == 0, "\(imported.stderr)")
        try await expectRebuildKeeps(after: "an import")

        // One session, one gateway, one spreading factor: each narrows what is counted.
        let first = try await coverage(["--session", "1"])
        #expect((first["area"] as? [String: Int])?["mapped"] == area["mapped"], "\(first)")
        let north = try await coverage(["--gateway", "sim-gw-north"])
        #expect((north["gateways"] as? [[String: Any]])?.compactMap { $0["gateway"] as? String } == ["sim-gw-north"])
        let text = try await mtt.run(["coverage", "--db", mtt.database])
        #expect(text.stdout.contains("mapped (zoom-19 tiles)") && text.stdout.contains("sim-gw-north:"), "\(text.stdout)")
    }

    /// The coverage layers as GeoJSON, read back by GDAL as QGIS reads them: a polygon per cell
    /// mapped, per gateway level reached; a point per gateway.
    @Test func theLayersOpenInGDAL() async throws {
        let drive = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "4s",
            "--db", mtt.database,
        ])
        #expect(drive.status == 0, "\(drive.stderr)")
        let summary = try await coverage()
        let mapped = try #require((summary["area"] as? [String: Int])?["mapped"])
        let gateways = (summary["gateways"] as? [[String: Any]] ?? []).count
        for (layer, geometry, count) in [("cells", "Polygon", mapped), ("gateways", "Point", gateways)] {
            let file = mtt.dir.file("\(layer).geojson")
            let export = try await mtt.run(["export", "--format", "geojson", "--layer", layer, "--out", file, "--db", mtt.database])
            #expect(export.status == 0 && export.stderr.contains("wrote \(count) \(layer) features"), "\(export.stderr)")
            let info = try await ChildProcess.run("/usr/bin/ogrinfo", ["-so", "-al", file])
            #expect(info.stdout.contains("Geometry: \(geometry)") && info.stdout.contains("Feature Count: \(count)"), "\(layer): \(info.stdout.prefix(300))")
        }
        let reach = mtt.dir.file("reach.geojson")
        #expect(try await mtt.run(["export", "--format", "geojson", "--layer", "reach", "--out", reach, "--db", mtt.database]).status == 0)
        let info = try await ChildProcess.run("/usr/bin/ogrinfo", ["-so", "-al", reach])
        #expect(info.stdout.contains("Geometry: Polygon"), "\(info.stdout.prefix(300))")
        let refused = try await mtt.run(["export", "--format", "kml", "--layer", "cells", "--db", mtt.database])
        #expect(refused.status == 64 && refused.stderr.contains("--layer cells is written as GeoJSON only"), "\(refused.stderr)")
    }

    /// `--format gpkg` as QGIS gets it: GDAL opens the GeoPackage and finds every layer with its
    /// geometry type, features, SRS and spatial index, and its cells count what `mtt coverage` says.
    @Test func theGeoPackageOpensInGDALWithTheCoverageMttCounts() async throws {
        let drive = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake?fail=0.3", "--gps", "fake", "--network", "fake", "--speed", "20",
            "--duration", "4s", "--db", mtt.database,
        ])
        #expect(drive.status == 0, "\(drive.stderr)")
        let summary = try await coverage()
        let area = try #require(summary["area"] as? [String: Int])
        let gateways = try #require(summary["gateways"] as? [[String: Any]])
        let records = try await mtt.run(["export", "--format", "jsonl", "--db", mtt.database]).stdout.split(separator: "\n")
        let heard = records.filter { $0.contains(#""status":"heard""#) }.count

        let file = mtt.dir.file("coverage.gpkg")
        let export = try await mtt.run(["export", "--format", "gpkg", "--out", file, "--db", mtt.database])
        #expect(export.status == 0 && export.stderr.contains("wrote \(records.count) records"), "\(export.stderr)")
        let layers = try await ChildProcess.run("/usr/bin/ogrinfo", ["-q", file])
        for layer in ["1: samples (Point)", "2: unheard_attempts (Point)", "3: estimated_attempts (Point)", "4: tracks (Line String)",
                      "5: device_tracks (Line String)", "6: gateways (Point)", "7: cells (Polygon)", "8: gateway_cells (Polygon)", "9: reach (Polygon)",
                      "10: predicted (Polygon)", "11: moved_cells (Polygon)"] {
            #expect(layers.stdout.contains(layer), "\(layer) not in \(layers.stdout) \(layers.stderr)")
        }
        func ogr(_ arguments: [String]) async throws -> String {
            let result = try await ChildProcess.run("/usr/bin/ogrinfo", arguments)
            #expect(result.status == 0, "ogrinfo \(arguments): \(result.stderr)")
            return result.stdout
        }
        for (layer, count) in [("samples", heard), ("unheard_attempts", records.count - heard), ("cells", area["mapped"] ?? -1),
                               ("gateways", gateways.count), ("tracks", 1), ("estimated_attempts", 0), ("device_tracks", 0),
                               ("moved_cells", 0)] {
            let info = try await ogr(["-so", file, layer])
            #expect(info.contains("Feature Count: \(count)\n") && info.contains(#"ID["EPSG",4326]"#), "\(layer): \(info.prefix(400))")
            #expect(try await ogr(["-q", "-sql", "SELECT HasSpatialIndex('\(layer)', 'geom') AS indexed", file]).contains("= 1"), "\(layer) has no spatial index")
        }
        // A cell's counts, as SQL in the file: per gateway, and heard cells, as mtt coverage counts them.
        let all = SignalBucket.allCases.map { "bucket_\($0.name)" }.joined(separator: " + ")
        let perGateway = try await ogr(["-q", "-sql", "SELECT gateway, SUM(\(all)) AS receptions, COUNT(*) AS cells FROM gateway_cells GROUP BY gateway", file])
        for gateway in gateways {
            let name = try #require(gateway["gateway"] as? String)
            #expect(perGateway.contains("gateway (String) = \(name)\n  receptions (Integer) = \(gateway["receptions"] as? Int ?? -1)\n  cells (Integer) = \(gateway["cells"] as? Int ?? -1)"),
                    "\(name): \(perGateway)")
        }
        let heardCells = try await ogr(["-q", "-sql", "SELECT COUNT(*) AS n FROM cells WHERE state = 'heard'", file])
        #expect(heardCells.contains("n (Integer) = \(area["heard"] ?? -1)"), "\(heardCells)")

        let noFile = try await mtt.run(["export", "--format", "gpkg", "--db", mtt.database])
        #expect(noFile.status == 64 && noFile.stderr.contains("writes a database file, not a stream: give --out FILE"), "\(noFile.stderr)")
    }

    @Test func whatItCannotAnswerIsSaid() async throws {
        let none = try await mtt.run(["coverage", "--db", mtt.database])
        #expect(none.status != 0 && none.stderr.contains("no database"), "\(none.stderr)")
        let badSF = try await mtt.run(["coverage", "--sf", "5", "--db", mtt.database])
        #expect(badSF.status == 64 && badSF.stderr.contains("--sf takes a spreading factor from 7 to 12"), "\(badSF.stderr)")
        try MapTestData.oneHeardSample(try Store(path: mtt.database), receptions: [GatewayReception(gatewayID: "gw-1", rssi: -90, snr: 5)])
        let missing = try await mtt.run(["coverage", "--session", "7", "--db", mtt.database])
        #expect(missing.status == 1 && missing.stderr.contains("there is no session 7"), "\(missing.stderr)")
    }
}
