/// How much one network source may bring in (issue 47): a message with 100,000 receptions stalled
/// a listener for 30 s, and a flood of made-up gateway ids left 112,668 gateways in a database.
public struct UplinkLimits: Sendable, Hashable {
    public var receptionsPerUplink: Int
    /// Gateways this run has not heard before, taken in per minute; receptions from more are left out.
    public var newGatewaysPerMinute: Int

    public init(receptionsPerUplink: Int = Uplink.defaultReceptionLimit, newGatewaysPerMinute: Int = 60) {
        self.receptionsPerUplink = receptionsPerUplink
        self.newGatewaysPerMinute = newGatewaysPerMinute
    }
}

/// Lets `UplinkLimits.newGatewaysPerMinute` gateways a minute be new to the run; the gateways it
/// let in are known from then on (their number grows by that many a minute at most).
public struct NewGatewayGate: Sendable {
    public let perMinute: Int
    private var known: Set<String> = []
    private var minuteStarted: Timestamp?
    private var admittedThisMinute = 0

    public init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// `uplink` without the receptions of new gateways past this minute's budget, and how many
    /// were left out.
    public mutating func admit(_ uplink: Uplink, at now: Timestamp) -> (uplink: Uplink, leftOut: Int) {
        guard uplink.receptions.contains(where: { !known.contains($0.gatewayID) }) else { return (uplink, 0) }
        if minuteStarted.map({ now.seconds(since: $0) >= 60 || now < $0 }) ?? true {
            minuteStarted = now
            admittedThisMinute = 0
        }
        var kept: [GatewayReception] = []
        var leftOut = 0
        for reception in uplink.receptions {
            if known.contains(reception.gatewayID) {
                kept.append(reception)
            } else if admittedThisMinute < perMinute {
                known.insert(reception.gatewayID)
                admittedThisMinute += 1
                kept.append(reception)
            } else {
                leftOut += 1
            }
        }
        guard leftOut > 0 else { return (uplink, 0) }
        var admitted = uplink
        admitted.receptions = kept
        return (admitted, leftOut)
    }
}
