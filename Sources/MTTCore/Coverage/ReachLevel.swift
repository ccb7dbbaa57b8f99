/// A level of a gateway's reach, as TTN Mapper's radar draws it: the first of −100, −105, −110,
/// −115, −120 dBm that the signal exceeds, or `any`.
public enum ReachLevel: Int, Sendable, CaseIterable, Codable {
    case above100, above105, above110, above115, above120, any

    public init(signal s: Double) {
        self = Self.allCases.first { level in level.threshold.map { s > $0 } ?? true } ?? .any
    }

    /// The signal a reception must exceed to be of this level; nil for `any`.
    public var threshold: Double? {
        self == .any ? nil : -100 - 5 * Double(rawValue)
    }

    public var name: String {
        threshold.map { "above \(Int($0)) dBm" } ?? "any signal"
    }
}
