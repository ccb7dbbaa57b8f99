/// The tracks as GeoJSON: one LineString Feature per session (`[longitude, latitude]`), written as
/// the fixes are read. The map draws the drive under its dots from it.
public enum TrackGeoJSONWriter {
    @discardableResult
    public static func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws -> Int {
        var sessions = 0
        var current: Int64?
        var points = 0
        try sink.write(#"{"type":"FeatureCollection","features":["#)
        try store.records.forEachTrackFix(filter) { session, fix in
            if session != current {
                if current != nil { try sink.write("]}}") }
                try sink.write((sessions == 0 ? "\n" : ",\n") + #"{"type":"Feature","properties":{"session":\#(session)},"geometry":{"type":"LineString","coordinates":["#)
                current = session
                sessions += 1
                points = 0
            }
            try sink.write((points == 0 ? "" : ",") + "[\(JSONString.number(fix.longitude)),\(JSONString.number(fix.latitude))]")
            points += 1
        }
        if current != nil { try sink.write("]}}") }
        try sink.write("\n]}\n")
        try sink.flush()
        return sessions
    }
}
