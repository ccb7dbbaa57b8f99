import Foundation
import MTTCore
import TestSupport
import Testing

/// Lengths and points in time beyond what mtt can hold are refused in one line, wherever they are
/// written: they used to overflow and stop mtt with SIGILL and no word (issue 34, item 4).
@Suite("Time and duration limits")
struct TimeTextLimitsTests {
    let mtt = MTTCommand()

    func expectRefused(_ result: ChildProcess.Result, saying reason: String, _ context: String) {
        #expect(result.status == 64 || result.status == 1, "\(context): exit \(result.status)")
        #expect(result.status != 132, "\(context) crashed")
        #expect(result.stderr.contains(reason), "\(context): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "\(context)")
    }

    @Test func tooLongAgoIsRefusedOnTheCommandLine() async throws {
        try await #require(mtt.run(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "50", "--duration", "2s", "--db", mtt.database]).status == 0)
        let events = try await mtt.run(["events", "--since", "999999999999d", "--db", mtt.database])
        expectRefused(events, saying: "--since takes an RFC 3339 time (2026-06-21T08:00:00Z) or a length of time ago (6h, 2d): 999999999999d is longer than 100 years", "events")
        let fetch = try await mtt.run(["fetch", "--since", "106752d", "--app", "a", "--db", mtt.database])
        expectRefused(fetch, saying: "106752d is longer than 100 years", "fetch")
        let export = try await mtt.run(["export", "--format", "csv", "--since", "1h", "--until", "2h", "--db", mtt.database])
        expectRefused(export, saying: "--until is before --since", "export")
        let duration = try await mtt.run(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--duration", "99999999999999d", "--db", mtt.database])
        expectRefused(duration, saying: "--duration takes a length of time up to 100 years", "collect --duration")
        let timeout = try await mtt.run(["sync", "--timeout", "99999999999d", "--db", mtt.database])
        expectRefused(timeout, saying: "must be a length of time up to 100 years", "sync --timeout")
    }

    @Test func tooLongAgoInTheConfigurationIsSaidByConfigCheck() async throws {
        let config = mtt.dir.file("mtt.toml")
        try "[fetch]\nsince = \"999999999999d\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let check = try await mtt.run(["config", "check", "--config", config])
        expectRefused(check, saying: "fetch.since", "config check")
        #expect(check.stderr.contains("999999999999d is longer than 100 years"), "\(check.stderr)")
        try "[collect]\nmin_interval = \"1e300s\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let minimum = try await mtt.run(["config", "check", "--config", config])
        expectRefused(minimum, saying: "collect.min_interval: must be a length of time up to 100 years, not 1e300s", "config check")
    }

    @Test func theSameWindowGrammarForExportReportAndEvents() async throws {
        try await #require(mtt.run(["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "50", "--duration", "3s", "--db", mtt.database]).status == 0)
        // Simulated runs stamp records ahead of the clock (--speed): a window that ends in the
        // future holds them all, one that ended a day ago none.
        let all = try await mtt.run(["export", "--format", "jsonl", "--since", "7d", "--session", "1", "--db", mtt.database])
        #expect(all.status == 0 && !all.stdout.isEmpty, "\(all.stderr)")
        let none = try await mtt.run(["export", "--format", "jsonl", "--since", "7d", "--until", "1d", "--db", mtt.database])
        #expect(none.status == 0 && none.stdout.isEmpty, "\(none.stdout)")
        let report = try await mtt.run(["report", "--out", mtt.dir.file("r.html"), "--since", "6h", "--until", "2100-01-01T00:00:00Z", "--db", mtt.database])
        #expect(report.status == 0, "\(report.stderr)")
        let missing = try await mtt.run(["export", "--format", "jsonl", "--session", "9", "--db", mtt.database])
        #expect(missing.status == 1 && missing.stderr.contains("there is no session 9"), "\(missing.stderr)")
    }
}
