import ArgumentParser
import Foundation
import MTTCore

struct CoverageDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Say what changed since a time: the cells newly heard, and the cells heard before that nobody hears any more.",
        discussion: """
            Did the new gateway help? Newly heard: cells heard since --since (up to --until) that no \
            record before it heard, with the gateways that heard them. Lost: cells heard before, mapped \
            again since (with a network source), and heard by none since. Cells are counted by the \
            sessions that touch each window.
            """)

    @Option(help: ArgumentHelp("The time the windows part: RFC 3339 (2026-06-21T10:00:00Z) or a length of time ago (6h, 2d).", valueName: "time"))
    var since: String

    @Option(help: ArgumentHelp("The end of the second window (default: now).", valueName: "time"))
    var until: String?

    @Option(help: ArgumentHelp("Only this gateway's cells.", valueName: "id"))
    var gateway: String?

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func window() throws -> ExportFilter {
        var filter = ExportFilter()
        do throws(TimeTextError) {
            try filter.setWindow(since: since, until: until, now: .now(), names: ("--since", "--until"))
        } catch {
            throw ValidationError("\(error)")
        }
        return filter
    }

    func validate() throws { _ = try window() }

    func run() throws {
        let store = try database.openStore(.readOnly)
        let filter = try window()
        let diff = try store.coverage.coverageDiff(since: filter.since!, until: filter.until, gateway: gateway)
        if output.json {
            try JSONLine.print(diff)
            return
        }
        let by = diff.newlyHeardBy.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        Console.out("""
            Since      \(RFC3339.string(diff.since, fractionDigits: 0))\(diff.until.map { " until \(RFC3339.string($0, fractionDigits: 0))" } ?? "")
            Newly      \(CountText.of(diff.newlyHeard.count, "cell")) heard that nobody heard before\(by.isEmpty ? "" : " (\(by))")
            Lost       \(CountText.of(diff.lost.count, "cell")) heard before, mapped again and heard by none since
            Still      \(CountText.of(diff.stillHeard, "cell")) heard before and since
            """)
    }
}
