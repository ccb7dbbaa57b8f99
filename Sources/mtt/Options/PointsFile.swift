import Foundation
import MTTCore

/// The places of `--points` and `--candidates`: a CSV file of lat,lon[,number] lines, or standard
/// input for `-`; what cannot be read is one line naming the file (and the line).
enum PointsFile {
    static func read(_ path: String) throws -> [GeoPoint] {
        let text: String
        do {
            text = path == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw RuntimeFailure("cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try PredictionPoints.read(text)
        } catch {
            throw RuntimeFailure("\(path): \(error)")
        }
    }
}
