import Foundation
import MTTCore
import TestSupport
import Testing

@Suite("mtt import")
struct ImportCommandTests {
    let mtt = MTTCommand()

    @Test func importsAWalkTestAndSaysWhatItLost() async throws {
        let result = try await mtt.run(["import", FixtureFiles.own("mapthethings/walk-sample.json"), "--db", mtt.database])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "imported 3 samples into session 1 of \(mtt.database), 2 lost packets from gaps in payload_seq\n")
        let status = try await mtt.run(["status", "--db", mtt.database, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        // The gaps were sent and not heard (confirmed, no uplink); "failed" is for a node that could not send.
        #expect(object["heard"] as? Int == 3 && object["confirmed"] as? Int == 5 && object["failed"] as? Int == 0)
    }

    @Test func aMissingOrForeignFileIsOneLine() async throws {
        let missing = try await mtt.run(["import", "/nonexistent/walk.json", "--db", mtt.database])
        #expect(missing.status == 1 && missing.stderr == "mtt: cannot read /nonexistent/walk.json\n")
        let foreign = try await mtt.run(["import", FixtureFiles.own("nmea/utrecht-drive.nmea"), "--db", mtt.database])
        #expect(foreign.status == 1 && foreign.stderr.hasSuffix("is neither a MapTheThings data set (a JSON array of samples with gps and time) nor an uplink log (The Things Stack, ChirpStack v4 or Helium console JSON)\n"))
    }

    /// A bad entry is named by its number and what is wrong with it, and an entry larger than any
    /// sample is refused before it is read whole (issue 47, item 11); either way nothing is stored.
    @Test func aBadEntryIsNamedAndNothingIsStored() async throws {
        let good = #"{"gps":[52.09,5.12],"time":"2026-06-21T10:00:00Z","rssi":-100,"snr":2,"device":"n","gateway":"g"}"#
        let noTime = mtt.dir.file("no-time.json")
        try "[\(good),\(good),{\"gps\":[52.1,5.1],\"rssi\":-90}]".write(toFile: noTime, atomically: true, encoding: .utf8)
        let missing = try await mtt.run(["import", noTime, "--db", mtt.database])
        #expect(missing.status == 1 && missing.stderr == "mtt: \(noTime): entry 3 is not a sample (no time): nothing was imported\n", "\(missing.stderr)")

        let huge = mtt.dir.file("huge.json")
        try ("[\(good),{\"gps\":[52.1,5.1],\"time\":\"2026-06-21T10:00:00Z\",\"device\":\"" + String(repeating: "x", count: 2 << 20) + "\"}]")
            .write(toFile: huge, atomically: true, encoding: .utf8)
        let large = try await mtt.run(["import", huge, "--db", mtt.database])
        #expect(large.status == 1 && large.stderr.contains("entry 2 is longer than 1 MiB, which no sample is"), "\(large.stderr)")
        #expect(try Store(path: mtt.database).status().samples == 0)
    }
}

@Suite("mtt export")
struct ExportCommandTests {
    let mtt = MTTCommand()

    @Test func exportsWhatWasImportedToStdoutOrAFile() async throws {
        _ = try await mtt.run(["import", FixtureFiles.own("mapthethings/coverage-sample.json"), "--db", mtt.database])
        let csv = try await mtt.run(["export", "--format", "csv", "--db", mtt.database])
        #expect(csv.status == 0)
        #expect(csv.stdout.split(separator: "\n").count == 3)
        let out = mtt.dir.file("coverage.kml")
        let kml = try await mtt.run(["export", "--format", "kml", "--out", out, "--db", mtt.database])
        #expect(kml.status == 0 && kml.stderr == "mtt: wrote 2 records to \(out)\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("<kml xmlns=\"http://www.opengis.net/kml/2.2\">"))
    }

    @Test func badOptionsAreUsageErrors() async throws {
        _ = try Store(path: mtt.database)
        #expect(try await mtt.run(["export", "--format", "shp", "--db", mtt.database]).status == 64)
        #expect(try await mtt.run(["export", "--format", "csv", "--since", "yesterday", "--db", mtt.database]).status == 64)
        let unwritable = try await mtt.run(["export", "--format", "csv", "--out", "/nonexistent/x.csv", "--db", mtt.database])
        #expect(unwritable.status == 1 && unwritable.stderr == "mtt: cannot write /nonexistent/x.csv: No such file or directory\n")
    }
}
