/// LoRaWAN's retransmission back-off for join-requests (LoRaWAN L2 1.0.4, "Retransmission
/// backoff"): a device that is not answered may keep trying, but the join-requests' aggregated
/// airtime must stay within 36 s in the first hour after the first one, 36 s in each 10 hours of the
/// next 10 hours, and 8.7 s in each 24 hours after that. mtt joins modems by itself on the road, for
/// hours, so it keeps to this budget.
public struct JoinBudget: Sendable, Hashable {
    private struct Request: Sendable, Hashable {
        var time: Double
        var airtime: Double
    }

    /// When the first join-request went: the windows are counted from it.
    private var first: Double?
    /// The join-requests of the current window (earlier ones no longer count).
    private var recent: [Request] = []

    public init() {}

    /// The airtime of a LoRaWAN join-request (23 bytes of PHY payload) at `spreadingFactor`, 125 kHz,
    /// coding rate 4/5, 8 preamble symbols, explicit header and CRC (Semtech AN1200.13).
    public static func joinRequestAirtime(spreadingFactor sf: Int) -> Double {
        let payloadBytes = 23.0
        let symbol = Double(1 << sf) / 125_000
        let lowDataRate = sf >= 11 ? 1.0 : 0.0
        let bits = 8 * payloadBytes - 4 * Double(sf) + 28 + 16
        let symbols = 8 + max(((bits / (4 * (Double(sf) - 2 * lowDataRate))).rounded(.up)) * 5, 0)
        return (8 + 4.25 + symbols) * symbol
    }

    /// The window and budget that apply at `elapsed` seconds after the first join-request.
    private static func window(at elapsed: Double) -> (start: Double, length: Double, budget: Double) {
        if elapsed < 3_600 { return (0, 3_600, 36) }
        if elapsed < 39_600 {
            let index = ((elapsed - 3_600) / 36_000).rounded(.down)
            return (3_600 + index * 36_000, 36_000, 36)
        }
        let index = ((elapsed - 39_600) / 86_400).rounded(.down)
        return (39_600 + index * 86_400, 86_400, 8.7)
    }

    /// Seconds to wait, from `now`, before a join-request of `airtime` seconds keeps within the
    /// budget; 0 when it may go now. (Times in seconds on any steady clock.)
    public func wait(at now: Double, airtime: Double) -> Double {
        guard let first else { return 0 }
        var candidate = now
        // At most a few windows ahead: each step moves to the start of the next window.
        for _ in 0..<64 {
            let w = Self.window(at: candidate - first)
            let windowStart = first + w.start
            let used = recent.filter { $0.time >= windowStart && $0.time < windowStart + w.length }.reduce(0) { $0 + $1.airtime }
            if used + airtime <= w.budget { return candidate - now }
            candidate = windowStart + w.length
        }
        return candidate - now
    }

    /// Notes a join-request sent at `time`.
    public mutating func record(at time: Double, airtime: Double) {
        let origin = first ?? time
        first = origin
        // Only the current window can matter; older requests are forgotten.
        let windowStart = origin + Self.window(at: time - origin).start
        recent.removeAll { $0.time < windowStart }
        recent.append(Request(time: time, airtime: airtime))
    }
}
