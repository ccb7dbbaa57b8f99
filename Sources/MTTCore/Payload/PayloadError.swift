/// Why a byte string is not the payload it claims to be.
public enum PayloadError: Error, Equatable, CustomStringConvertible {
    case wrongLength(kind: String, expected: Int, got: Int)
    case unknownFormat(UInt8)

    public var description: String {
        switch self {
        case .wrongLength(let kind, let expected, let got):
            return "\(kind) must be \(expected) bytes, got \(got)"
        case .unknownFormat(let byte):
            return "unknown payload format 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }
}
