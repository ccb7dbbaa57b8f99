/// What one uplink's LoRaWAN link check told (LinkCheckReq/LinkCheckAns, SPEC §10.3): how many
/// gateways received it and how far above the demodulation floor, or that no answer came. It is
/// the network's word with no network access at all: the gateways are counted, never named.
public enum LinkCheck: Sendable, Hashable {
    /// `gateways` (1…255) received the uplink; the best of them `margin` dB (0…254) above the floor.
    case answered(gateways: Int, margin: Int)
    /// The check went out with the uplink and no LinkCheckAns came back: nobody answered, which is
    /// taken as not heard.
    case unanswered

    /// An answer as a modem reports it, or nil when the numbers cannot be one: a count of 0, or the
    /// margin 255 (reserved; the RN2483's value before any answer).
    public init?(gateways: Int, margin: Int) {
        guard (1...255).contains(gateways), (0...254).contains(margin) else { return nil }
        self = .answered(gateways: gateways, margin: margin)
    }

    public var gateways: Int? {
        if case .answered(let gateways, _) = self { gateways } else { nil }
    }

    public var margin: Int? {
        if case .answered(_, let margin) = self { margin } else { nil }
    }
}

extension LinkCheck {
    /// "link check: heard by 3 gateways, margin 14 dB", "link check: no answer (not heard)".
    public var text: String {
        switch self {
        case .answered(let gateways, let margin): "link check: heard by \(CountText.of(gateways, "gateway")), margin \(margin) dB"
        case .unanswered: "link check: no answer (not heard)"
        }
    }
}
