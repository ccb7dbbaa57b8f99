/// A way to read the position in a device's raw payload, for devices whose network decodes nothing
/// (`--codec DEVICE=NAME`). A codec is one file in `Codecs/` declaring its `PositionCodec` and one
/// line in `registered`; the option's parser and help read the list.
public struct PositionCodec: RegisteredKind {
    public let name: String
    /// The devices it is for, for `--help`.
    public let help: String
    private let reader: @Sendable (PayloadFrame) throws(UnreadPosition) -> PayloadPosition

    public init(name: String, help: String, read: @escaping @Sendable (PayloadFrame) throws(UnreadPosition) -> PayloadPosition) {
        self.name = name
        self.help = help
        reader = read
    }

    /// The position in `frame`, or why there is none.
    public func position(in frame: PayloadFrame) throws(UnreadPosition) -> PayloadPosition {
        try reader(frame)
    }

    /// Every codec, in the order help lists them.
    public static let registered: [PositionCodec] = [
        .mapTheThings,
        .cayenneLPP,
        .ttnMapper9,
        .fieldTester,
        .adeunisFTD,
        .lgt92,
    ]
}

/// An uplink's application payload and the port it came on: some devices send positions on one
/// port and status on another.
public struct PayloadFrame: Sendable, Hashable {
    public var bytes: [UInt8]
    public var fPort: Int?

    public init(_ bytes: [UInt8], fPort: Int? = nil) {
        self.bytes = bytes
        self.fPort = fPort
    }

    /// Whether every byte in `range` is `value`: how several devices say "no fix".
    func all(_ value: UInt8, in range: Range<Int>) -> Bool {
        bytes[range].allSatisfy { $0 == value }
    }
}
