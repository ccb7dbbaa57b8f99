/// One point of an export: a heard sample, or an attempt the network did not hear.
public struct ExportRecord: Sendable, Hashable {
    public enum Status: String, Sendable {
        /// A sample: the network heard it.
        case heard
        /// The node sent it; no gateway heard it.
        case lost
        /// The node could not send it.
        case failed
        /// The node sent it and its link check was answered (`--linkcheck`): heard by `gateways`
        /// gateways, none of them named, no signal measured.
        case heardByLinkCheck = "heard-linkcheck"
    }

    /// Which record it is: a sample or an attempt, by its id.
    public enum Key: Sendable, Hashable {
        case sample(Int64)
        case attempt(Int64)

        /// `s` and the sample's id or `a` and the attempt's: the id a map's feature carries.
        public var text: String {
            switch self {
            case .sample(let id): "s\(id)"
            case .attempt(let id): "a\(id)"
            }
        }
    }

    public var key: Key
    public var session: Int64
    public var time: Timestamp
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var status: Status
    /// How the position was found (samples), nil for attempts (their own fix).
    public var method: String?
    public var mode: String
    public var device: String?
    public var devEUI: String?
    public var fCnt: Int?
    public var spreadingFactor: Int?
    public var frequency: Int?
    public var gateways: Int
    public var bestGateway: String?
    public var rssi: Double?
    public var snr: Double?
    /// Each gateway that heard it, strongest first.
    public var receptions: [HeardBy] = []
    /// A link check's margin, dB above the demodulation floor (status `heard-linkcheck`).
    public var linkCheckMargin: Int?
    /// A field tester's test: the 6-byte reply it was answered with (what its screen showed).
    public var fieldTestReply: [UInt8]?

    /// A gateway that heard a sample, with its position when the gateway shares it.
    public struct HeardBy: Sendable, Hashable {
        public var gateway: String
        public var rssi: Double?
        public var snr: Double?
        public var position: GeoPoint?
    }

    /// TTN Mapper's signal level: RSSI, lowered by a negative SNR.
    public var signalLevel: Double? {
        rssi.map { $0 + min(snr ?? 0, 0) }
    }
}

/// Which records to export.
public struct ExportFilter: Sendable, Hashable {
    public var since: Timestamp?
    public var until: Timestamp?
    public var mode: CollectionMode?
    public var session: Int64?
    /// Only samples stored after `sample`, and settled attempts after `attempt`: what is new since a
    /// live map last looked (the live feed decides when an unheard one is shown).
    public struct Newer: Sendable, Hashable {
        public var sample: Int64
        public var attempt: Int64

        public init(sample: Int64, attempt: Int64) {
            self.sample = sample
            self.attempt = attempt
        }
    }

    public var newer: Newer?

    public init(since: Timestamp? = nil, until: Timestamp? = nil, mode: CollectionMode? = nil, session: Int64? = nil) {
        self.since = since
        self.until = until
        self.mode = mode
        self.session = session
    }
}
