import MTTCore

/// Builds the fix source a `--gps` spec names.
public enum FixSources {
    public static func make(_ spec: GPSSpec, clock: any TimeSource = SystemClock(), reconnect: Backoff = Backoff(initial: 0.5, maximum: 10)) -> any FixSource {
        switch spec {
        case .gpsd(let host, let port): return GPSDFixSource(host: host, port: port, reconnect: reconnect)
        case .nmea(let path, let speed): return NMEAReplaySource(path: path, speed: speed)
        case .fixed(let point): return FixedPositionSource(point: point, clock: clock)
        case .fake(let seed): return SimulatedFixSource(seed: seed, clock: clock)
        }
    }
}
