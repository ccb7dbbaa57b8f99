import Foundation
import MTTCore
import MTTGPS
import TestSupport
import Testing

/// `--gps jsonl:PATH`: a drive scripted as JSON lines, from a file or from a named pipe that
/// scripts write into while the run lasts.
@Suite("JSON lines as a fix source")
struct JSONLinesFixSourceTests {
    let dir = TemporaryDirectory()

    @Test func aFileGivesItsPositionsSkipsWhatIsNotOneThenEnds() async throws {
        let path = FixtureFiles.own("jsonl/scripted-drive.jsonl")
        let clock = ManualClock()
        let spec = try GPSSpec(parsing: "jsonl:" + path, kinds: FixSourceKind.gps)
        #expect(spec.kind.simulatedAs == "GPS scripted in JSON lines")
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(spec.source(FixSourceContext(clock: clock)).events())
        #expect(await recorder.waitUntilFinished(timeout: 30))
        let fixes = await recorder.events.fixes
        // A line with no position and a latitude of 91 are skipped; the rest come in order.
        try #require(fixes.count == 3)
        #expect(fixes[0].time == RFC3339.parse("2026-06-21T08:00:00Z") && fixes[0].altitudeMSL == 4.5 && fixes[0].mode == .threeD)
        #expect(fixes[0].hdop == 0.9 && fixes[0].satellites == 9)
        #expect(fixes[1].time == Timestamp(secondsSinceEpoch: 1_782_028_805) && fixes[1].speed == 12.5 && fixes[1].track == 34 && fixes[1].mode == .twoD)
        // Without a time: the run's clock.
        #expect(fixes[2].time == clock.now() && fixes[2].latitude == 52.0918)
        #expect(fixes.allSatisfy { $0.source == "jsonl:" + path })
    }

    @Test func aNamedPipeTakesWhatScriptsWriteAndOutlivesThem() async throws {
        let pipe = dir.file("drive")
        try #require(mkfifo(pipe, 0o600) == 0)
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(JSONLinesFixSource(path: pipe).events())
        #expect(await recorder.wait(timeout: 60) { $0.contains(.connected("jsonl:" + pipe)) }, "the source waited for a writer")
        for (round, lat) in [52.1, 52.2].enumerated() {
            // One script after another, each writing a line and going away.
            let writer = try #require(FileHandle(forWritingAtPath: pipe), "round \(round)")
            writer.write(Data(#"{"lat":\#(lat),"lon":5.1}"#.utf8 + [UInt8(ascii: "\n")]))
            try writer.close()
            #expect(await recorder.wait(timeout: 60) { $0.fixes.count == round + 1 }, "round \(round)")
        }
        #expect(await recorder.events.fixes.map(\.latitude) == [52.1, 52.2])
        #expect(await !recorder.finished, "a script that ended ended the source")
        await recorder.stop()
    }

    @Test func aMissingFileIsSaidAndTheStreamEnds() async {
        let recorder = EventRecorder<FixEvent>()
        await recorder.record(JSONLinesFixSource(path: dir.file("none.jsonl")).events())
        #expect(await recorder.waitUntilFinished(timeout: 10))
        #expect(await recorder.events == [.lost(reason: "cannot read \(dir.file("none.jsonl")): No such file or directory")])
    }

    @Test func theSpecNeedsAPath() {
        #expect(throws: SpecError("bad GPS spec jsonl:: jsonl: needs a file or a named pipe")) { try GPSSpec(parsing: "jsonl:", kinds: FixSourceKind.gps) }
    }
}
