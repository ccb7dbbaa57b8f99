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

    /// What one object says, each figure under the first of its names that holds a number.
    private struct Figures {
        enum Field: Int, CaseIterable {
            case latitude, longitude, altitude, satellites, accuracy, hdop

            var names: [String] {
                switch self {
                case .latitude: latitudeKeys
                case .longitude: longitudeKeys
                case .altitude: altitudeKeys
                case .satellites: satelliteKeys
                case .accuracy: accuracyKeys
                case .hdop: hdopKeys
                }
            }
        }

        /// Every name, to its field and its rank among the field's names. Looking up each key
        /// the object has, rather than each name there is, costs a few hashes per uplink instead
        /// of some thirty (a third of the reading's cost in a listener's profile).
        static let byName: [String: (field: Field, rank: Int)] = Dictionary(uniqueKeysWithValues: Field.allCases.flatMap { field in
            field.names.enumerated().map { ($0.element, (field, $0.offset)) }
        })

        private var found: [(value: Double, rank: Int)?] = Array(repeating: nil, count: Field.allCases.count)

        init(_ object: [String: JSONValue]) {
            for (key, value) in object {
                guard let (field, rank) = Self.byName[key], let number = value.number else { continue }
                if let earlier = found[field.rawValue], earlier.rank < rank { continue }
                found[field.rawValue] = (number, rank)
            }
        }

        subscript(field: Field) -> Double? { found[field.rawValue]?.value }
    }

    public static func position(in decoded: JSONValue) throws(UnreadPosition) -> PayloadPosition {
        var root = decoded
        if case .array(let elements) = decoded {
            guard let first = elements.first else { throw UnreadPosition(.notAPosition, "the decoded payload is an empty array") }
            root = first
        }
        guard case .object(let fields) = root else {
            throw UnreadPosition(.notAPosition, "the decoded payload is not an object")
        }
        // Most decoders write everything at the root: the nested objects are looked for once.
        var nested: [[String: JSONValue]] = []
        for key in nestedKeys {
            if case .object(let inner)? = fields[key] { nested.append(inner) }
        }
        for place in nested { try checkFix(place) }
        try checkFix(fields)
        for place in nested {
            if let position = try position(in: place, orElse: fields) { return position }
        }
        if let position = try position(in: fields, orElse: nil) { return position }
        if let position = cayenneGPS(in: fields) { return position }
        throw UnreadPosition(.notAPosition, "no latitude and longitude among the decoded fields")
    }

    /// The flags by which a device says its position is not a fix for mapping.
    private static func checkFix(_ place: [String: JSONValue]) throws(UnreadPosition) {
        if place["fixFailed"]?.bool == true {
            throw UnreadPosition(.noFix, "fixFailed: the device sent its last position again, not a fix")
        }
        if place["gnss_fix"]?.bool == false {
            throw UnreadPosition(.noFix, "gnss_fix is false")
        }
    }

    /// The position in one object, its quality figures from there or else from the root.
    private static func position(in place: [String: JSONValue], orElse root: [String: JSONValue]?) throws(UnreadPosition) -> PayloadPosition? {
        let here = Figures(place)
        switch (here[.latitude], here[.longitude]) {
        case (let latitude?, let longitude?):
            let rootFigures = root.map(Figures.init)
            func figure(_ field: Figures.Field) -> Double? { here[field] ?? rootFigures?[field] }
            return PayloadPosition(
                latitude: latitude, longitude: longitude, altitude: figure(.altitude),
                satellites: figure(.satellites).flatMap { Int(exactly: $0.rounded()) },
                hdop: figure(.hdop), accuracy: figure(.accuracy))
        case (nil, nil):
            return nil
        case (let latitude, _):
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
}
