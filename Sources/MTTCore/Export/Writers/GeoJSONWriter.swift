import Foundation

/// A FeatureCollection of points, one Feature per record, written as records are read.
struct GeoJSONWriter: ExportWriter {
    func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws -> Int {
        var count = 0
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
        return count
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

}
