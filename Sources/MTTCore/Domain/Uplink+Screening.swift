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
        guard needsScreening(receptionLimit: receptionLimit) else { return (self, []) }
        var problems: [LeftOutOfUplink] = []
        var fields = self.box.fields
        fields.deviceID = PhysicalLimits.printable(fields.deviceID)
        if let sf = fields.spreadingFactor, !PhysicalLimits.spreadingFactor.contains(sf) {
            problems.append(.init(.outOfRange, "spreading factor \(sf) is not LoRa's (\(PhysicalLimits.spreadingFactor.lowerBound)…\(PhysicalLimits.spreadingFactor.upperBound)): left out"))
            fields.spreadingFactor = nil
        }
        if fields.receptions.count > receptionLimit {
            problems.append(.init(.tooManyReceptions, "\(fields.receptions.count) receptions in one uplink: the first \(receptionLimit) kept"))
            fields.receptions.removeSubrange(receptionLimit...)
        }
        for index in fields.receptions.indices {
            var r = fields.receptions[index]
            r.gatewayID = PhysicalLimits.printable(r.gatewayID)
            func inRange(_ value: Double?, _ range: ClosedRange<Double>, _ name: String, _ unit: String) -> Double? {
                guard let value, !range.contains(value) else { return value }
                problems.append(.init(.outOfRange, "\(name) \(value) \(unit) of gateway \(r.gatewayID) is outside \(range.lowerBound.plainText)…\(range.upperBound.plainText): left out"))
                return nil
            }
            r.rssi = inRange(r.rssi, PhysicalLimits.rssi, "RSSI", "dBm")
            r.channelRSSI = inRange(r.channelRSSI, PhysicalLimits.rssi, "channel RSSI", "dBm")
            r.signalRSSI = inRange(r.signalRSSI, PhysicalLimits.rssi, "signal RSSI", "dBm")
            r.snr = inRange(r.snr, PhysicalLimits.snr, "SNR", "dB")
            if let place = r.location, !PhysicalLimits.isPlace(latitude: place.latitude, longitude: place.longitude) {
                problems.append(.init(.outOfRange, "gateway \(r.gatewayID) said it is at \(place.latitude),\(place.longitude), which is no place: kept without a position"))
                r.location = nil
            }
            fields.receptions[index] = r
        }
        var screened = self
        screened.box = Box(fields)
        return (screened, problems)
    }

    private func needsScreening(receptionLimit: Int) -> Bool {
        if let sf = self.spreadingFactor, !PhysicalLimits.spreadingFactor.contains(sf) { return true }
        if self.receptions.count > receptionLimit || PhysicalLimits.printable(self.deviceID) != self.deviceID { return true }
        return self.receptions.contains { r in
            func out(_ value: Double?, _ range: ClosedRange<Double>) -> Bool { value.map { !range.contains($0) } ?? false }
            return out(r.rssi, PhysicalLimits.rssi) || out(r.channelRSSI, PhysicalLimits.rssi) || out(r.signalRSSI, PhysicalLimits.rssi)
                || out(r.snr, PhysicalLimits.snr)
                || r.location.map { !PhysicalLimits.isPlace(latitude: $0.latitude, longitude: $0.longitude) } ?? false
                || PhysicalLimits.printable(r.gatewayID) != r.gatewayID
        }
    }
}
