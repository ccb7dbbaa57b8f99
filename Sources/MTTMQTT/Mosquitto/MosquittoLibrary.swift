import CMosquitto

/// The libmosquitto that mtt is linked against, initialised once per process as the library requires.
public enum MosquittoLibrary {
    public struct Version: Sendable, Hashable, CustomStringConvertible {
        public var major: Int32
        public var minor: Int32
        public var revision: Int32
        public var description: String { "\(major).\(minor).\(revision)" }
    }

    public static var version: Version {
        var major: Int32 = 0
        var minor: Int32 = 0
        var revision: Int32 = 0
        _ = mosquitto_lib_version(&major, &minor, &revision)
        return Version(major: major, minor: minor, revision: revision)
    }

    private static let initialised: Bool = {
        mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue
    }()

    /// Call before creating a client; later calls cost nothing.
    public static func initialise() -> Bool { initialised }
}
