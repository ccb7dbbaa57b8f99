/// A network's log of uplinks as `mtt import` reads it: The Things Stack's uplink messages, ChirpStack
/// v4's `up` events, the Helium console's integration JSON. Implemented where the network's messages
/// are read (MTTMQTT) and listed by the command line; a file's first entry says which it is.
public struct UplinkLogFormat: Sendable {
    /// What the network calls it, for messages: "The Things Stack uplinks".
    public let name: String
    /// Top-level keys only this format's entries have; an entry with any of them is of this format.
    public let marks: [String]
    /// Whether the same uplink can come as several entries (Helium: one per purchasing hotspot,
    /// seconds apart), to be stored once with every reception.
    public let repeatsUplinks: Bool
    /// The entry's uplink; nil for an entry that is not one (a join). Throws the reason for an
    /// entry of this format that cannot be read.
    public let decode: @Sendable ([UInt8]) throws(UplinkLogError) -> Uplink?

    public init(
        name: String, marks: [String], repeatsUplinks: Bool = false,
        decode: @escaping @Sendable ([UInt8]) throws(UplinkLogError) -> Uplink?
    ) {
        self.name = name
        self.marks = marks
        self.repeatsUplinks = repeatsUplinks
        self.decode = decode
    }

    /// The format of `formats` whose marks `entry`'s top-level keys carry.
    public static func of(_ entry: JSONValue, among formats: [UplinkLogFormat]) -> UplinkLogFormat? {
        guard case .object(let keys) = entry else { return nil }
        return formats.first { format in format.marks.contains { keys[$0] != nil } }
    }
}

/// Why an entry of a log could not be read, in a few words.
public struct UplinkLogError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
