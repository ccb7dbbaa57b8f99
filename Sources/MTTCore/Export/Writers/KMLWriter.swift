extension ExportFormat {
    public static let kml = ExportFormat(name: "kml", help: "KML 2.2 placemarks in TTN Mapper's colours, for Google Earth", writer: KMLWriter())
}

/// KML 2.2 for Google Earth: a placemark per record in its signal band's colour.
struct KMLWriter: ExportWriter {
    func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws -> Int {
        var count = 0
        try sink.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>mtt coverage</name>\n
            """)
        for band in SignalBand.allCases {
            try sink.write("<Style id=\"\(band.rawValue)\"><IconStyle><color>\(band.kmlColor)</color><scale>0.6</scale><Icon><href>http://maps.google.com/mapfiles/kml/shapes/shaded_dot.png</href></Icon></IconStyle></Style>\n")
        }
        try store.records.forEachExportRecord(filter) { r in
            let band = SignalBand(r)
            let what = r.status == .heard
                ? "RSSI \(r.rssi.map(\.plainText) ?? "?") dBm, SNR \(r.snr.map(\.plainText) ?? "?") dB, \(r.gateways) gateway(s)"
                : r.status == .heardByLinkCheck ? "heard by \(r.gateways) gateway(s), margin \(r.linkCheckMargin ?? 0) dB (LinkCheck)"
                : (r.status == .lost ? "not heard" : "not sent")
            let coordinates = "\(r.longitude.plainText),\(r.latitude.plainText)" + (r.altitude.map { "," + $0.plainText } ?? "")
            try sink.write("<Placemark><name>\(XMLText.escaped(RFC3339.string(r.time, fractionDigits: 0)))</name><description>\(XMLText.escaped(what))</description><styleUrl>#\(band.rawValue)</styleUrl><Point><coordinates>\(coordinates)</coordinates></Point></Placemark>\n")
            count += 1
        }
        try sink.write("</Document></kml>\n")
        return count
    }
}
