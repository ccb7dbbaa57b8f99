import Foundation
import MTTCore
import TestSupport
import Testing

/// The file target: a sync target whose transport is a file, not HTTP.
@Suite("mtt sync --target file")
struct FileTargetTests {
    let mtt = MTTCommand()

    func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// A link is not followed and a FIFO nobody reads does not hold the sync (issue 47, item 9):
    /// each is refused in one line, at once, and the records stay queued; `mtt status` shows that
    /// queue although no configuration names the file target (item 16).
    @Test func aLinkOrAFIFOIsRefusedAndTheQueueStaysShown() async throws {
        let store = try Store(path: mtt.database)
        try SyncTestData.addConfirmedAttempts(3, to: store)
        let victim = mtt.dir.file("victim.txt")
        try "keep me\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let link = mtt.dir.file("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let linked = try await mtt.run(["sync", "--target", "file", "--url", link, "--db", mtt.database])
        #expect(linked.status != 0 && linked.stderr.contains("is a symbolic link"), "\(linked.stdout)\(linked.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")

        let fifo = mtt.dir.file("fifo.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        let piped = try await mtt.run(["sync", "--target", "file", "--url", fifo, "--db", mtt.database])
        #expect(piped.status != 0 && piped.stderr.contains("is not a regular file"), "\(piped.stdout)\(piped.stderr)")

        let file = mtt.dir.file("out.jsonl")
        #expect(try await mtt.run(["sync", "--target", "file", "--url", file, "--db", mtt.database]).status == 0)
        try SyncTestData.addConfirmedAttempts(2, to: store)
        let status = try await mtt.run(["status", "--json", "--db", mtt.database], environment: ["XDG_CONFIG_HOME": mtt.dir.file("no-config")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.split(separator: "\n").first.map { Array($0.utf8) } ?? [])) as? [String: Any])
        #expect(((object["unsynced"] as? [String: Int])?["file"] ?? 0) > 0, "the queue of the file target is not shown: \(status.stdout)")
    }

    @Test func everyRecordIsAppendedOnceAsAJSONLine() async throws {
        let store = try Store(path: mtt.database)
        try SyncTestData.addConfirmedAttempts(5, to: store)
        try SyncTestData.addListenerSamples(3, to: store)
        let file = mtt.dir.file("stick/mtt.jsonl")
        try FileManager.default.createDirectory(atPath: mtt.dir.file("stick"), withIntermediateDirectories: true)

        let first = try await mtt.run(["sync", "--target", "file", "--url", file, "--db", mtt.database])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let written = try lines(file)
        let types = Dictionary(grouping: written) { $0["type"] as? String ?? "?" }.mapValues(\.count)
        // 5 confirmed and 1 failed attempt, each at its fix; 3 heard uplinks on a track of 3 fixes.
        #expect(types == ["attempt": 6, "sample": 3, "fix": 9], "\(types)")
        #expect(first.stdout.contains("file: 18 sent, 0 rejected, 0 failed, 0 still queued"), "\(first.stdout)")
        let attempts = written.filter { $0["type"] as? String == "attempt" }
        #expect(attempts.compactMap { $0["state"] as? String }.sorted() == ["confirmed", "confirmed", "confirmed", "confirmed", "confirmed", "failed"])
        let sample = try #require(written.first { $0["type"] as? String == "sample" })
        #expect((sample["gateways"] as? [[String: Any]])?.count == 2)
        let ids = written.map { "\($0["type"]!)-\($0["id"]!)" }
        #expect(Set(ids).count == ids.count, "a record was written twice")

        // Nothing twice: a second run appends nothing; new records are appended after the old.
        let again = try await mtt.run(["sync", "--target", "file", "--url", file, "--db", mtt.database])
        #expect(again.status == 0)
        #expect(again.stdout.contains("file: 0 sent"), "\(again.stdout)")
        #expect(try lines(file).count == 18)
        try SyncTestData.addMatchingTrack(4, to: store)
        let more = try await mtt.run(["sync", "--target", "file", "--url", file, "--db", mtt.database])
        #expect(more.status == 0)
        #expect(try lines(file).count == 22)
    }

    @Test func thePathComesFromTheConfigurationAndStatusCountsTheQueueOnlyThen() async throws {
        let store = try Store(path: mtt.database)
        try SyncTestData.addListenerSamples(2, to: store)
        let file = mtt.dir.file("backup.jsonl")
        let config = mtt.dir.file("config.toml")
        try "[sync.file]\npath = \"\(file)\"\n".write(toFile: config, atomically: true, encoding: .utf8)

        let plain = try await mtt.run(["status", "--db", mtt.database, "--json"])
        let plainQueues = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])["unsynced"] as? [String: Int]
        #expect(plainQueues?["file"] == nil, "the file target is listed although no file is configured: \(plain.stdout)")

        let configured = try await mtt.run(["status", "--config", config, "--db", mtt.database, "--json"])
        let queues = try #require(try JSONSerialization.jsonObject(with: Data(configured.stdout.utf8)) as? [String: Any])["unsynced"] as? [String: Int]
        #expect(queues?["file"] == 4, "\(configured.stdout)")

        let sync = try await mtt.run(["sync", "--target", "file", "--config", config, "--db", mtt.database])
        #expect(sync.status == 0, "stderr: \(sync.stderr)")
        #expect(try lines(file).count == 4)
    }

    @Test func aFileThatCannotBeOpenedStopsTheTargetAndKeepsTheRecordsQueued() async throws {
        try SyncTestData.addListenerSamples(2, to: Store(path: mtt.database))
        let file = mtt.dir.file("no-such-folder/mtt.jsonl")
        let result = try await mtt.run(["sync", "--target", "file", "--url", file, "--db", mtt.database])
        #expect(result.status == 1)
        let lastLine = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine == "mtt: file: cannot open \(file): No such file or directory; 4 record(s) stay queued", "\(result.stderr)")

        let missing = try await mtt.run(["sync", "--target", "file", "--db", mtt.database])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("the file target needs a file"), "\(missing.stderr)")
    }
}
