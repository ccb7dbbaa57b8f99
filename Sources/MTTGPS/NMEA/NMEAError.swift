/// Why a line from a GPS is not a usable NMEA sentence.
public enum NMEAError: Error, Hashable, CustomStringConvertible {
    case notASentence
    case missingChecksum
    case badChecksum(expected: UInt8, found: UInt8)
    case badField(sentence: String, field: String)

    public var description: String {
        switch self {
        case .notASentence: return "not an NMEA sentence"
        case .missingChecksum: return "no checksum"
        case .badChecksum(let expected, let found):
            return "checksum is \(Hex.byte(found)), computed \(Hex.byte(expected))"
        case .badField(let sentence, let field): return "\(sentence): bad \(field)"
        }
    }
}

import MTTCore

extension Hex {
    static func byte(_ value: UInt8) -> String { string([value]) }
}
