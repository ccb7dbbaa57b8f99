/// One position report from a GPS, with the quality figures mtt needs to decide whether to trust it.
///
/// Optional fields are nil when the receiver did not report them (gpsd's NaN).
public struct Fix: Sendable, Hashable, Codable {
    /// gpsd's fix mode. Validity comes from this, never from libgps's `fix.status`,
    /// which gpsd 3.22 leaves at 0.
    public enum Mode: Int, Sendable, Hashable, Codable {
        case noFix = 1
        case twoD = 2
        case threeD = 3
    }

    public var time: Timestamp
    public var latitude: Double
    public var longitude: Double
    /// Height above the WGS84 ellipsoid, metres.
    public var altitudeHAE: Double?
    /// Height above mean sea level, metres.
    public var altitudeMSL: Double?
    /// Estimated horizontal error, metres (95 %).
    public var eph: Double?
    /// Estimated vertical error, metres (95 %).
    public var epv: Double?
    public var hdop: Double?
    /// Satellites used in the solution.
    public var satellites: Int?
    /// Ground speed, metres per second.
    public var speed: Double?
    /// Course over ground, degrees from true north.
    public var track: Double?
    public var mode: Mode
    /// Where the fix came from, as a GPS spec (`gpsd://127.0.0.1:2947`, `nmea:drive.log`, `fake`).
    public var source: String

    public init(
        time: Timestamp, latitude: Double, longitude: Double,
        altitudeHAE: Double? = nil, altitudeMSL: Double? = nil,
        eph: Double? = nil, epv: Double? = nil, hdop: Double? = nil, satellites: Int? = nil,
        speed: Double? = nil, track: Double? = nil, mode: Mode, source: String
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeHAE = altitudeHAE
        self.altitudeMSL = altitudeMSL
        self.eph = eph
        self.epv = epv
        self.hdop = hdop
        self.satellites = satellites
        self.speed = speed
        self.track = track
        self.mode = mode
        self.source = source
    }

    /// A 2D or 3D fix has a position; a mode-1 report only says the receiver is alive.
    public var hasPosition: Bool { mode != .noFix }

    public var point: GeoPoint {
        GeoPoint(latitude: latitude, longitude: longitude, altitude: altitudeMSL ?? altitudeHAE)
    }
}
