import Foundation
import MTTCore
import TestSupport
import Testing

/// `mtt collect` under systemd (Type=notify), as systemd hears it on its notify socket.
@Suite("mtt as a systemd service")
struct ServiceTests {
    let mtt = MTTCommand()

    @Test func readyThenWatchdogAndStatusThenStopping() async throws {
        let socket = try NotifySocket()
        let run = try mtt.start(
            ["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "1h", "--db", mtt.database],
            environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "2000000"])
        defer { run.kill() }
        // Running long enough for three pings and a status line, as long as that takes.
        #expect(await eventually(timeout: runProgressTimeout) {
            socket.messages.filter { $0.message == "WATCHDOG=1" }.count >= 3 && socket.messages.contains { $0.message.hasPrefix("STATUS=") }
        })
        run.signal(SIGTERM)
        #expect(await run.wait(timeout: 30))
        #expect(await eventually(timeout: 10) { socket.messages.last?.message == "STOPPING=1" })
        let messages = socket.messages.map(\.message)
        #expect(messages.first == "READY=1", "\(messages)")
        let pings = socket.messages.filter { $0.message == "WATCHDOG=1" }
        // WatchdogSec=2 s: a ping every half of it, and never a gap near the limit.
        #expect(pings.count >= 3, "\(messages)")
        for (a, b) in zip(pings, pings.dropFirst()) { #expect(b.at - a.at < .milliseconds(1_900)) }
        #expect(messages.contains { $0.hasPrefix("STATUS=active: ") && $0.contains("attempts") }, "\(messages)")
        #expect(messages.last == "STOPPING=1", "\(messages)")
        #expect(run.result.status == 0)
    }

    /// Under systemd stderr is the journal (JOURNAL_STREAM names it): each log line carries the
    /// journal's priority and no timestamp of its own (journald adds one); elsewhere a timestamp.
    @Test func logLinesCarryTheJournalsPriorityWhenStderrIsTheJournal() async throws {
        let nmea = mtt.dir.file("bad.nmea")
        try "$GPRMC,101500.00,A,5205.4420,N,00507.2840,E,0.0,0.0,210626,,,A*56\nthis is not NMEA\n".write(toFile: nmea, atomically: true, encoding: .utf8)
        let collect = [BuiltProducts.path("mtt"), "collect", "--mode", "matching", "--gps", "nmea:" + nmea, "--duration", "1s", "--db", mtt.database]
            .map { "'\($0)'" }.joined(separator: " ")
        func run(journal: Bool) async throws -> [String] {
            let log = mtt.dir.file(journal ? "journal.log" : "plain.log")
            let stream = journal ? "JOURNAL_STREAM=$(stat -c %d:%i '\(log)') " : ""
            let result = try await ChildProcess.run("/bin/sh", ["-c", ": > '\(log)'; \(stream)exec \(collect) >/dev/null 2>>'\(log)'"])
            #expect(result.status == 0, "\(result.stderr)")
            return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init).filter { $0.contains("bad lines") }
        }
        let journal = try await run(journal: true)
        #expect(journal.count == 1 && journal[0].hasPrefix("<4>"), "\(journal)")
        let timestamp = /\d{4}-\d\d-\d\dT\d\d:\d\d/
        #expect(!journal.joined().contains(timestamp), "\(journal)")
        let plain = try await run(journal: false)
        #expect(plain.count == 1 && !plain[0].hasPrefix("<") && plain[0].contains("warning") && plain[0].contains(timestamp), "\(plain)")
    }

    /// The shipped unit as systemd reads it (with this build's binary where /usr/bin/mtt will be).
    @Test func theUnitFileVerifies() async throws {
        let unit = try String(contentsOfFile: FixtureFiles.repositoryRoot + "/packaging/mtt.service", encoding: .utf8)
        #expect(unit.contains("Type=notify") && unit.contains("WatchdogSec=") && unit.contains("Restart=on-failure"))
        let copy = mtt.dir.file("mtt.service")
        try unit.replacingOccurrences(of: "/usr/bin/mtt", with: BuiltProducts.path("mtt")).write(toFile: copy, atomically: true, encoding: .utf8)
        let verify = try await ChildProcess.run("/usr/bin/systemd-analyze", ["verify", copy])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
    }
}
