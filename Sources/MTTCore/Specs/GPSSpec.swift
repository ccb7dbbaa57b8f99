import Foundation

/// A `--gps` value (DESIGN.md): `gpsd[://HOST:PORT]`, `nmea:FILE[?speed=N]`, `fixed:LAT,LON[,ALT]`,
/// `fake[:SEED]`.
public enum GPSSpec: Sendable, Hashable, CustomStringConvertible {
    case gpsd(host: String, port: Int)
    /// Replays a capture; `speed` 1 keeps the capture's own pace, 10 plays ten times faster,
    /// 0 as fast as it can be read.
    case nmea(path: String, speed: Double)
    case fixed(GeoPoint)
    case fake(seed: UInt64)

    public static let defaultGPSDPort = 2947
    static let forms = "gpsd[://HOST:PORT], nmea:FILE[?speed=N], fixed:LAT,LON[,ALT] or fake[:SEED]"

    public init(parsing text: String) throws {
        if text == "gpsd" {
            self = .gpsd(host: "127.0.0.1", port: Self.defaultGPSDPort)
        } else if text.hasPrefix("gpsd://") {
            let rest = String(text.dropFirst("gpsd://".count))
            let (host, port) = try Self.hostAndPort(rest, in: text)
            self = .gpsd(host: host, port: port)
        } else if text.hasPrefix("nmea:") {
            var path = String(text.dropFirst("nmea:".count))
            var speed = 1.0
            if let q = path.lastIndex(of: "?") {
                let query = path[path.index(after: q)...]
                path = String(path[..<q])
                guard query.hasPrefix("speed="), let value = Double(query.dropFirst("speed=".count)), value >= 0 else {
                    throw SpecError("bad GPS spec \(text): the only option of nmea: is ?speed=N (N ≥ 0)")
                }
                speed = value
            }
            guard !path.isEmpty else { throw SpecError("bad GPS spec \(text): nmea: needs a file") }
            self = .nmea(path: path, speed: speed)
        } else if text.hasPrefix("fixed:") {
            let parts = text.dropFirst("fixed:".count).split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }),
                  let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180
            else {
                throw SpecError("bad GPS spec \(text): use fixed:LAT,LON[,ALT] in degrees, e.g. fixed:52.09,5.12")
            }
            self = .fixed(GeoPoint(latitude: lat, longitude: lon, altitude: parts.count == 3 ? parts[2] : nil))
        } else if text == "fake" {
            self = .fake(seed: 1)
        } else if text.hasPrefix("fake:"), let seed = UInt64(text.dropFirst("fake:".count)) {
            self = .fake(seed: seed)
        } else {
            throw SpecError("bad GPS spec \(text): use \(Self.forms)")
        }
    }

    private static func hostAndPort(_ rest: String, in text: String) throws -> (String, Int) {
        if rest.isEmpty { return ("127.0.0.1", defaultGPSDPort) }
        // [v6::addr]:port, host:port, or host alone.
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            let host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.isEmpty { return (host, defaultGPSDPort) }
            guard after.hasPrefix(":"), let port = Int(after.dropFirst()), (1...65535).contains(port) else {
                throw SpecError("bad GPS spec \(text): the port must be 1 to 65535")
            }
            return (host, port)
        }
        let pieces = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count <= 2, !pieces[0].isEmpty else { throw SpecError("bad GPS spec \(text): use gpsd://HOST:PORT") }
        if pieces.count == 1 { return (String(pieces[0]), defaultGPSDPort) }
        guard let port = Int(pieces[1]), (1...65535).contains(port) else {
            throw SpecError("bad GPS spec \(text): the port must be 1 to 65535")
        }
        return (String(pieces[0]), port)
    }

    public var description: String {
        switch self {
        case .gpsd(let host, let port):
            return host.contains(":") ? "gpsd://[\(host)]:\(port)" : "gpsd://\(host):\(port)"
        case .nmea(let path, let speed):
            if speed == 1 { return "nmea:\(path)" }
            return "nmea:\(path)?speed=\(speed.plainText)"
        case .fixed(let p):
            return "fixed:\(p.latitude),\(p.longitude)" + (p.altitude.map { ",\($0)" } ?? "")
        case .fake(let seed):
            return seed == 1 ? "fake" : "fake:\(seed)"
        }
    }
}
