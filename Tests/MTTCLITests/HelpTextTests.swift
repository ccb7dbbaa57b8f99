import Foundation
import MTTCore
import TestSupport
import Testing

/// Every command's `--help`, whole, against `Fixtures/help/`: a change to what a user reads is a
/// reviewed diff, not a `contains` that lets the rest drift. To accept a change on purpose, run
/// the tests with MTT_RECORD_HELP=1 and review `git diff Fixtures/help`.
@Suite("Help texts")
struct HelpTextTests {
    let mtt = MTTCommand()
    static let folder = FixtureFiles.repositoryRoot + "/Fixtures/help/"

    /// A command's help at the width a pipe gets (80 columns), as a user reads it in a terminal.
    func help(_ path: [String]) async throws -> String {
        let result = try await mtt.run(path + ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "mtt \(path.joined(separator: " ")) --help: \(result.stderr)")
        return result.stdout
    }

    /// The subcommands a help text lists (two spaces, a name, then its abstract).
    static func subcommands(in text: String) -> [String] {
        guard let start = text.range(of: "\nSUBCOMMANDS:\n") else { return [] }
        return text[start.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            let name = line.dropFirst(2).prefix { !$0.isWhitespace }
            return name.isEmpty || name == "See" ? nil : String(name)
        }
    }

    @Test func everyCommandsHelpIsTheReviewedText() async throws {
        var paths: [[String]] = [[]]
        var index = 0
        while index < paths.count {
            let path = paths[index]
            index += 1
            let text = try await help(path)
            paths += Self.subcommands(in: text).filter { $0 != "help" }.map { path + [$0] }
            let file = Self.folder + (["mtt"] + path).joined(separator: "-") + ".txt"
            if ProcessInfo.processInfo.environment["MTT_RECORD_HELP"] == "1" {
                try text.write(toFile: file, atomically: true, encoding: .utf8)
                continue
            }
            guard let expected = try? String(contentsOfFile: file, encoding: .utf8) else {
                Issue.record("no reviewed help for mtt \(path.joined(separator: " ")): \(file) (MTT_RECORD_HELP=1 writes it)")
                continue
            }
            if text != expected {
                let got = text.split(separator: "\n", omittingEmptySubsequences: false)
                let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
                let line = Array(zip(got, want)).firstIndex { $0.0 != $0.1 } ?? min(got.count, want.count)
                Issue.record("""
                    mtt \(path.joined(separator: " ")) --help differs from \(file) at line \(line + 1):
                      reviewed: \(line < want.count ? String(want[line]) : "(end)")
                      now:      \(line < got.count ? String(got[line]) : "(end)")
                    (MTT_RECORD_HELP=1 writes the new text, for review)
                    """)
            }
        }
        #expect(paths.count > 20, "only \(paths.count) commands found: \(paths)")
        // No reviewed text is left for a command that is gone.
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".txt") }
        let known = Set(paths.map { (["mtt"] + $0).joined(separator: "-") + ".txt" })
        #expect(Set(files) == known, "help files without a command: \(Set(files).subtracting(known).sorted())")
    }

    /// DESIGN's CLI contract names these, and the help must say them.
    @Test func theHelpNamesWhatTheContractNames() async throws {
        let sync = try await help(["sync"])
        for target in ["mapthethings", "ttnmapper", "postgis", "file"] { #expect(sync.contains(target), "sync --help lacks \(target)") }
        let collect = try await help(["collect"])
        for network in ["tts", "chirpstack", "fake"] { #expect(collect.contains("\(network):"), "collect --help lacks \(network)") }
        // The configuration's key, for a config-file user: every registered target named.
        for target in SyncTarget.registered { #expect(ConfigKey.syncURL.help.contains("target \(target.name)") || target.name == "mapthethings", "sync.url's help lacks \(target.name)") }
    }
}
