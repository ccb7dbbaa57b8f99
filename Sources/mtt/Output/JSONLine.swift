import Foundation

/// Writes one JSON object per line on stdout, keys sorted so output diffs cleanly.
enum JSONLine {
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder.stable()
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        StandardOutput.write([UInt8](data))
    }
}
