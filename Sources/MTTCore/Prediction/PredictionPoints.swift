/// The places `mtt coverage predict --points` and `plan --candidates` read: CSV lines of
/// `lat,lon[,number]` (the number, when there is one, kept as the point's altitude: a candidate
/// site's height above ground; more columns are ignored; a first line that is not numbers is a
/// header). A bad line is named with its number.
public enum PredictionPoints {
    public static func read(_ text: String) throws(SpecError) -> [GeoPoint] {
        var points: [GeoPoint] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "\r").first.map(String.init) ?? ""
            guard !line.allSatisfy({ $0 == " " }) else { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.filter { $0 != " " }) }
            guard fields.count >= 2, let lat = fields[0], let lon = fields[1] else {
                if index == 0 { continue }
                throw SpecError("line \(index + 1): not lat,lon: \(line.prefix(80))")
            }
            guard let point = GeoPoint(checkingLatitude: lat, longitude: lon, altitude: fields.count > 2 ? fields[2] : nil) else {
                throw SpecError("line \(index + 1): \(lat),\(lon) is not a place (latitude -90…90, longitude -180…180)")
            }
            points.append(point)
        }
        return points
    }
}
