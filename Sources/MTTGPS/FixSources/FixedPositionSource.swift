import MTTCore

/// A GPS that never moves, for a stationary gateway survey or a node on a window sill:
/// one fix a second at the given point, stamped with the current time.
public struct FixedPositionSource: FixSource {
    public let point: GeoPoint
    public let interval: Double
    public let clock: any TimeSource

    public init(point: GeoPoint, interval: Double = 1, clock: any TimeSource = SystemClock()) {
        self.point = point
        self.interval = interval
        self.clock = clock
    }

    public var spec: String { GPSSpec.fixed(point).description }

    public func events() -> AsyncStream<FixEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FixEvent.self)
        let task = Task { [point, interval, clock, spec] in
            continuation.yield(.connected(spec))
            while !Task.isCancelled {
                continuation.yield(.fix(Fix(
                    time: clock.now(), latitude: point.latitude, longitude: point.longitude,
                    altitudeMSL: point.altitude, mode: point.altitude == nil ? .twoD : .threeD, source: spec)))
                try? await clock.sleep(seconds: interval)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
