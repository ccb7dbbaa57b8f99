/// What a GPS reports over time.
public enum FixEvent: Sendable, Hashable {
    /// A position (2D or 3D).
    case fix(Fix)
    /// The receiver is talking but has no position.
    case noFix(Timestamp)
    /// The source is delivering: gpsd accepted the watch, a file was opened. Sent again after `.lost`
    /// when the GPS is back.
    case connected(String)
    /// The GPS or gpsd went away; the source keeps trying and sends `.connected` when it is back.
    case lost(reason: String)
}

/// Where positions come from: gpsd, an NMEA capture, a fixed point or a simulated drive.
/// Each call to `events()` starts a new, independent stream; ending the stream's iteration stops it.
public protocol FixSource: Sendable {
    /// The GPS spec this source was made from, for logs and the database.
    var spec: String { get }
    func events() -> AsyncStream<FixEvent>
    /// A position that never changes (`fixed:`): an uplink heard there is placed at once, at the
    /// latest fix, instead of waiting for the track to pass its receive time.
    var isStationary: Bool { get }
}

extension FixSource {
    public var isStationary: Bool { false }
}
