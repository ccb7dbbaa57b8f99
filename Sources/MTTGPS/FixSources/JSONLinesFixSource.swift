import FoundationEssentials
import Glibc
import Logging
import MTTCore
import Synchronization

/// `jsonl:PATH`: positions as JSON lines, one object a line — `{"lat":52.09,"lon":5.12}` with
/// any of `time` (RFC 3339, or seconds since 1970; the run's clock when left out), `alt`, `hdop`,
/// `eph`, `satellites`, `speed` (m/s) and `track` (°). PATH is a file, read to its end, or a named
/// pipe, read as a script writes it (`mkfifo drive; mtt collect --gps jsonl:drive …`, then echo
/// positions into it) for as long as the run lasts: writers may come and go. A line that is not a
/// position is skipped and counted, never the end of the source.
public struct JSONLinesFixSource: FixSource {
    public let path: String
    public let clock: any TimeSource

    public init(path: String, clock: any TimeSource = SystemClock()) {
        self.path = path
        self.clock = clock
    }

    public var spec: String { "jsonl:\(path)" }

    /// One line, as a script writes it.
    struct Line: Decodable {
        var lat: Double
        var lon: Double
        var time: Time?
        var alt: Double?
        var hdop: Double?
        var eph: Double?
        var satellites: Int?
        var speed: Double?
        var track: Double?

        enum Time: Decodable {
            case text(String)
            case seconds(Double)

            init(from decoder: any Decoder) throws {
                let value = try decoder.singleValueContainer()
                if let seconds = try? value.decode(Double.self) { self = .seconds(seconds) } else { self = .text(try value.decode(String.self)) }
            }
        }
    }

    /// The fix a line says, or why it says none.
    static func fix(_ line: some StringProtocol, now: Timestamp, source: String, decoder: JSONDecoder) -> Result<Fix, SpecError> {
        guard let read = try? decoder.decode(Line.self, from: Data(line.utf8)) else {
            return .failure(SpecError("not a JSON object with lat and lon"))
        }
        guard GeoPoint(checkingLatitude: read.lat, longitude: read.lon) != nil else {
            return .failure(SpecError("lat \(read.lat), lon \(read.lon) is not a place"))
        }
        var time = now
        switch read.time {
        case .text(let text)?:
            guard let parsed = RFC3339.parse(text) else { return .failure(SpecError("time \(text) is not an RFC 3339 time")) }
            time = parsed
        case .seconds(let seconds)?:
            time = Timestamp(secondsSinceEpoch: seconds)
        case nil:
            break
        }
        return .success(Fix(
            time: time, latitude: read.lat, longitude: read.lon, altitudeMSL: read.alt, eph: read.eph, hdop: read.hdop,
            satellites: read.satellites, speed: read.speed, track: read.track, mode: read.alt == nil ? .twoD : .threeD, source: source))
    }

    public func events() -> AsyncStream<FixEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FixEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let stopped = Atomic(false)
        continuation.onTermination = { _ in stopped.store(true, ordering: .relaxed) }
        let path = self.path, clock = self.clock, spec = self.spec
        BlockingThread.start(name: "mtt-jsonl") {
            let logger = Logger(label: "mtt.gps")
            // Never blocks in open(), pipe or not; a pipe is held open for writing too, so that a
            // script that ends is not the end of the source (the next one may write on).
            let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                continuation.yield(.lost(reason: "cannot read \(path): \(String(cString: strerror(errno)))"))
                continuation.finish()
                return
            }
            var status = stat()
            let isPipe = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
            let holder = isPipe ? open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) : -1
            defer {
                close(fd)
                if holder >= 0 { close(holder) }
            }
            continuation.yield(.connected(spec))
            var pending: [UInt8] = [], skipped = 0
            let decoder = JSONDecoder()
            func take(_ line: ArraySlice<UInt8>) {
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { return }
                switch Self.fix(text, now: clock.now(), source: spec, decoder: decoder) {
                case .success(let fix): continuation.yield(.fix(fix))
                case .failure(let reason):
                    skipped += 1
                    if skipped == 1 { logger.warning("\(path): skipped a line: \(reason) (later ones are counted)") }
                }
            }
            let end = DescriptorReadLoop.run(fd, bufferSize: 4096, isClosed: { stopped.load(ordering: .relaxed) }) { bytes in
                pending += bytes
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    take(pending[..<newline])
                    pending.removeSubrange(...newline)
                }
            }
            if end != .closed { take(pending[...]) }
            if skipped > 1 { logger.warning("\(path): skipped \(skipped) lines that were not positions") }
            if case .failed = end { continuation.yield(.lost(reason: "\(path): \(end.reason)")) }
            continuation.finish()
        }
        return stream
    }
}

extension FixSourceKind {
    /// `jsonl:PATH`: positions as JSON lines from a file or a named pipe, to script a drive.
    public static let jsonLines = FixSourceKind(name: "jsonl", form: "jsonl:FILE", simulatedAs: "GPS scripted in JSON lines") { text throws(SpecError) in
        let path = String(text.dropFirst("jsonl:".count))
        guard !path.isEmpty else { throw SpecError("bad GPS spec \(text): jsonl: needs a file or a named pipe") }
        return FixSourceRecipe(description: text) { context in JSONLinesFixSource(path: path, clock: context.clock) }
    }
}
