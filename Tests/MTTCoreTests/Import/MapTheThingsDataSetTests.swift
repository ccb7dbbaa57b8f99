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
        let samples = try store.records.samples(session: summary.session)
        #expect(samples.map(\.position) == [GeoPoint(latitude: 52.0907, longitude: 5.1214), GeoPoint(latitude: 52.1003, longitude: 5.1782)])
        // A time without a zone is UTC.
        #expect(samples[0].time == RFC3339.parse("2026-06-21T10:15:00Z"))
        guard case .uplink(let id) = samples[1].subject, let uplink = try store.records.uplink(id) else {
            Issue.record("sample without its uplink")
            return
        }
        #expect(uplink.receptions.first?.gatewayID == "Uithof" && uplink.receptions.first?.rssi == -118 && uplink.receptions.first?.snr == -12.25)
        #expect(try store.sessions.session(summary.session)?.mode == .imported)
        // Imported data came from the maps: nothing queued to go back.
        #expect(try store.status().unsynced == ["mapthethings": 0, "ttnmapper": 0])
    }

    @Test func walkTestGapsAreLostPackets() throws {
        let store = try Store(path: dir.file("w.sqlite"))
        let summary = try MapTheThingsDataSet.importFile(FixtureFiles.own("mapthethings/walk-sample.json"), into: store)
        #expect(summary.samples == 3 && summary.lost == 2)
        let status = try store.status()
        // The gaps were sent and not heard, as a live run stores such an attempt: "failed" is for a
        // node that could not send.
        #expect(status.attempts == 5 && status.confirmed == 5 && status.failed == 0 && status.heard == 3)
        #expect(status.lossPercent == 40)
        let samples = try store.records.samples(session: summary.session)
        #expect(samples[2].position == GeoPoint(latitude: -33.8688, longitude: -151.2093))
        guard case .uplink(let id) = samples[2].subject, let uplink = try store.records.uplink(id) else {
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
        let uplinks = try store.records.samples(session: summary.session).compactMap { sample -> Uplink? in
            guard case .uplink(let id) = sample.subject else { return nil }
            return try? store.records.uplink(id)
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
        // No session is left behind by a failed import either.
        #expect(try store.status().sessions == 0)
    }

    /// A malformed entry at the very end: the entries before it were already written in the
    /// transaction, and none of them, nor the session, stays.
    @Test func anImportThatFailsLateLeavesNoTrace() throws {
        let store = try Store(path: dir.file("late.sqlite"))
        let file = dir.file("late.json")
        try #"[{"gps":[52.09,5.12],"time":"2026-06-21 10:15:00"},{"gps":[52.1,5.2],"time":"2026-06-21 10:16:00"},{"gps":[52.1,5.2],"time":"yesterday"}]"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: MapTheThingsDataSet.ImportError.self) { try MapTheThingsDataSet.importFile(file, into: store) }
        let status = try store.status()
        #expect(status.sessions == 0 && status.uplinks == 0 && status.samples == 0)
    }

    /// Two nodes walking together: each node's gaps are its own.
    @Test func gapsAreCountedPerNode() throws {
        let store = try Store(path: dir.file("nodes.sqlite"))
        let file = dir.file("nodes.json")
        let entries = [("A", 0), ("B", 10), ("A", 1), ("B", 11), ("A", 3), ("B", 12)].enumerated().map { i, e in
            #"{"gps":"52.0907N,5.1214E","time":"2026-06-21T10:15:\#(String(format: "%02d", i))Z","nodeEui":"\#(e.0)","payload_seq":\#(e.1)}"#
        }
        try ("[" + entries.joined(separator: ",\n") + "]").write(toFile: file, atomically: true, encoding: .utf8)
        let summary = try MapTheThingsDataSet.importFile(file, into: store)
        // A lost 2; B lost nothing (it used to be charged A's numbers 2…9).
        #expect(summary.lost == 1 && summary.counterResets == 0)
        let status = try store.status()
        #expect(status.confirmed - status.heard == 1 && status.failed == 0)
    }

    /// The same content under another name is recognised: a second session would put every sample
    /// twice on the map and in the gateway counts.
    @Test func theSameFileTwiceIsRefusedWithTheSessionItIsIn() throws {
        let store = try Store(path: dir.file("twice.sqlite"))
        let first = try MapTheThingsDataSet.importFile(FixtureFiles.own("mapthethings/walk-sample.json"), into: store)
        let copy = dir.file("renamed.json")
        try FileManager.default.copyItem(atPath: FixtureFiles.own("mapthethings/walk-sample.json"), toPath: copy)
        #expect {
            try MapTheThingsDataSet.importFile(copy, into: store)
        } throws: { error in
            "\(error)".contains("same content as session \(first.session)") && "\(error)".contains("nothing was imported")
        }
        #expect(try store.status().sessions == 1 && store.status().samples == 3)
        // Another file is imported as usual.
        let other = dir.file("other.json")
        try #"[{"gps":[52.09,5.12],"time":"2026-06-21T10:15:00Z"}]"#.write(toFile: other, atomically: true, encoding: .utf8)
        #expect(try MapTheThingsDataSet.importFile(other, into: store).session == first.session + 1)
    }

    /// A jump from 0 to 3,000,000 is a node that restarted its counter, not 2,999,999 losses.
    @Test func aHugeJumpIsACounterResetNotLosses() throws {
        let store = try Store(path: dir.file("reset.sqlite"))
        let file = dir.file("reset.json")
        try #"[{"gps":"52.09N,5.12E","time":"2026-06-21T10:15:00Z","nodeEui":"A","payload_seq":0},{"gps":"52.09N,5.12E","time":"2026-06-21T10:15:10Z","nodeEui":"A","payload_seq":3000000},{"gps":"52.09N,5.12E","time":"2026-06-21T10:15:20Z","nodeEui":"A","payload_seq":3000002}]"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let summary = try MapTheThingsDataSet.importFile(file, into: store)
        #expect(summary.lost == 1 && summary.counterResets == 1)
        #expect(try store.status().attempts == 4)
    }

    /// Entries are read one at a time from the file: strings holding brackets and commas, escapes
    /// and nesting split where JSON says, not where the bytes look like it.
    @Test func theStreamedReaderSplitsWhereJSONDoes() throws {
        let store = try Store(path: dir.file("s.sqlite"))
        let file = dir.file("s.json")
        try "\n [ {\"gps\":[52.09, 5.12],\"time\":\"2026-06-21 10:15:00\",\"gateway\":\"a],\\\"{b\"} ,\n{\"gps\":[52.1,5.2],\"time\":\"2026-06-21 10:16:00\",\"extra\":{\"x\":[1,[2]]}} ] \n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let summary = try MapTheThingsDataSet.importFile(file, into: store)
        #expect(summary.samples == 2)
        guard case .uplink(let id) = try store.records.samples(session: summary.session)[0].subject else {
            Issue.record("the first sample is not a heard uplink")
            return
        }
        #expect(try store.records.uplink(id)?.receptions.first?.gatewayID == "a],\"{b")
    }
}

@Suite("Importing the real MapTheThings data sets", .enabled(if: FixtureFiles.sharedIsPresent, "\(FixtureFiles.sharedSkipReason)"))
struct RealDataSetImportTests {
    let dir = TemporaryDirectory()

    @Test func utrechtCoverageHas5705Samples() throws {
        let store = try Store(path: dir.file("u.sqlite"))
        let summary = try MapTheThingsDataSet.importFile(try #require(FixtureFiles.shared("mapthethings/utrecht-coverage.json")), into: store)
        #expect(summary.samples == 5705 && summary.lost == 0)
        let samples = try store.records.samples(session: summary.session)
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
        #expect(status.heard == heard && status.confirmed - status.heard == lost && status.failed == 0)
        // payload_seq runs from 0 to heard + lost − 1 in both files.
        #expect(status.attempts == heard + lost)
        let first = try #require(try store.records.samples(session: summary.session).first?.position)
        if file.hasPrefix("brooklyn") {
            #expect(first == GeoPoint(latitude: 40.685341, longitude: -73.988661))
        }
    }
}
