import FoundationEssentials

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
            let rest = text.dropFirst("gpsd://".count)
            if rest.isEmpty {
                self = .gpsd(host: "127.0.0.1", port: Self.defaultGPSDPort)
            } else {
                do {
                    let address = try HostPort(parsing: rest, defaultPort: Self.defaultGPSDPort)
                    self = .gpsd(host: address.host, port: address.port)
                } catch {
                    throw SpecError("bad GPS spec \(text): \(error) (use gpsd://HOST:PORT)")
                }
            }
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

    public var description: String {
        switch self {
        case .gpsd(let host, let port):
            return "gpsd://\(HostPort(host: host, port: port))"
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
