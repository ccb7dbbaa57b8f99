/// Links from an event to the `mtt serve` page: the page centres on `#at=LAT,LON` and marks it.
public enum MapLink {
    public static func url(base: String, at point: GeoPoint?) -> String {
        guard let point else { return base }
        // The fragment never reaches the server, so a ?token= in the base stays as it is.
        let withoutFragment = base.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? base
        return withoutFragment + "#at=\(point.latitude.plainText),\(point.longitude.plainText)"
    }
}
