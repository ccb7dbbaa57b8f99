/// Answers the field testers a run hears (`--field-tester DEVICE|+`): each test uplink on port 1
/// gets its reply, the discovery uplinks on port 3 are mapped and never answered, and no device
/// gets more than `dailyCap` replies a UTC day (TTN's fair use), after which mtt says once that it
/// holds back.
public struct FieldTesterDesk: Sendable {
    public struct Settings: Sendable, Hashable {
        /// Device ids or DevEUIs (any case), or `+` for every device.
        public var devices: Set<String>
        public var dailyCap: Int

        public init(devices: [String], dailyCap: Int = 10) {
            self.devices = Set(devices.map { $0.lowercased() })
            self.dailyCap = dailyCap
        }

        public func names(_ uplink: Uplink) -> Bool {
            devices.contains("+") || devices.contains(uplink.deviceID.lowercased()) || uplink.devEUI.map { devices.contains($0.lowercased()) } == true
        }
    }

    /// What to do with one uplink.
    public enum Answer: Sendable, Hashable {
        case reply(Downlink, FieldTesterReply)
        /// Not a field tester's test (another device, a discovery uplink, no frame counter).
        case none
        /// Over the day's cap; `first` the first time today, to say so once.
        case heldBack(first: Bool)
    }

    public let settings: Settings
    /// Where a tester says it is: its network's decoded payload, else its own bytes (the
    /// `fieldtester` codec), behind TTN Mapper's gates.
    private let positioning: PayloadPositioning
    private var day: Int64 = -1
    private var sentToday: [String: Int] = [:]

    public init(settings: Settings, gates: PositionGates = PositionGates()) {
        self.settings = settings
        positioning = PayloadPositioning(codecs: CodecChoices().adding(["+": .fieldTester]), gates: gates)
    }

    /// The answer to `uplink`; `now` counts the day.
    public mutating func answer(_ uplink: Uplink, now: Timestamp, gatewayPosition: (String) -> GeoPoint? = { _ in nil }) -> Answer {
        guard settings.names(uplink), uplink.fPort == 1, uplink.fCnt != nil else { return .none }
        let today = now.nanosecondsSinceEpoch / 86_400_000_000_000
        if today != day { (day, sentToday) = (today, [:]) }
        let key = uplink.devEUI ?? uplink.deviceID
        let sent = sentToday[key, default: 0]
        guard sent < settings.dailyCap else {
            sentToday[key] = sent + 1
            return .heldBack(first: sent == settings.dailyCap)
        }
        sentToday[key] = sent + 1
        var position: GeoPoint?
        if case .placed(let p) = positioning.outcome(for: uplink) { position = GeoPoint(latitude: p.latitude, longitude: p.longitude) }
        let reply = FieldTesterReply(to: uplink, from: position, gatewayPosition: gatewayPosition)
        return .reply(
            Downlink(deviceID: uplink.deviceID, devEUI: uplink.devEUI, applicationID: uplink.applicationID, fPort: FieldTesterReply.fPort, payload: reply.bytes),
            reply)
    }
}
