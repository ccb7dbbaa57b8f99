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

    public var isStationary: Bool { true }

    public var spec: String { "fixed:\(point.latitude),\(point.longitude)" + (point.altitude.map { ",\($0)" } ?? "") }

    /// `LAT,LON[,ALT]` in degrees (and metres), nil when it is not one.
    public static func point(parsing text: some StringProtocol) -> GeoPoint? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }), let lat = parts[0], let lon = parts[1] else { return nil }
        return GeoPoint(checkingLatitude: lat, longitude: lon, altitude: parts.count == 3 ? parts[2] : nil)
    }

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

extension FixSourceKind {
    /// `fixed:LAT,LON[,ALT]`: a GPS that never moves, stamped with the run's clock.
    public static let fixed = FixSourceKind(name: "fixed", form: "fixed:LAT,LON[,ALT]") { text throws(SpecError) in
        guard let point = FixedPositionSource.point(parsing: text.dropFirst("fixed:".count)) else {
            throw SpecError("bad GPS spec \(text): use fixed:LAT,LON[,ALT] in degrees, e.g. fixed:52.09,5.12")
        }
        return FixSourceRecipe(description: FixedPositionSource(point: point).spec) { context in FixedPositionSource(point: point, clock: context.clock) }
    }
}
