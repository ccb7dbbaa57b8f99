/// A LoRa data rate as legacy TTN and MapTheThings write it: `SF7BW125`.
public struct LoRaDataRate: Sendable, Hashable {
    public var spreadingFactor: Int
    /// Hz
    public var bandwidth: Int

    public init?(_ text: String) {
        guard text.hasPrefix("SF"), let bw = text.range(of: "BW"),
              let sf = Int(text[text.index(text.startIndex, offsetBy: 2)..<bw.lowerBound]),
              let khz = Int(text[bw.upperBound...])
        else { return nil }
        spreadingFactor = sf
        bandwidth = khz * 1000
    }
}
