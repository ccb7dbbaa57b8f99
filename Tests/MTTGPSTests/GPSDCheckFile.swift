import Foundation
import MTTCore

/// gpsd's own expected output for a capture (`.log.chk`): its TPV reports.
struct GPSDCheckFile {
    struct Report {
        var mode: Int
        var latitude: Double?
        var longitude: Double?
        var hasTime: Bool
    }

    var reports: [Report]

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        reports = text.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.contains("\"class\":\"TPV\""),
                  let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else { return nil }
            return Report(
                mode: object["mode"] as? Int ?? 0, latitude: object["lat"] as? Double,
                longitude: object["lon"] as? Double, hasTime: object["time"] != nil)
        }
    }

    var threeDCount: Int { reports.filter { $0.mode == 3 }.count }

    /// True when some TPV has this position to within 1e-6 degrees.
    func contains(_ fix: Fix) -> Bool {
        reports.contains { r in
            guard let lat = r.latitude, let lon = r.longitude else { return false }
            return abs(lat - fix.latitude) <= 1e-6 && abs(lon - fix.longitude) <= 1e-6
        }
    }
}

/// A capture as a receiver sends it: gpsd's regression logs start with `#` comment lines that
/// gpsfake strips before feeding.
enum Capture {
    static func bytes(_ path: String) throws -> [UInt8] {
        var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        while data.first == UInt8(ascii: "#"), let end = data.firstIndex(of: UInt8(ascii: "\n")) {
            data.removeSubrange(...end)
        }
        return data
    }

    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: UInt8(ascii: "\n"))
    }
}

extension Array where Element == FixEvent {
    var fixes: [Fix] {
        compactMap { if case .fix(let fix) = $0 { return fix } else { return nil } }
    }

    var noFixCount: Int {
        filter { if case .noFix = $0 { return true } else { return false } }.count
    }
}

extension Fix {
    func isAtSamePosition(as other: Fix) -> Bool {
        abs(latitude - other.latitude) <= 1e-6 && abs(longitude - other.longitude) <= 1e-6
    }
}
