/// A way to read the position in a device's raw payload, for devices whose network decodes nothing
/// (`--codec DEVICE=NAME`). A codec is one file in `Codecs/` declaring its `PositionCodec` and one
/// line in `registered`; the option's parser and help read the list.
public struct PositionCodec: RegisteredKind {
    public let name: String
    /// The devices it is for, for `--help`.
    public let help: String
    private let reader: @Sendable (PayloadFrame) throws(UnreadPosition) -> PayloadPosition
    private let writer: @Sendable (PayloadPosition) -> PayloadFrame

    /// - Parameter write: how such a device sends a position: what the simulated trackers send
    ///   (`--network fake?trackers=N`), so every codec is heard in the demo as in the field.
    public init(
        name: String, help: String, write: @escaping @Sendable (PayloadPosition) -> PayloadFrame,
        read: @escaping @Sendable (PayloadFrame) throws(UnreadPosition) -> PayloadPosition
    ) {
        self.name = name
        self.help = help
        writer = write
        reader = read
    }

    /// The position in `frame`, or why there is none.
    public func position(in frame: PayloadFrame) throws(UnreadPosition) -> PayloadPosition {
        try reader(frame)
    }

    /// The frame such a device sends for `position`, to the codec's resolution.
    public func frame(for position: PayloadPosition) -> PayloadFrame {
        writer(position)
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
