import Foundation
import MTTCore
import TestSupport
import Testing

/// `mtt coverage diff` as a user runs it (what it counts is held to a drive and a later one in
/// `CoverageAggregateTests`: a sped-up drive is dated back from its end, so two runs overlap in time).
@Suite("mtt coverage diff")
struct CoverageDiffCommandTests {
    @Test func sinceBeforeEveryRecordEveryHeardCellIsNew() async throws {
        let mtt = MTTCommand()
        let drive = try await mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "100", "--duration", "10s", "--db", mtt.database,
        ])
        #expect(drive.status == 0, "\(drive.stderr)")
        let coverage = try #require(try JSONSerialization.jsonObject(with: Data(try await mtt.run(["coverage", "--json", "--db", mtt.database]).stdout.utf8)) as? [String: Any])
        let heard = try #require((coverage["area"] as? [String: Any])?["heard"] as? Int)
        let answer = try await mtt.run(["coverage", "diff", "--since", "30d", "--json", "--db", mtt.database])
        #expect(answer.status == 0, "\(answer.stderr)")
        let diff = try #require(try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any])
        #expect((diff["newly_heard"] as? [[Int]])?.count == heard && heard > 0, "\(answer.stdout.prefix(300))")
        #expect(diff["still_heard"] as? Int == 0 && (diff["lost"] as? [[Int]])?.isEmpty == true)
        let text = try await mtt.run(["coverage", "diff", "--since", "30d", "--db", mtt.database]).stdout
        #expect(text.contains("Newly      \(heard) cell"), "\(text)")
        let bad = try await mtt.run(["coverage", "diff", "--db", mtt.database])
        #expect(bad.status == 64 && bad.stderr.contains("--since"), "\(bad.stderr)")
        let wrong = try await mtt.run(["coverage", "diff", "--since", "yesterday", "--db", mtt.database])
        #expect(wrong.status == 64 && wrong.stderr.contains("--since"), "\(wrong.stderr)")
    }
}
