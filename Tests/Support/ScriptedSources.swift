import MTTCore

/// A GPS that reports a given list of fixes, then stays quiet: for tests of the collectors with
/// a known track (the real GPS sources have tests of their own).
public struct ScriptedFixSource: FixSource {
    public let fixes: [Fix]
    public let pause: Double
    public let isStationary: Bool

    public init(fixes: [Fix], pause: Double = 0.005, stationary: Bool = false) {
        self.fixes = fixes
        self.pause = pause
        isStationary = stationary
    }

    public var spec: String { "scripted" }

    public func events() -> AsyncStream<FixEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FixEvent.self)
        let task = Task { [fixes, pause] in
            continuation.yield(.connected("scripted"))
            for fix in fixes {
                continuation.yield(.fix(fix))
                // A test double's pacing: the script's fixes, `pause` apart.
                try? await Task.sleep(for: .seconds(pause))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// A network that reports given uplinks once `ready` returns (for example, once the track they
/// belong to is stored).
public struct ScriptedUplinkSource: UplinkSource {
    public let uplinks: [Uplink]
    public let ready: @Sendable () async -> Void

    public init(uplinks: [Uplink], ready: @escaping @Sendable () async -> Void = {}) {
        self.uplinks = uplinks
        self.ready = ready
    }

    public var description: String { "scripted" }

    public func events() -> AsyncStream<UplinkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: UplinkEvent.self)
        let task = Task { [uplinks, ready] in
            continuation.yield(.connected("scripted"))
            await ready()
            for uplink in uplinks { continuation.yield(.uplink(uplink)) }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
