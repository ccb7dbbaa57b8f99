import ArgumentParser
import Foundation
import MTTCore
import MTTGPS

struct GPS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: "Print fixes from the GPS, to check it before you drive.",
        discussion: """
            Each line shows the fix mode (2D/3D), position, satellites used, HDOP, gpsd's error \
            estimate and the fix's age. When gpsd goes away mtt says so and keeps retrying. \
            Stop with Ctrl-C, or give --count.
            """)

    @Option(help: ArgumentHelp("\(FixSourceKind.formsText(FixSourceKind.receivers)).", valueName: "spec"))
    var gps = "gpsd"

    @Option(help: "Stop after this many fixes.")
    var count: Int?

    @Option(name: .customLong("max-age"), help: ArgumentHelp("A fix older than this is marked stale.", valueName: "duration"))
    var maxAge = DurationArgument(seconds: FixFreshness.defaultMaximumAge)

    @OptionGroup var output: OutputOptions

    func validate() throws {
        try maxAge.check("--max-age")
        do {
            _ = try FixSourceKind.spec(gps, kinds: FixSourceKind.receivers)
        } catch {
            throw ValidationError(error.description)
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() async throws {
        let source = try FixSourceKind.spec(gps, kinds: FixSourceKind.receivers).source()
        let freshness = FixFreshness(maximumAge: maxAge.seconds)
        var fixes = 0
        var lastLoss: String?
        for await event in source.events() {
            switch event {
            case .fix(let fix):
                let age = freshness.age(of: fix, at: .now())
                let stale = freshness.isStale(fix, at: .now())
                if output.json {
                    try JSONLine.print(FixText.Event.fix(fix, age: age, stale: stale))
                } else {
                    Console.out(FixText.line(fix, age: age, stale: stale))
                }
                fixes += 1
                if let count, fixes >= count { return }
            case .noFix(let time):
                if output.json {
                    try JSONLine.print(FixText.Event(event: "no_fix", time: RFC3339.string(time)))
                } else {
                    Console.out("\(RFC3339.string(time, fractionDigits: 0))  no fix")
                }
            case .connected(let spec):
                lastLoss = nil
                if output.json {
                    try JSONLine.print(FixText.Event(event: "connected", source: spec))
                } else {
                    Console.out("connected to \(spec)")
                }
            case .lost(let reason):
                lastLoss = reason
                if output.json {
                    try JSONLine.print(FixText.Event(event: "lost", reason: reason))
                } else {
                    Console.error("GPS lost: \(reason)")
                }
            }
        }
        // The stream ended by itself: a replay reached its end, or its file could not be read.
        if let lastLoss { throw RuntimeFailure(lastLoss) }
        if let count, fixes < count {
            throw RuntimeFailure("the GPS source ended after \(fixes) of \(count) fixes")
        }
    }
}
