import Foundation
import MTTCore
import TestSupport
import Testing

/// Hooks as a mapper sets them up: a slow or failing hook leaves the drive as it was; a webhook
/// gets exactly what its cooldown and mute let through; a drive's events replay in the schema.
@Suite("Hooks and mtt events")
struct HookCommandTests {
    let mtt = MTTCommand()
    static let hourStart = Timestamp(secondsSinceEpoch: 1_782_000_000)

    /// The largest gap between two attempts of the newest session, in the run's (simulated) seconds.
    func attemptGaps(_ path: String) throws -> (count: Int, largestGap: Double) {
        let store = try Store(path: path)
        let session = try #require(try store.sessions.sessions(since: Timestamp(nanosecondsSinceEpoch: 0)).first?.id)
        let times = try store.records.attempts(session: session).map(\.attempt.sentAt).sorted()
        let gaps = zip(times, times.dropFirst()).map { $1.seconds(since: $0) }
        return (times.count, gaps.max() ?? 0)
    }

    @Test func aHookThatHangsOrFailsDoesNotChangeTheAttempts() async throws {
        let drive = ["collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "6s"]
        let plain = mtt.dir.file("plain.sqlite")
        let baseline = try await mtt.run(drive + ["--db", plain])
        #expect(baseline.status == 0, "\(baseline.stderr)")

        let config = mtt.dir.file("hooks.toml")
        try """
            [[hooks]]
            on = ["attempt", "confirmed", "heard", "fix"]
            command = ["sleep", "30"]
            timeout = "1s"

            [[hooks]]
            on = ["attempt"]
            command = ["sh", "-c", "echo no speaker here >&2; exit 3"]
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let hooked = mtt.dir.file("hooked.sqlite")
        let run = try await mtt.run(drive + ["--db", hooked, "--config", config, "--json"])
        #expect(run.status == 0, "\(run.stderr)")

        let (plainCount, plainGap) = try attemptGaps(plain)
        let (hookedCount, hookedGap) = try attemptGaps(hooked)
        // The policy sends every 12 s of the run at most; a run held up by a hook 1 s (20 s of the
        // run) per event would leave gaps of 20 s and more (the gap is what tells), and fewer
        // attempts. Two 6 s runs of a busy machine differ anyway: 10 and 7 in one CI-like run.
        #expect(plainCount >= 5 && hookedCount * 2 >= plainCount, "\(plainCount) attempts without hooks, \(hookedCount) with")
        #expect(hookedGap <= max(plainGap, 12) * 1.6, "largest gap \(hookedGap) s with hooks, \(plainGap) s without")

        // Each failing hook is said once, not once per event; the counts are in the summary.
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("failed:") && $0.contains("hook") }
        #expect(warnings.filter { $0.contains("hooks[2] (sh) failed: sh exited with status 3: no speaker here") }.count == 1, "\(run.stderr)")
        #expect(warnings.filter { $0.contains("hooks[1] (sleep) failed: sleep killed after 1 s") }.count == 1, "\(run.stderr)")

        // Every line of --json is an event of the schema.
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count > 50)
        let problems = try await EventSchema.problems(lines)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    @Test func aWebhookReceivesExactlyTheEventsItsCooldownAndMuteLetThrough() async throws {
        // An hour of a drive: coverage lost each minute; gateways A, B and C "new" every 6 minutes.
        let store = try Store(path: mtt.database)
        let session = try store.sessions.startSession(mode: .active, at: Self.hourStart)
        var events: [FieldEvent] = []
        for minute in 0..<60 {
            var lost = FieldEvent(.coverageLost, at: Self.hourStart.adding(seconds: Double(minute) * 60), session: session)
            lost.missed = 5
            lost.place(GeoPoint(latitude: 52.09 + Double(minute) / 1000, longitude: 5.12))
            lost.url = MapLink.url(base: "http://pi.local:8080/", at: lost.position)
            events.append(lost)
            if minute % 6 == 0 {
                for id in ["gw-a", "gw-b", "gw-c"] {
                    var gateway = FieldEvent(.newGateway, at: lost.time, session: session)
                    gateway.gateway = .init(id: id, eui: "B827EBFFFE5B000\(id.last!)")
                    events.append(gateway)
                }
            }
            events.append(FieldEvent(.attempt, at: lost.time, session: session))
        }
        try store.records.recordEvents(events)
        let received = try LoopbackHTTPServer { _ in .status(200) }
        defer { received.stop() }
        let config = mtt.dir.file("hooks.toml")
        try """
            [[hooks]]
            on = ["coverage_lost", "new_gateway"]
            url = "\(received.baseURL)/mtt-topic"
            cooldown = "10m"
            mute = ["gw-b"]
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let replay = try await mtt.run(["events", "--hooks", "--config", config, "--db", mtt.database])
        #expect(replay.status == 0, "\(replay.stderr)")

        // By hand: coverage_lost at minutes 0, 10, …, 50; gw-a and gw-c at 0, 12, 24, 36, 48.
        var expected: [String] = []
        for minute in 0..<60 {
            if minute % 10 == 0 { expected.append("coverage_lost@\(minute)") }
            if minute % 12 == 0 { expected += ["new_gateway:gw-a@\(minute)", "new_gateway:gw-c@\(minute)"] }
        }
        let got = received.requests.map { request -> String in
            let json = request.json ?? [:]
            let minute = RFC3339.parse(json["time"] as? String ?? "").map { Int($0.seconds(since: Self.hourStart) / 60) } ?? -1
            let gateway = (json["gateway"] as? [String: Any])?["id"] as? String
            return "\(json["type"] as? String ?? "?")" + (gateway.map { ":" + $0 } ?? "") + "@\(minute)"
        }
        #expect(got == expected)
        let first = try #require(received.requests.first)
        #expect(first.method == "POST" && first.path == "/mtt-topic" && first.headers["content-type"] == "application/json")
        #expect(first.headers["title"] == "mtt: coverage lost" && first.headers["click"] == "http://pi.local:8080/#at=52.09,5.12")
        #expect(replay.stderr.contains("16 delivered; held back: 64 in cooldown, 10 muted"), "\(replay.stderr)")

        // Printed, the same events in the same schema.
        let printed = try await mtt.run(["events", "--db", mtt.database, "--type", "new_gateway"])
        let lines = printed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 30 && lines.allSatisfy { $0.contains(#""type":"new_gateway""#) })
        #expect(try await EventSchema.problems(lines).isEmpty)
    }

    /// Issue 33, item 6: events of a drive made before the map link was configured.
    @Test func aReplayLinksEachEventToTheMapConfiguredNow() async throws {
        let store = try Store(path: mtt.database)
        let session = try store.sessions.startSession(mode: .active, at: Self.hourStart)
        var lost = FieldEvent(.coverageLost, at: Self.hourStart.adding(seconds: 60), session: session)
        lost.missed = 5
        lost.place(GeoPoint(latitude: 52.091, longitude: 5.121))
        #expect(lost.url == nil)
        try store.records.recordEvents([lost])
        let received = try LoopbackHTTPServer { _ in .status(200) }
        defer { received.stop() }
        let config = mtt.dir.file("linked.toml")
        try """
            [alerts]
            map_url = "http://pi.local:8080/?token=abc"

            [[hooks]]
            on = ["coverage_lost"]
            url = "\(received.baseURL)/mtt-topic"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let replay = try await mtt.run(["events", "--hooks", "--config", config, "--db", mtt.database])
        #expect(replay.status == 0, "\(replay.stderr)")
        let request = try #require(received.requests.first)
        #expect(request.headers["click"] == "http://pi.local:8080/?token=abc#at=52.091,5.121", "\(request.headers)")
        #expect(request.json?["url"] as? String == "http://pi.local:8080/?token=abc#at=52.091,5.121")
        let printed = try await mtt.run(["events", "--config", config, "--db", mtt.database])
        #expect(printed.stdout.contains(#""url":"http:\/\/pi.local:8080\/?token=abc#at=52.091,5.121""#) || printed.stdout.contains(#""url":"http://pi.local:8080/?token=abc#at=52.091,5.121""#), "\(printed.stdout)")
    }
}
