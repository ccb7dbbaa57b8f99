import MTTCore

/// A GPS moving north a few metres per clock second, one fix a clock second, as a 1 Hz receiver
/// gives them (ten a real second at the tests' 10×).
public struct MovingFixSource: FixSource {
    public let clock: any TimeSource

    public init(clock: any TimeSource) {
        self.clock = clock
    }

    public var spec: String { "moving" }

    public func events() -> AsyncStream<FixEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FixEvent.self)
        let task = Task { [clock] in
            continuation.yield(.connected("moving"))
            let start = clock.now()
            while !Task.isCancelled {
                let now = clock.now()
                let north = now.seconds(since: start) * 5
                let point = GeoPoint(latitude: 52.09, longitude: 5.12).offset(metres: north, bearing: 0)
                continuation.yield(.fix(Fix(time: now, latitude: point.latitude, longitude: point.longitude, eph: 3, mode: .threeD, source: "moving")))
                try? await clock.sleep(seconds: 1)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
