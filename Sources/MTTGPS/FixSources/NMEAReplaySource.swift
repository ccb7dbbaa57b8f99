import FoundationEssentials
import Glibc
import Logging
import MTTCore

/// Replays an NMEA capture through mtt's own parser, at the capture's pace divided by `speed`
/// (0 = as fast as it reads). The stream ends with the file.
public struct NMEAReplaySource: FixSource {
    public let path: String
    public let speed: Double
    /// What the capture's gaps are waited on.
    public let clock: any TimeSource

    public init(path: String, speed: Double = 1, clock: any TimeSource = SystemClock()) {
        self.path = path
        self.speed = speed
        self.clock = clock
    }

    public var spec: String { speed == 1 ? "nmea:\(path)" : "nmea:\(path)?speed=\(speed.plainText)" }

    public func events() -> AsyncStream<FixEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FixEvent.self)
        let task = Task { [path, speed, clock, spec] in
            let logger = Logger(label: "mtt.gps")
            guard let data = FileManager.default.contents(atPath: path) else {
                continuation.yield(.lost(reason: "cannot read the NMEA file \(path)"))
                continuation.finish()
                return
            }
            continuation.yield(.connected(spec))
            var assembler = NMEAFixAssembler(source: spec)
            var previous: Timestamp?
            let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            for line in lines {
                if Task.isCancelled { break }
                for event in assembler.consume(line: line) {
                    // Epochs without a fix keep the capture's pace too: arriving all at once, a
                    // receiver's seconds without a fix read as none at all.
                    let time: Timestamp? = switch event {
                    case .fix(let fix): fix.time
                    case .noFix(let time): time
                    default: nil
                    }
                    if let time {
                        await Self.pace(from: previous, to: time, speed: speed, clock: clock)
                        previous = time
                    }
                    continuation.yield(event)
                }
            }
            for event in assembler.finish() { continuation.yield(event) }
            let counts = assembler.counts
            if counts.undated > 0 {
                logger.warning("\(path): \(counts.undated) epoch(s) without a fix: the capture never gives its date (no RMC or ZDA)")
            }
            if counts.badLines > 0 {
                logger.warning("\(path): skipped \(counts.badLines) bad lines (last: \(assembler.lastError.map { "\($0)" } ?? "?"))")
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Waits the capture's own gap between two fixes, scaled; long gaps (a receiver restart,
    /// a concatenated capture) are capped so a replay never stalls.
    private static func pace(from previous: Timestamp?, to next: Timestamp, speed: Double, clock: any TimeSource) async {
        guard speed > 0, let previous else { return }
        let gap = min(max(next.seconds(since: previous), 0), 5) / speed
        if gap > 0 { try? await clock.sleep(seconds: gap) }
    }
}

extension FixSourceKind {
    /// `nmea:FILE[?speed=N]`: a capture replayed at its own pace, N times faster, or (0) at once.
    public static let nmea = FixSourceKind(name: "nmea", form: "nmea:FILE[?speed=N]", simulatedAs: "GPS replayed from a file") { text throws(SpecError) in
        var path = String(text.dropFirst("nmea:".count))
        var speed = 1.0
        if let q = path.lastIndex(of: "?") {
            let query = path[path.index(after: q)...]
            path = String(path[..<q])
            guard query.hasPrefix("speed="), let value = Double(query.dropFirst("speed=".count)), value >= 0 else {
                throw SpecError("bad GPS spec \(text): the only option of nmea: is ?speed=N (N ≥ 0)")
            }
            speed = value
        }
        guard !path.isEmpty else { throw SpecError("bad GPS spec \(text): nmea: needs a file") }
        return FixSourceRecipe(description: NMEAReplaySource(path: path, speed: speed).spec) { [path, speed] _ in NMEAReplaySource(path: path, speed: speed) }
    }
}
