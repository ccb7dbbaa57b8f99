/// One point of an export: a heard sample, or an attempt the network did not hear.
public struct ExportRecord: Sendable, Hashable {
    public enum Status: String, Sendable {
        /// A sample: the network heard it.
        case heard
        /// The node sent it; no gateway heard it.
        case lost
        /// The node could not send it.
        case failed
    }

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

    /// TTN Mapper's signal level: RSSI, lowered by a negative SNR.
    public var signalLevel: Double? {
        rssi.map { $0 + min(snr ?? 0, 0) }
    }
}

/// Which records to export.
public struct ExportFilter: Sendable {
    public var since: Timestamp?
    public var until: Timestamp?
    public var mode: CollectionMode?

    public init(since: Timestamp? = nil, until: Timestamp? = nil, mode: CollectionMode? = nil) {
        self.since = since
        self.until = until
        self.mode = mode
    }

    /// SQL conditions on a time column and `sessions.mode`, with their arguments.
    func sql(time column: String) -> (String, [Int64?], String?) {
        ("\(column) >= ? AND \(column) <= ?", [since?.nanosecondsSinceEpoch ?? Int64.min, until?.nanosecondsSinceEpoch ?? Int64.max], mode?.rawValue)
    }
}
