extension ExportFormat {
    public static let geojson = ExportFormat(name: "geojson", help: "a FeatureCollection of points with colours and gateways, for QGIS and the web", writer: GeoJSONWriter())
}

/// A FeatureCollection of points (RFC 7946: `[longitude, latitude]`), one Feature per record,
/// written as records are read. Each carries its TTN Mapper band colour and the gateways that heard
/// it, so a map (QGIS, `mtt serve`, `mtt report`) draws and explains it without another query.
struct GeoJSONWriter: ExportWriter {
    func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws -> Int {
        var count = 0
        try sink.write(#"{"type":"FeatureCollection","features":["#)
        try store.records.forEachExportRecord(filter) { r in
            try sink.write((count == 0 ? "\n" : ",\n") + GeoJSONFeature.text(r))
            count += 1
        }
        try sink.write("\n]}\n")
        return count
    }
}

/// One record as a GeoJSON Feature: the export's, the live map's and the report's.
public enum GeoJSONFeature {
    public static func text(_ r: ExportRecord) -> String {
        typealias J = JSONString
        // One string grown in place: building it from pieces and joining them took most of a
        // 100,000-sample stream's time.
        var out = #"{"type":"Feature","geometry":{"type":"Point","coordinates":["#
        out.reserveCapacity(640)
        out += J.number(r.longitude) + "," + J.number(r.latitude)
        if let alt = r.altitude, alt.isFinite { out += "," + J.number(alt) }
        out += #"]},"properties":{"id":"# + J.quoted(r.key.text)
        out += #","session":"# + String(r.session)
        out += #","time":"# + J.quoted(RFC3339.string(r.time))
        out += #","status":"# + J.quoted(r.status.rawValue)
        out += #","color":"# + J.quoted(r.status == .heardByLinkCheck ? CoverageLayer.linkCheckColor : SignalBand(r).hexColor)
        out += #","method":"# + J.string(r.method)
        out += #","mode":"# + J.quoted(r.mode)
        out += #","device":"# + J.string(r.device)
        out += #","dev_eui":"# + J.string(r.devEUI)
        out += #","f_cnt":"# + (r.fCnt.map(String.init) ?? "null")
        out += #","sf":"# + (r.spreadingFactor.map(String.init) ?? "null")
        out += #","frequency":"# + (r.frequency.map(String.init) ?? "null")
        out += #","gateways":"# + String(r.gateways)
        out += #","best_gateway":"# + J.string(r.bestGateway)
        out += #","rssi":"# + J.number(r.rssi)
        out += #","snr":"# + J.number(r.snr)
        out += #","heard_by":["#
        for (i, g) in r.receptions.enumerated() {
            if i > 0 { out += "," }
            out += #"{"gateway":"# + J.quoted(g.gateway) + #","rssi":"# + J.number(g.rssi) + #","snr":"# + J.number(g.snr)
            if let p = g.position { out += #","lat":"# + J.number(p.latitude) + #","lon":"# + J.number(p.longitude) }
            out += "}"
        }
        out += "]"
        if let margin = r.linkCheckMargin { out += #","linkcheck_margin":"# + String(margin) }
        if let reply = r.fieldTestReply { out += #","field_test":"# + J.quoted(Hex.string(reply)) }
        out += "}}"
        return out
    }
}
