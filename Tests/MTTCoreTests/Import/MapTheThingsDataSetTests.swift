import Foundation
import MTTCore
import TestSupport
import Testing

@Suite("Importing MapTheThings data sets")
struct MapTheThingsDataSetTests {
    let dir = TemporaryDirectory()

    @Test func coverageExport() throws {
        let store = try Store(path: dir.file("c.sqlite"))
        let summary = try MapTheThingsDataSet.importFile(FixtureFiles.own("mapthethings/coverage-sample.json"), into: store)
        #expect(summary.samples == 2 && summary.lost == 0)
        let samples = try store.samples(session: summary.session)
        #expect(samples.map(\.position) == [GeoPoint(latitude: 52.0907, longitude: 5.1214), GeoPoint(latitude: 52.1003, longitude: 5.1782)])
        // A time without a zone is UTC.
        #expect(samples[0].time == RFC3339.parse("2026-06-21T10:15:00Z"))
        guard case .uplink(let id) = samples[1].subject, let uplink = try store.uplink(id) else {
            Issue.record("sample without its uplink")
            return
        }
        #expect(uplink.receptions.first?.gatewayID == "Uithof" && uplink.receptions.first?.rssi == -118 && uplink.receptions.first?.snr == -12.25)
        #expect(try store.session(summary.session)?.mode == .imported)
        // Imported data came from the maps: nothing queued to go back.
        #expect(try store.status().unsynced == ["mapthethings": 0, "ttnmapper": 0])
    }

    @Test func walkTestGapsAreLostPackets() throws {
        let store = try Store(path: dir.file("w.sqlite"))
        let summary = try MapTheThingsDataSet.importFile(FixtureFiles.own("mapthethings/walk-sample.json"), into: store)
        #expect(summary.samples == 3 && summary.lost == 2)
        let status = try store.status()
        #expect(status.attempts == 5 && status.confirmed == 3 && status.failed == 2 && status.heard == 3)
        #expect(status.lossPercent == 40)
        let samples = try store.samples(session: summary.session)
        #expect(samples[2].position == GeoPoint(latitude: -33.8688, longitude: -151.2093))
        guard case .uplink(let id) = samples[2].subject, let uplink = try store.uplink(id) else {
            Issue.record("sample without its uplink")
            return
        }
        #expect(uplink.fCnt == 4 && uplink.spreadingFactor == 9 && uplink.frequency == 905_100_000)
    }

    @Test func aFrequencyThatIsNoFrequencyIsLeftOutAndTheRecordKept() throws {
        let store = try Store(path: dir.file("f.sqlite"))
        let file = dir.file("f.json")
        try #"[{"gps":[52.0907,5.1214],"time":"2026-06-21 10:15:00","rssi":-97,"frequency":1e30},{"gps":[52.1,5.2],"time":"2026-06-21 10:16:00","rssi":-99,"frequency":868.1}]"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let summary = try MapTheThingsDataSet.importFile(file, into: store)
        #expect(summary.samples == 2)
        let uplinks = try store.samples(session: summary.session).compactMap { sample -> Uplink? in
            guard case .uplink(let id) = sample.subject else { return nil }
            return try? store.uplink(id)
        }
        #expect(uplinks.map(\.frequency) == [nil, 868_100_000])
    }

    @Test func aFileThatIsNotADataSetIsRefusedAndNothingIsStored() throws {
        let store = try Store(path: dir.file("x.sqlite"))
        let bad = dir.file("bad.json")
        try #"[{"gps":"north","time":"2026-06-21T10:15:00Z"}]"#.write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(throws: MapTheThingsDataSet.ImportError.self) { try MapTheThingsDataSet.importFile(bad, into: store) }
        #expect(throws: MapTheThingsDataSet.ImportError.self) { try MapTheThingsDataSet.importFile(FixtureFiles.own("README.md"), into: store) }
        #expect(try store.status().uplinks == 0)
    }
}

@Suite("Importing the real MapTheThings data sets", .enabled(if: FixtureFiles.sharedIsPresent, "\(FixtureFiles.sharedSkipReason)"))
struct RealDataSetImportTests {
    let dir = TemporaryDirectory()

    @Test func utrechtCoverageHas5705Samples() throws {
        let store = try Store(path: dir.file("u.sqlite"))
        let summary = try MapTheThingsDataSet.importFile(try #require(FixtureFiles.shared("mapthethings/utrecht-coverage.json")), into: store)
        #expect(summary.samples == 5705 && summary.lost == 0)
        let samples = try store.samples(session: summary.session)
        #expect(samples.count == 5705)
        // The file's first entry: gps [52.0399832725525, 5.57624816894531] at 2016-04-17 15:24:28.
        #expect(samples.contains { $0.position == GeoPoint(latitude: 52.0399832725525, longitude: 5.57624816894531) && $0.time == RFC3339.parse("2016-04-17T15:24:28Z") })
    }

    @Test(arguments: [("brooklyn_manny_8dbi.json", 492, 151), ("sigmap.uc_test.json", 148, 117)])
    func walkTestsLossFromTheGaps(file: String, heard: Int, lost: Int) throws {
        let store = try Store(path: dir.file("\(file).sqlite"))
        let path = try #require(FixtureFiles.shared("mapthethings/\(file)"))
        let summary = try MapTheThingsDataSet.importFile(path, into: store)
        #expect(summary.samples == heard && summary.lost == lost)
        let status = try store.status()
        #expect(status.heard == heard && status.failed == lost)
        // payload_seq runs from 0 to heard + lost − 1 in both files.
        #expect(status.attempts == heard + lost)
        let first = try #require(try store.samples(session: summary.session).first?.position)
        if file.hasPrefix("brooklyn") {
            #expect(first == GeoPoint(latitude: 40.685341, longitude: -73.988661))
        }
    }
}
