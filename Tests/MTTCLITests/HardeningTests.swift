import Foundation
import MTTCore
import TestSupport
import Testing

/// What a hostile user and real data broke (issue 22), one test per item, as the user meets it.
// Serialized: its tests start many processes each; run together they starved the timing tests of
// other suites on a two-core machine.
@Suite("Hardening: output, signals, options, files, messages", .serialized)
struct HardeningTests {
    let mtt = MTTCommand()

    /// Runs mtt through sh with stdout redirected as `redirect` says (`>/dev/full`, `>&-`, `| head -1`).
    func run(_ arguments: [String], stdout redirect: String, timeout: Double = 90) async throws -> ChildProcess.Result {
        let quoted = ([BuiltProducts.path("mtt")] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try await ChildProcess.run("/bin/sh", ["-c", "\(quoted) \(redirect)"], environment: mtt.environment, timeout: timeout)
    }

    /// The latest session is closed and no attempt is left pending.
    func expectSessionClosedNothingPending(_ context: String) throws {
        let store = try Store(path: mtt.database, access: .readOnly)
        let status = try store.status()
        #expect(status.pending == 0, "\(context)")
        #expect(try store.sessions.session(Int64(status.sessions))?.endedAt != nil, "\(context): the session was left open")
    }

    static let fakeCollect = ["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "50"]

    // MARK: Unwritable output

    @Test(arguments: [">/dev/full", ">&-"])
    func collectWithUnwritableOutputClosesItsSessionAndSaysWhyOnce(redirect: String) async throws {
        let result = try await run(Self.fakeCollect + ["--duration", "20s", "--db", mtt.database], stdout: redirect)
        #expect(result.status == 1)
        let reason = redirect == ">&-" ? "Bad file descriptor" : "No space left on device"
        #expect(result.stderr.hasSuffix("mtt: cannot write stdout: \(reason)\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("crashed"))
        try expectSessionClosedNothingPending(redirect)
    }

    @Test func everyPrintingCommandEndsCleanlyOnAFullDisk() async throws {
        try await #require(run(Self.fakeCollect + ["--duration", "2s", "--db", mtt.database], stdout: ">/dev/null").status == 0)
        let file = mtt.dir.file("walk.json")
        try #"[{"gps":[52.09,5.12],"time":"2026-06-21 10:15:00"}]"#.write(toFile: file, atomically: true, encoding: .utf8)
        for command in [
            ["gps", "--gps", "fake", "--count", "3"], ["gps", "--gps", "fake", "--count", "3", "--json"],
            ["import", file, "--db", mtt.database], ["status", "--db", mtt.database, "--json"],
            ["status", "--db", mtt.database], ["export", "--format", "geojson", "--db", mtt.database],
            ["demo", "--duration", "2s"],
        ] {
            let result = try await run(command, stdout: ">/dev/full")
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.split(separator: "\n").last == "mtt: cannot write stdout: No space left on device", "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("NSCocoaErrorDomain"), "\(command)")
        }
    }

    /// `mtt collect | head -1`: the reader goes away, and mtt stops as SIGTERM stops it.
    @Test func aClosedPipeStopsCollectLikeSIGTERM() async throws {
        let result = try await run(Self.fakeCollect + ["--duration", "60s", "--json", "--db", mtt.database], stdout: "| head -1")
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 1)
        try expectSessionClosedNothingPending("| head -1")
    }

    /// `mtt export | head -1`, `mtt events | head -1`: a reader that has read enough is a normal end
    /// (exit 0, nothing on stderr), not "cannot write stdout: Broken pipe".
    @Test func aReaderThatStopsReadingIsANormalEnd() async throws {
        // More than a pipe holds (64 KiB), so mtt is still writing when head goes away.
        let file = mtt.dir.file("big.json")
        let entries = (0..<3000).map { i in #"{"gps":[52.09,5.12],"time":"2026-06-21T10:\#(String(format: "%02d:%02d", i / 60 % 60, i % 60))Z","nodeEui":"A","payload_seq":\#(i)}"# }
        try ("[" + entries.joined(separator: ",") + "]").write(toFile: file, atomically: true, encoding: .utf8)
        try await #require(mtt.run(["import", file, "--db", mtt.database]).status == 0)
        let quoted = { (arguments: [String]) in ([BuiltProducts.path("mtt")] + arguments).map { "'\($0)'" }.joined(separator: " ") }
        for command in [["export", "--format", "csv", "--db", mtt.database], ["export", "--format", "geojson", "--db", mtt.database]] {
            let result = try await ChildProcess.run(
                "/bin/bash", ["-c", "set -o pipefail; \(quoted(command)) | head -1 >/dev/null"], environment: mtt.environment)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(command): \(result.status) \(result.stderr)")
        }
    }

    @Test func sighupStopsCollectLikeSIGTERM() async throws {
        let running = try mtt.start(Self.fakeCollect + ["--duration", "60s", "--db", mtt.database])
        #expect(await running.waitForOutput(timeout: 30) { $0.contains("attempt") })
        running.signal(SIGHUP)
        #expect(await running.wait(timeout: 20))
        #expect(running.result.status == 0, "\(running.stderr)")
        try expectSessionClosedNothingPending("SIGHUP")
    }

    // MARK: Options

    @Test(arguments: ["nan", "inf", "0", "-1", "1e-300", "1e9", "1e7"])
    func aSpeedOutsideItsRangeIsAUsageError(_ speed: String) async throws {
        let result = try await mtt.run(Self.fakeCollect.dropLast() + [speed, "--duration", "5s", "--db", mtt.database])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--speed takes 0.1 to 1000"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mtt.database))
    }

    @Test func usageErrorsSayWhatIsWrong() async throws {
        let cases: [([String], String)] = [
            (["collect", "--mode", "active", "--node", "fake", "--duration", "-5s"], "Error: --duration takes a length of time above 0"),
            (["collect", "--mode", "active", "--node", "fake", "--network", "fake", "--fake-gateway", "91,0"],
             "Error: --fake-gateway takes LAT,LON (latitude -90…90, longitude -180…180), not 91,0"),
            (["collect", "--mod", "active"], "Error: Unknown option '--mod'"),
            (["status", "--db", ""], "Error: --db needs a file path"),
            (["collect", "--mode", "active", "--node", "fake", "--every", "-1s"], "Error: --every takes a length of time above 0"),
        ]
        for (arguments, message) in cases {
            let result = try await mtt.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        }
    }

    // MARK: Files

    @Test func readOnlyCommandsOnAMistypedDatabaseCreateNothing() async throws {
        let typo = mtt.dir.file("typo.sqlite")
        for command in [["status"], ["export", "--format", "csv"], ["sync"]] {
            let result = try await mtt.run(command + ["--db", typo])
            #expect(result.status == 1)
            #expect(result.stderr == "mtt: there is no database at \(typo); nothing has been collected there yet (check --db, MTT_DB or [db] path)\n", "\(command): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: typo))
        let devNull = try await mtt.run(Self.fakeCollect + ["--duration", "2s", "--db", "/dev/null"])
        #expect(devNull.status == 1 && devNull.stderr == "mtt: /dev/null is a device, not a database file; mtt left it untouched (check --db, MTT_DB or [db] path)\n", "\(devNull.stderr)")
    }

    @Test func exportRefusesToWriteOverTheDatabase() async throws {
        try await #require(mtt.run(Self.fakeCollect + ["--duration", "2s", "--db", mtt.database]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: mtt.database))
        for out in [mtt.database, mtt.database + "-wal", mtt.database + "-shm"] {
            let result = try await mtt.run(["export", "--format", "csv", "--out", out, "--db", mtt.database])
            #expect(result.status == 1 && result.stderr.contains("is the database or one of its files"), "\(out): \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: mtt.database)) == before)
        #expect(try Store(path: mtt.database, access: .readOnly).integrityCheck() == "ok")
    }

    @Test func fakeNodeRemovesOnlyAStaleSocket() async throws {
        let file = mtt.dir.file("notes.txt")
        try "keep me".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try await mtt.run(["fake-node", "--listen", "unix:" + file])
        #expect(refused.status == 1 && refused.stderr.contains("a file that is not a socket is there; mtt left it untouched"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")

        let socket = mtt.dir.file("node.sock")
        let live = try mtt.start(["fake-node", "--listen", "unix:" + socket])
        defer { live.stop() }
        #expect(await live.waitForOutput(timeout: 20) { $0.contains("listening") })
        let second = try await mtt.run(["fake-node", "--listen", "unix:" + socket])
        #expect(second.status == 1 && second.stderr.contains("another emulator is listening there"), "\(second.stderr)")
        // The first still answers.
        let info = try await mtt.run(["node", "info", "--node", "unix:" + socket])
        #expect(info.status == 0, "\(info.stderr)")
    }

    @Test func aNodeTheSimulatedNetworkCannotHearIsSaidAtTheStart() async throws {
        let socket = mtt.dir.file("unheard.sock")
        let node = try mtt.start(["fake-node", "--listen", "unix:" + socket])
        defer { node.stop() }
        #expect(await node.waitForOutput(timeout: 20) { $0.contains("listening") })
        let result = try await mtt.run([
            "collect", "--mode", "active", "--node", "unix:" + socket, "--gps", "fake", "--network", "fake", "--duration", "2s",
            "--db", mtt.database,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("--network fake hears only the emulated nodes of this process") && result.stderr.contains("unix:\(socket) will never be heard"), "\(result.stderr)")
        // The built-in fake node is heard: no such line.
        let fake = try await mtt.run(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "2s", "--db", mtt.database])
        #expect(!fake.stderr.contains("will never be heard"), "\(fake.stderr)")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStoppedFakeNodeTakesItsSocketFileWithIt(signal: Int32) async throws {
        let socket = mtt.dir.file("stopped-\(signal).sock")
        let live = try mtt.start(["fake-node", "--listen", "unix:" + socket])
        defer { live.stop() }
        try #require(await live.waitForOutput(timeout: 20) { $0.contains("listening") })
        #expect(FileManager.default.fileExists(atPath: socket))
        live.signal(signal)
        // (Its status can be read only once it has ended: Foundation traps otherwise.)
        try #require(await live.wait(timeout: 30), "fake-node did not end within 30 s of signal \(signal)")
        #expect(live.result.status == 0, "\(live.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file was left behind")
    }

    /// A stop request at any moment of start-up ends the command: one that came while libdispatch
    /// was still arming its signal source was dropped, and fake-node ran on for ever.
    @Test func aStopRequestAtAnyMomentOfStartUpEndsTheCommand() async throws {
        for round in 0..<20 {
            let socket = mtt.dir.file("early-\(round).sock")
            let live = try mtt.start(["fake-node", "--listen", "unix:" + socket])
            defer { live.stop() }
            // Deliberate: each round's stop request lands at another moment of start-up.
            try await Task.sleep(for: .milliseconds(round * 5))
            live.signal(SIGTERM)
            try #require(await live.wait(timeout: 20), "round \(round): still running 20 s after SIGTERM")
            // Ended by its handler (0) or, before the handler was in place, by the signal itself
            // (Foundation gives its number as the status).
            #expect([0, SIGTERM].contains(live.result.status), "round \(round): \(live.result.status) \(live.stderr)")
        }
    }

    // MARK: Messages

    @Test func aGPSThatNeverCameIsNotAvailableNotLost() async throws {
        let result = try await mtt.run(["collect", "--mode", "active", "--node", "fake", "--gps", "gpsd://127.0.0.1:9", "--duration", "2s", "--db", mtt.database])
        #expect(result.stdout.contains("GPS not available:"), "\(result.stdout)")
        #expect(!result.stdout.contains("GPS lost"))
    }

    /// Issue 33, item 4: a capture with five seconds without a fix, replayed at its pace.
    @Test func aReceiverWithoutAFixIsSaidLostThenBackInTheLog() async throws {
        func sentence(_ body: String) -> String { "$\(body)*" + String(format: "%02X", body.utf8.reduce(0, ^)) }
        let lines = (0...11).map { second in
            (3...7).contains(second)
                ? sentence(String(format: "GPRMC,1200%02d.00,V,,,,,,,241126,,,N", second))
                : sentence(String(format: "GPRMC,1200%02d.00,A,5205.4420,N,00507.2840,E,0.0,0.0,241126,,,A", second))
        }
        let capture = mtt.dir.file("gap.nmea")
        try (lines.joined(separator: "\n") + "\n").write(toFile: capture, atomically: true, encoding: .utf8)
        let result = try await mtt.run(["collect", "--mode", "matching", "--gps", "nmea:" + capture, "--network", "fake", "--duration", "14s", "--db", mtt.database])
        #expect(result.status == 0, "\(result.stderr)")
        let log = result.stdout
        #expect(log.contains("GPS connected: nmea:\(capture)"), "\(log)")
        let lost = try #require(log.range(of: "GPS lost: no fix"), "\(log)")
        let back = try #require(log.range(of: "GPS back after "), "\(log)")
        #expect(lost.upperBound < back.lowerBound)
        // Five seconds of the capture without a fix, give or take the replay's timing.
        let seconds = Int(log[back.upperBound...].prefix { $0.isNumber }) ?? -1
        #expect((4...7).contains(seconds), "\(log)")
    }

    @Test func withoutANetworkSourceHeardIsNotKnownRatherThanAllLost() async throws {
        let result = try await mtt.run(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--speed", "50", "--duration", "3s", "--db", mtt.database])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Heard      not known: no network source in this run"), "\(result.stdout)")
        #expect(!result.stdout.contains("loss 100 %"))
    }

    /// The simulated network hears the emulated serial modems as it hears the emulated BLE node.
    @Test func theSimulatedNetworkHearsAnEmulatedModem() async throws {
        let result = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake-rn2483", "--gps", "fake", "--network", "fake",
            "--min-interval", "1s", "--duration", "6s", "--db", mtt.database,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let status = try Store(path: mtt.database, access: .readOnly).status()
        #expect(status.attempts >= 1 && status.uplinks >= 1, "\(result.stdout)")
    }

    /// A capture from June replayed in November: active mode says once why it does not send.
    @Test func activeModeOnAStaleCaptureSaysWhyOnce() async throws {
        let result = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "nmea:" + FixtureFiles.own("nmea/utrecht-drive.nmea"),
            "--duration", "3s", "--db", mtt.database,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").filter { $0.contains("GPS STALE") }
        #expect(lines.count == 1, "\(result.stdout)")
        #expect(lines.first?.contains("the NMEA capture was recorded at another time") == true)
        #expect(try Store(path: mtt.database, access: .readOnly).status().attempts == 0)
    }
}
