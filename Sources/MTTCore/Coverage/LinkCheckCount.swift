/// The link checks sent from one tile (`--linkcheck`): the modem's own word on who heard it, with
/// no network access. Kept beside what the network's uplinks say, never counted as it.
public struct LinkCheckCount: Sendable, Hashable {
    /// Attempts sent with a link check, and how many of those were answered.
    public var checked: Int
    public var answered: Int
    /// The most gateways one answer counted (0 while none was answered).
    public var gateways: Int
    /// The best margin answered, dB above the demodulation floor; nil while none was answered.
    public var margin: Int?

    public init(checked: Int, answered: Int, gateways: Int, margin: Int?) {
        self.checked = checked
        self.answered = answered
        self.gateways = gateways
        self.margin = margin
    }

    /// "heard by 3 gateways, margin 14 dB (LinkCheck, 5 of 6 answered)".
    public var text: String {
        guard answered > 0 else { return "not heard (LinkCheck: none of \(checked) answered)" }
        return "heard by \(CountText.of(gateways, "gateway")), margin \(margin ?? 0) dB (LinkCheck, \(answered) of \(checked) answered)"
    }
}
