import MTTCore

/// `--gps fake`: the deterministic simulated drive, one report per simulated second, starting now.
/// `timeScale` 10 plays ten simulated seconds per real second (tests and the demo use it).
public struct SimulatedFixSource: FixSource {
    public let seed: UInt64
    public let timeScale: Double

    public init(seed: UInt64 = 1, timeScale: Double = 1) {
        self.seed = seed
        self.timeScale = timeScale
    }

    public var spec: String { GPSSpec.fake(seed: seed).description }

    public func events() -> AsyncStream<FixEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FixEvent.self)
        let task = Task { [seed, timeScale, spec] in
            var drive = SimulatedDrive(seed: seed, startTime: .now(), source: spec)
            continuation.yield(.connected(spec))
            while !Task.isCancelled {
                continuation.yield(drive.next())
                try? await Task.sleep(for: .seconds(1 / timeScale))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
