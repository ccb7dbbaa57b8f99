import MTTCore

/// `--gps fake`: the deterministic simulated drive, one report per second of `clock`, starting at
/// the clock's now. A clock running ten times faster drives ten minutes in one (tests, the demo).
public struct SimulatedFixSource: FixSource {
    public let seed: UInt64
    public let clock: any TimeSource

    public init(seed: UInt64 = 1, clock: any TimeSource = SystemClock()) {
        self.seed = seed
        self.clock = clock
    }

    public var spec: String { seed == 1 ? "fake" : "fake:\(seed)" }

    public func events() -> AsyncStream<FixEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FixEvent.self)
        let task = Task { [seed, clock, spec] in
            let start = clock.now()
            continuation.yield(.connected(spec))
            await SimulatedDrive.run([SimulatedDrive(seed: seed, startTime: start, source: spec)], from: start, on: clock) { _, _, report in
                continuation.yield(report)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension FixSourceKind {
    /// `fake[:SEED]`: the simulated drive, on the run's clock (so `--speed` speeds it up).
    public static let fake = FixSourceKind(name: "fake", form: "fake[:SEED]", simulatedAs: "fake GPS", followsTheRunClock: true) { text throws(SpecError) in
        let rest = text.dropFirst("fake".count)
        guard rest.isEmpty || (rest.hasPrefix(":") && UInt64(rest.dropFirst()) != nil), let seed = rest.isEmpty ? 1 : UInt64(rest.dropFirst()) else {
            throw SpecError("bad GPS spec \(text): use fake or fake:SEED, SEED a whole number")
        }
        return FixSourceRecipe(description: SimulatedFixSource(seed: seed).spec) { context in SimulatedFixSource(seed: seed, clock: context.clock) }
    }
}
