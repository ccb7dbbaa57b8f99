/// The position in a network's decoded payload (The Things Stack's `decoded_payload`, ChirpStack's
/// `object`, Helium's `decoded.payload`), found as TTN Mapper's ingest finds it (SPEC §9.1), so a
/// device that maps on TTN Mapper maps here with nothing to set up.
public enum DecodedPositionReader {
    static let latitudeKeys = ["lat", "latitude", "Latitude", "latitudeDeg", "gps_lat"]
    static let longitudeKeys = ["lon", "lng", "long", "longitude", "Longitude", "longitudeDeg", "gps_lng"]
    static let altitudeKeys = ["alt", "altitude", "Altitude", "height", "gpsalt", "gps_alt"]
    static let satelliteKeys = ["sats", "satellites", "numsat", "numsats"]
    static let accuracyKeys = ["acc", "accuracy", "hacc"]
    static let hdopKeys = ["hdop", "gps_hdop"]
    /// Objects searched before the root, in this order.
    static let nestedKeys = ["location", "gps", "value"]

    public static func position(in decoded: JSONValue) throws(UnreadPosition) -> PayloadPosition {
        var root = decoded
        if case .array(let elements) = decoded {
            guard let first = elements.first else { throw UnreadPosition(.notAPosition, "the decoded payload is an empty array") }
            root = first
        }
        guard case .object(let fields) = root else {
            throw UnreadPosition(.notAPosition, "the decoded payload is not an object")
        }
        let places = nestedKeys.compactMap { key -> [String: JSONValue]? in
            if case .object(let inner)? = fields[key] { inner } else { nil }
        } + [fields]
        for place in places {
            if place["fixFailed"]?.bool == true {
                throw UnreadPosition(.noFix, "fixFailed: the device sent its last position again, not a fix")
            }
            if place["gnss_fix"]?.bool == false {
                throw UnreadPosition(.noFix, "gnss_fix is false")
            }
        }
        for place in places {
            if let position = try position(in: place, orElse: fields) { return position }
        }
        if let position = cayenneGPS(in: fields) { return position }
        throw UnreadPosition(.notAPosition, "no latitude and longitude among the decoded fields")
    }

    /// The position in one object, its quality figures from there or else from the root.
    private static func position(in place: [String: JSONValue], orElse root: [String: JSONValue]) throws(UnreadPosition) -> PayloadPosition? {
        let latitude = first(latitudeKeys, in: place)
        let longitude = first(longitudeKeys, in: place)
        switch (latitude, longitude) {
        case (let latitude?, let longitude?):
            func figure(_ keys: [String]) -> Double? { first(keys, in: place) ?? first(keys, in: root) }
            return PayloadPosition(
                latitude: latitude, longitude: longitude, altitude: figure(altitudeKeys),
                satellites: figure(satelliteKeys).flatMap { Int(exactly: $0.rounded()) },
                hdop: figure(hdopKeys), accuracy: figure(accuracyKeys))
        case (nil, nil):
            return nil
        default:
            throw UnreadPosition(.malformed, "a \(latitude == nil ? "longitude" : "latitude") without a \(latitude == nil ? "latitude" : "longitude")")
        }
    }

    /// Cayenne LPP as networks decode it: The Things Stack's `gps_<channel>` objects, ChirpStack's
    /// `gpsLocation: {"<channel>": …}`; the lowest channel.
    private static func cayenneGPS(in fields: [String: JSONValue]) -> PayloadPosition? {
        var records = fields.filter { $0.key.hasPrefix("gps_") && Int($0.key.dropFirst(4)) != nil }
            .map { (Int($0.key.dropFirst(4))!, $0.value) }
        if case .object(let channels)? = fields["gpsLocation"] {
            records += channels.compactMap { key, value in Int(key).map { ($0, value) } }
        }
        for (_, record) in records.sorted(by: { $0.0 < $1.0 }) {
            guard let latitude = record["latitude"]?.number, let longitude = record["longitude"]?.number else { continue }
            return PayloadPosition(latitude: latitude, longitude: longitude, altitude: record["altitude"]?.number)
        }
        return nil
    }

    private static func first(_ keys: [String], in object: [String: JSONValue]) -> Double? {
        for key in keys {
            if let value = object[key]?.number { return value }
        }
        return nil
    }
}
