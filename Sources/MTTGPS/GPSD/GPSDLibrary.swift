import CGPS

/// The libgps that mtt is built against.
public enum GPSDLibrary {
    /// gpsd's client API major version (11 for gpsd 3.22 on Debian 12).
    public static let apiMajorVersion = Int(GPSD_API_MAJOR_VERSION)
}
