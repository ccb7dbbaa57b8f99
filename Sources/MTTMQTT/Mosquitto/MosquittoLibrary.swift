/// The libmosquitto that mtt is linked against.
public enum MosquittoLibrary {
    public struct Version: Sendable, Hashable, CustomStringConvertible {
        public var major: Int32
        public var minor: Int32
        public var revision: Int32
        public var description: String { "\(major).\(minor).\(revision)" }
    }

    public static var version: Version {
        let v = MosquittoClient.libraryVersion
        return Version(major: v.major, minor: v.minor, revision: v.revision)
    }
}
