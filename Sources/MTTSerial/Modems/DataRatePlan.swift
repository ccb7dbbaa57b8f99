import MTTCore

/// How a region numbers LoRa data rates (125 kHz): EU868 and most others go DR0 = SF12 … DR5 = SF7,
/// US915 goes DR0 = SF10 … DR3 = SF7.
enum DataRatePlan {
    case eu868
    case us915

    var spreadingFactors: ClosedRange<Int> { self == .us915 ? 7...10 : 7...12 }

    /// The highest data rate a modem takes: EU868's DR5 (SF7), US915's DR4 (SF8 at 500 kHz).
    var highestDataRate: Int { self == .us915 ? 4 : 5 }

    func spreadingFactor(dataRate dr: Int) -> Int? {
        let sf = (self == .us915 ? 10 : 12) - dr
        return dr >= 0 && spreadingFactors.contains(sf) ? sf : nil
    }

    func dataRate(spreadingFactor sf: Int, node: String) throws -> Int {
        guard spreadingFactors.contains(sf) else {
            throw NodeError.unsupported(node: node, what: "use SF\(sf) (it takes SF\(spreadingFactors.lowerBound) to SF\(spreadingFactors.upperBound))")
        }
        return (self == .us915 ? 10 : 12) - sf
    }
}

extension LineConversation {
    /// Waits for the outcome of a join request: true when the network accepted.
    func joinOutcome(
        node: String, command: String, timeout: Double, isOutcome: @Sendable (String) -> Bool, isAccepted: (String) -> Bool
    ) async throws -> Bool {
        switch await next(timeout: timeout, accepting: isOutcome) {
        case .line(let line):
            return isAccepted(line)
        case .timedOut:
            throw NodeError.noAnswer(node: node, command: command, seconds: timeout)
        case .closed(let reason):
            throw NodeError.disconnected(node: node, reason: reason)
        }
    }
}
