import Foundation
import MTTCore
import TestSupport
import Testing

/// Hook programs as processes (issue 34, items 5 and 11): they start as from a shell, with every
/// signal at its default and none blocked, in a group of their own; nothing a hook started
/// outlives mtt; a hook that writes much error output is drained, not killed for it.
@Suite("Hook programs as processes")
struct HookProcessTests {
    let mtt = MTTCommand()

    /// A hook that starts a `sleep 1000` and waits for it, writing both process ids to `pids`.
    func lingeringHook() throws -> String {
        let script = mtt.dir.file("linger.sh")
        try """
            #!/bin/sh
            echo $$ >> \(mtt.dir.file("pids"))
            sleep 1000 &
            echo $! >> \(mtt.dir.file("pids"))
            wait
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return script
    }

    var hookPIDs: [Int32] {
        ((try? String(contentsOfFile: mtt.dir.file("pids"), encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    /// Running or stopped, not gone or a zombie.
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ") else { return false }
        return stat[afterName.upperBound...].first != "Z"
    }

    func expectNoHookLeft(_ context: String) async {
        let pids = hookPIDs
        #expect(pids.count >= 2, "\(context): the hook did not start")
        // The group is killed as mtt ends; the kernel may take a moment to reap what init inherits.
        let gone = await eventually(timeout: 10) { pids.allSatisfy { !Self.isAlive($0) } }
        #expect(gone, "\(context): \(pids.filter(Self.isAlive)) outlived mtt")
        for pid in pids where Self.isAlive(pid) { kill(pid, SIGKILL) }
    }

    @Test func aHookStartsWithDefaultSignalsAndNothingItStartedOutlivesCollect() async throws {
        let config = mtt.dir.file("hooks.toml")
        try """
            [[hooks]]
            on = ["attempt"]
            command = ["\(try lingeringHook())"]
            timeout = "600s"

            # Notes its own signal state (awk, not a shell: a shell blocks signals while it waits).
            [[hooks]]
            on = ["attempt"]
            command = ["awk", "/^Sig(Blk|Ign)/ { print > \\"\(mtt.dir.file("signals"))\\" }", "/proc/self/status"]
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "3s",
            "--db", mtt.database, "--config", config,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("hooks still busy 5 s after the stop were ended"), "\(run.stderr)")
        // Signals 32 and 33 are glibc's own (its threads' cancellation), which its posix_spawn
        // always hands on ignored and no program can use: every other one blocked or ignored
        // would be inherited from mtt.
        let glibcOwn: UInt64 = 1 << 31 | 1 << 32
        let masks = try String(contentsOfFile: mtt.dir.file("signals"), encoding: .utf8).split(separator: "\n").map { line in
            (line.split(separator: "\t").first.map(String.init) ?? "", UInt64(line.split(separator: "\t").last ?? "", radix: 16).map { $0 & ~glibcOwn })
        }
        #expect(masks.map(\.0) == ["SigBlk:", "SigIgn:"] && masks.allSatisfy { $0.1 == 0 }, "\(masks)")
        await expectNoHookLeft("collect")
    }

    @Test func aStoppedReplayEndsItsHooksAtOnce() async throws {
        try await #require(mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "3s", "--db", mtt.database,
        ]).status == 0)
        let replay = try mtt.start(["events", "--since", "7d", "--db", mtt.database, "--on", "attempt=\(try lingeringHook())"])
        defer { replay.stop() }
        #expect(await eventually { hookPIDs.count >= 2 }, "the hook did not start: \(replay.stderr)")
        replay.signal(SIGTERM)
        #expect(await replay.wait(timeout: 10), "mtt events went on after SIGTERM")
        #expect(replay.result.stderr.contains("mtt: stopped; the hooks were offered"), "\(replay.result.stderr)")
        await expectNoHookLeft("events --on")
    }

    @Test func aHookWritingMuchErrorOutputIsDrainedAndItsLastLineKept() async throws {
        try await #require(mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "2s", "--db", mtt.database,
        ]).status == 0)
        let script = mtt.dir.file("chatty.sh")
        try """
            #!/bin/sh
            yes 'the speaker is not there' | head -c 100000000 >&2
            echo 'gave up' >&2
            exit 4
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let config = mtt.dir.file("hooks.toml")
        try """
            [[hooks]]
            on = ["attempt"]
            command = ["\(script)"]
            timeout = "10s"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let replay = try await mtt.run(["events", "--since", "7d", "--type", "attempt", "--hooks", "--db", mtt.database, "--config", config])
        #expect(replay.status == 0, "\(replay.stderr)")
        // A hundred megabytes each time, drained as the program writes them (mtt used to take
        // 64 KiB every 10 ms, 15 s for this): not a timeout.
        #expect(replay.stderr.contains("exited with status 4: gave up (the last line of 100000008 bytes of error output)"), "\(replay.stderr)")
        #expect(!replay.stderr.contains("killed after"), "\(replay.stderr)")
    }
}
