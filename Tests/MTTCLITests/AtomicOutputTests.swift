import Foundation
import MTTCore
import TestSupport
import Testing

/// A report or export that cannot finish leaves the file it would replace as it was (issue 34,
/// item 8): it is written beside its name and renamed once complete.
@Suite("Reports and exports replace a file only when complete")
struct AtomicOutputTests {
    let mtt = MTTCommand()

    /// Runs mtt under a file-size limit of `blocks` KiB, as `ulimit -f` sets it.
    func runLimited(_ arguments: [String], blocks: Int) async throws -> ChildProcess.Result {
        let quoted = ([BuiltProducts.path("mtt")] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try await ChildProcess.run("/bin/sh", ["-c", "ulimit -f \(blocks); exec \(quoted)"], environment: mtt.environment)
    }

    @Test(arguments: [["report", "--tiles", "none"], ["export", "--format", "geojson"]])
    func aWriteCutShortLeavesThePreviousFile(command: [String]) async throws {
        // Twenty drives' worth: an export of some hundred KiB.
        let store = try Store(path: mtt.database)
        for _ in 0..<20 { try MapTestData.fill(store) }
        let out = mtt.dir.file("coverage.out")
        let first = try await mtt.run(command + ["--db", mtt.database, "--out", out])
        #expect(first.status == 0, "\(first.stderr)")
        let complete = try Data(contentsOf: URL(fileURLWithPath: out))
        // Half the file may be written (and SQLite's 32 KiB index of its log).
        let blocks = max(64, complete.count / 2048)
        #expect(complete.count > 2 * 1024 * blocks - 2048, "\(complete.count) bytes")
        let cut = try await runLimited(command + ["--db", mtt.database, "--out", out], blocks: blocks)
        #expect(cut.status == 1, "\(cut.stderr)")
        #expect(cut.stderr.contains("File too large"), "\(cut.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == complete, "the previous file was changed")
        let left = try FileManager.default.contentsOfDirectory(atPath: mtt.dir.path).filter { $0.hasSuffix(".part") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func anExportToAPipeOrDeviceIsWrittenDirectly() async throws {
        try MapTestData.fill(try Store(path: mtt.database))
        let export = try await mtt.run(["export", "--format", "csv", "--db", mtt.database, "--out", "/dev/null"])
        #expect(export.status == 0, "\(export.stderr)")
        // A link to a file: the file takes the export, the link stays a link.
        let target = mtt.dir.file("real.csv"), link = mtt.dir.file("link.csv")
        try "old\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try await mtt.run(["export", "--format", "csv", "--db", mtt.database, "--out", link]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).count > 100)
    }
}
