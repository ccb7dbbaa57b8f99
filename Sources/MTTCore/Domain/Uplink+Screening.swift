/// A value or reception `Uplink.screened()` left out, and why in one line.
public struct LeftOutOfUplink: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A number no radio gives, or a gateway position that is no place.
        case outOfRange
        /// Receptions past the limit of one uplink.
        case tooManyReceptions
        /// Receptions from gateways past the new-gateway limit (`NewGatewayGate`).
        case tooManyNewGateways
    }

    public let kind: Kind
    public let reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}

extension Uplink {
    /// The most receptions one uplink keeps unless told otherwise: a city's uplink is heard by a
    /// few dozen gateways; one message with 100,000 stalled the listener for 30 s.
    public static let defaultReceptionLimit = 200

    /// This uplink with every value held to `PhysicalLimits`, and a one-line reason for each value
    /// left out. A value out of range is dropped, not the uplink: an RSSI of +Inf becomes no RSSI
    /// (the gateway did hear it; the reception then counts as "no signal"), a gateway at latitude
    /// 91 becomes a gateway without a position, an SF of 2,000,000,000 none. Receptions past
    /// `receptionLimit` are left out (the first ones kept). Ids are kept printable
    /// (`PhysicalLimits.printable`). Unchanged, and without a copy, when all is well.
    public func screened(receptionLimit: Int = Uplink.defaultReceptionLimit) -> (uplink: Uplink, problems: [LeftOutOfUplink]) {
        if box.withinLimits.load(ordering: .relaxed), self.receptions.count <= receptionLimit { return (self, []) }
        var problems: [LeftOutOfUplink] = []
        let deviceID = PhysicalLimits.printable(self.deviceID)
        var spreadingFactor = self.spreadingFactor
        if let sf = spreadingFactor, !PhysicalLimits.spreadingFactor.contains(sf) {
            problems.append(.init(.outOfRange, "spreading factor \(sf) is not LoRa's (\(PhysicalLimits.spreadingFactor.lowerBound)…\(PhysicalLimits.spreadingFactor.upperBound)): left out"))
            spreadingFactor = nil
        }
        // A copy of the array is made only when a reception changes.
        var receptions = self.receptions
        if receptions.count > receptionLimit {
            problems.append(.init(.tooManyReceptions, "\(receptions.count) receptions in one uplink: the first \(receptionLimit) kept"))
            receptions.removeSubrange(receptionLimit...)
        }
        var receptionsChanged = false
        for index in receptions.indices {
            if let screened = Self.screened(receptions[index], into: &problems) {
                receptions[index] = screened
                receptionsChanged = true
            }
        }
        guard !problems.isEmpty || receptionsChanged || deviceID != self.deviceID else {
            box.withinLimits.store(true, ordering: .relaxed)
            return (self, [])
        }
        var fields = self.box.fields
        fields.deviceID = deviceID
        fields.spreadingFactor = spreadingFactor
        fields.receptions = receptions
        var screened = self
        screened.box = Box(fields, withinLimits: true)
        return (screened, problems)
    }

    /// `reception` held to the limits, or nil when it is already.
    private static func screened(_ reception: GatewayReception, into problems: inout [LeftOutOfUplink]) -> GatewayReception? {
        var r = reception
        var changed = false
        let id = PhysicalLimits.printable(r.gatewayID)
        if id != r.gatewayID {
            r.gatewayID = id
            changed = true
        }
        // The id by itself: `inRange` changes `r` in place and must not read it meanwhile.
        func inRange(_ value: inout Double?, _ range: ClosedRange<Double>, _ name: String, _ unit: String) {
            guard let v = value, !range.contains(v) else { return }
            problems.append(.init(.outOfRange, "\(name) \(v) \(unit) of gateway \(id) is outside \(range.lowerBound.plainText)…\(range.upperBound.plainText): left out"))
            value = nil
            changed = true
        }
        inRange(&r.rssi, PhysicalLimits.rssi, "RSSI", "dBm")
        inRange(&r.channelRSSI, PhysicalLimits.rssi, "channel RSSI", "dBm")
        inRange(&r.signalRSSI, PhysicalLimits.rssi, "signal RSSI", "dBm")
        inRange(&r.snr, PhysicalLimits.snr, "SNR", "dB")
        if let place = r.location, !PhysicalLimits.isPlace(latitude: place.latitude, longitude: place.longitude) {
            problems.append(.init(.outOfRange, "gateway \(id) said it is at \(place.latitude),\(place.longitude), which is no place: kept without a position"))
            r.location = nil
            changed = true
        }
        return changed ? r : nil
    }
}
