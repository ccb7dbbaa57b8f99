import MTTCore

/// One checksummed NMEA 0183 sentence, split into its comma-separated fields.
public struct NMEASentence: Sendable, Hashable {
    /// `GP`, `GN`, `GL`, `GA`, `BD`, `IN`, `EC`, … ; empty for proprietary (`$P…`) sentences.
    public var talker: String
    /// `GGA`, `RMC`, `GSA`, `GSV`, `GNS`, …
    public var type: String
    /// The fields after the address field.
    public var fields: [String]

    /// Parses a line of bytes (a GPS may send anything, including binary, so this is not a String).
    /// The checksum is required and checked.
    public init(line: some Collection<UInt8>) throws(NMEAError) {
        var bytes = Array(line)
        while let last = bytes.last, last == 0x0D || last == 0x0A || last == 0x20 { bytes.removeLast() }
        guard var start = bytes.firstIndex(of: UInt8(ascii: "$")) else { throw .notASentence }
        // Some loggers write `$$GNRMC`: the sentence starts at the last of the dollars.
        while start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "$") { start += 1 }
        bytes = Array(bytes[start...])
        guard bytes.count >= 7, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw .notASentence }
        guard let star = bytes.lastIndex(of: UInt8(ascii: "*")), star + 3 == bytes.count,
              let found = Hex.bytes(String(decoding: bytes[(star + 1)...], as: UTF8.self))?.first
        else { throw .missingChecksum }
        let computed = bytes[1..<star].reduce(UInt8(0), ^)
        guard computed == found else { throw .badChecksum(expected: computed, found: found) }

        let body = String(decoding: bytes[1..<star], as: UTF8.self)
        let parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let address = parts[0]
        if address.hasPrefix("P") {
            talker = ""
            type = String(address.dropFirst())
        } else {
            guard address.count == 5 else { throw .notASentence }
            talker = String(address.prefix(2))
            type = String(address.dropFirst(2))
        }
        fields = Array(parts.dropFirst())
    }

    func field(_ index: Int) -> String {
        index < fields.count ? fields[index] : ""
    }
}
