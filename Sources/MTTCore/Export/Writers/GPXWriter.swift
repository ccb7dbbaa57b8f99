extension ExportFormat {
    public static let gpx = ExportFormat(name: "gpx", help: "GPX 1.1 waypoints and the track, for GPS tools", writer: GPXWriter())
}

/// GPX 1.1: a waypoint per record (status, gateways, RSSI and SNR in mtt's extension), then the
/// track, one segment per session.
struct GPXWriter: ExportWriter {
    func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws -> Int {
        var count = 0
        try sink.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="mtt \(MTTVersion.current)" xmlns="http://www.topografix.com/GPX/1/1" xmlns:mtt="https://mtt.invalid/gpx/1">\n
            """)
        try store.records.forEachExportRecord(filter) { r in
            var line = "<wpt lat=\"\(r.latitude.plainText)\" lon=\"\(r.longitude.plainText)\">"
            if let alt = r.altitude { line += "<ele>\(alt.plainText)</ele>" }
            line += "<time>\(RFC3339.string(r.time))</time><name>\(XMLText.escaped(r.status.rawValue + (r.fCnt.map { " f_cnt \($0)" } ?? "")))</name>"
            line += "<extensions><mtt:status>\(r.status.rawValue)</mtt:status><mtt:gateways>\(r.gateways)</mtt:gateways>"
            if let rssi = r.rssi { line += "<mtt:rssi>\(rssi.plainText)</mtt:rssi>" }
            if let snr = r.snr { line += "<mtt:snr>\(snr.plainText)</mtt:snr>" }
            line += "</extensions></wpt>\n"
            try sink.write(line)
            count += 1
        }
        // GPX wants waypoints before tracks: one track segment per session.
        var current: Int64?
        try store.records.forEachTrackFix(filter) { session, fix in
            if session != current {
                try sink.write((current == nil ? "<trk><name>mtt track</name>" : "</trkseg>") + "<trkseg>\n")
                current = session
            }
            var line = "<trkpt lat=\"\(fix.latitude.plainText)\" lon=\"\(fix.longitude.plainText)\">"
            if let alt = fix.altitudeMSL ?? fix.altitudeHAE { line += "<ele>\(alt.plainText)</ele>" }
            try sink.write(line + "<time>\(RFC3339.string(fix.time))</time></trkpt>\n")
        }
        if current != nil { try sink.write("</trkseg></trk>\n") }
        try sink.write("</gpx>\n")
        return count
    }
}
