import MTTCore

/// A GPS that never moves, for a stationary gateway survey or a node on a window sill:
/// one fix a second at the given point, stamped with the current time.
public struct FixedPositionSource: FixSource {
    public let point: GeoPoint
    public let interval: Double

    public init(point: GeoPoint, interval: Double = 1) {
        self.point = point
        self.interval = interval
    }

    public var spec: String { GPSSpec.fixed(point).description }

    public func events() -> AsyncStream<FixEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: FixEvent.self)
        let task = Task { [point, interval, spec] in
            continuation.yield(.connected(spec))
            while !Task.isCancelled {
                continuation.yield(.fix(Fix(
                    time: .now(), latitude: point.latitude, longitude: point.longitude,
                    altitudeMSL: point.altitude, mode: point.altitude == nil ? .twoD : .threeD, source: spec)))
                try? await Task.sleep(for: .seconds(interval))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
