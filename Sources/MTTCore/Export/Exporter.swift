import Foundation

/// The export formats: GPX 1.1 for GPS tools, GeoJSON for QGIS, CSV for spreadsheets, KML 2.2 for
/// Google Earth (placemarks coloured by TTN Mapper's signal bands, lost and failed attempts black).
public enum ExportFormat: String, Sendable, CaseIterable {
    case gpx, geojson, csv, kml
}

public enum Exporter {
    /// Writes every record that `filter` selects from `store` to `sink`; returns how many.
    @discardableResult
    public static func export(_ store: Store, as format: ExportFormat, filter: ExportFilter = ExportFilter(), to sink: TextSink) throws -> Int {
        var count = 0
        switch format {
        case .csv:
            try sink.write("time,lat,lon,alt,status,method,mode,device,dev_eui,f_cnt,sf,frequency,gateways,best_gateway,rssi,snr\n")
            try store.forEachExportRecord(filter) { r in
                let fields: [String] = [
                    RFC3339.string(r.time), r.latitude.plainText, r.longitude.plainText, r.altitude.map(\.plainText) ?? "",
                    r.status.rawValue, r.method ?? "", r.mode, csv(r.device ?? ""), r.devEUI ?? "", r.fCnt.map(String.init) ?? "",
                    r.spreadingFactor.map(String.init) ?? "", r.frequency.map(String.init) ?? "", String(r.gateways),
                    csv(r.bestGateway ?? ""), r.rssi.map(\.plainText) ?? "", r.snr.map(\.plainText) ?? "",
                ]
                try sink.write(fields.joined(separator: ",") + "\n")
                count += 1
            }
        case .geojson:
            try sink.write(#"{"type":"FeatureCollection","features":["#)
            let encoder = JSONEncoder.stable()
            try store.forEachExportRecord(filter) { r in
                var coordinates = [r.longitude, r.latitude]
                if let alt = r.altitude { coordinates.append(alt) }
                let feature = Feature(geometry: .init(coordinates: coordinates), properties: .init(r))
                try sink.write((count == 0 ? "\n" : ",\n") + String(decoding: try encoder.encode(feature), as: UTF8.self))
                count += 1
            }
            try sink.write("\n]}\n")
        case .gpx:
            try sink.write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="mtt \(MTTVersion.current)" xmlns="http://www.topografix.com/GPX/1/1" xmlns:mtt="https://mtt.invalid/gpx/1">\n
                """)
            try store.forEachExportRecord(filter) { r in
                var line = "<wpt lat=\"\(r.latitude.plainText)\" lon=\"\(r.longitude.plainText)\">"
                if let alt = r.altitude { line += "<ele>\(alt.plainText)</ele>" }
                line += "<time>\(RFC3339.string(r.time))</time><name>\(xml(r.status.rawValue + (r.fCnt.map { " f_cnt \($0)" } ?? "")))</name>"
                line += "<extensions><mtt:status>\(r.status.rawValue)</mtt:status><mtt:gateways>\(r.gateways)</mtt:gateways>"
                if let rssi = r.rssi { line += "<mtt:rssi>\(rssi.plainText)</mtt:rssi>" }
                if let snr = r.snr { line += "<mtt:snr>\(snr.plainText)</mtt:snr>" }
                line += "</extensions></wpt>\n"
                try sink.write(line)
                count += 1
            }
            // GPX wants waypoints before tracks: one track segment per session.
            var current: Int64?
            try store.forEachTrackFix(filter) { session, fix in
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
        case .kml:
            try sink.write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>mtt coverage</name>\n
                """)
            for band in SignalBand.allCases {
                try sink.write("<Style id=\"\(band.rawValue)\"><IconStyle><color>\(band.kmlColor)</color><scale>0.6</scale><Icon><href>http://maps.google.com/mapfiles/kml/shapes/shaded_dot.png</href></Icon></IconStyle></Style>\n")
            }
            try store.forEachExportRecord(filter) { r in
                let band = SignalBand(r)
                let what = r.status == .heard
                    ? "RSSI \(r.rssi.map(\.plainText) ?? "?") dBm, SNR \(r.snr.map(\.plainText) ?? "?") dB, \(r.gateways) gateway(s)"
                    : (r.status == .lost ? "not heard" : "not sent")
                let coordinates = "\(r.longitude.plainText),\(r.latitude.plainText)" + (r.altitude.map { "," + $0.plainText } ?? "")
                try sink.write("<Placemark><name>\(xml(RFC3339.string(r.time, fractionDigits: 0)))</name><description>\(xml(what))</description><styleUrl>#\(band.rawValue)</styleUrl><Point><coordinates>\(coordinates)</coordinates></Point></Placemark>\n")
                count += 1
            }
            try sink.write("</Document></kml>\n")
        }
        try sink.flush()
        return count
    }

    /// TTN Mapper's colour bands by RSSI + min(SNR, 0); black for what was not heard.
    enum SignalBand: String, CaseIterable {
        case red = "above-100", orange = "above-105", yellow = "above-110", green = "above-115", lightBlue = "above-120"
        case blue = "weakest", black = "not-heard"

        init(_ r: ExportRecord) {
            guard r.status == .heard, let level = r.signalLevel else {
                self = .black
                return
            }
            switch level {
            case let l where l > -100: self = .red
            case let l where l > -105: self = .orange
            case let l where l > -110: self = .yellow
            case let l where l > -115: self = .green
            case let l where l > -120: self = .lightBlue
            default: self = .blue
            }
        }

        /// KML colours are aabbggrr.
        var kmlColor: String {
            switch self {
            case .red: return "ff0000ff"
            case .orange: return "ff007fff"
            case .yellow: return "ff00ffff"
            case .green: return "ff00ff00"
            case .lightBlue: return "ffffff00"
            case .blue: return "ffff0000"
            case .black: return "ff000000"
            }
        }
    }

    struct Feature: Encodable {
        struct Geometry: Encodable {
            var type = "Point"
            var coordinates: [Double]
        }

        struct Properties: Encodable {
            var time: String
            var status: String
            var method: String?
            var mode: String
            var device: String?
            var dev_eui: String?
            var f_cnt: Int?
            var sf: Int?
            var frequency: Int?
            var gateways: Int
            var best_gateway: String?
            var rssi: Double?
            var snr: Double?

            init(_ r: ExportRecord) {
                time = RFC3339.string(r.time)
                status = r.status.rawValue
                method = r.method
                mode = r.mode
                device = r.device
                dev_eui = r.devEUI
                f_cnt = r.fCnt
                sf = r.spreadingFactor
                frequency = r.frequency
                gateways = r.gateways
                best_gateway = r.bestGateway
                rssi = r.rssi
                snr = r.snr
            }
        }

        var type = "Feature"
        var geometry: Geometry
        var properties: Properties
    }

    static func csv(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    static func xml(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
