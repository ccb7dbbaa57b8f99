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
            ["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--db", mtt.database],
            environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "2000000"])
        defer { run.kill() }
        try await Task.sleep(for: .seconds(5))
        run.signal(SIGTERM)
        #expect(await run.wait(timeout: 30))
        try await Task.sleep(for: .milliseconds(300))
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
