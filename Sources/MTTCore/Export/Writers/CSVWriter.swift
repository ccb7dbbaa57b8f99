extension ExportFormat {
    public static let csv = ExportFormat(name: "csv", help: "a line per record with a header, for spreadsheets", writer: CSVWriter())
}

/// One line per record, with a header; text fields quoted where they must be (RFC 4180).
struct CSVWriter: ExportWriter {
    func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws -> Int {
        var count = 0
        try sink.write("time,lat,lon,alt,status,method,mode,device,dev_eui,f_cnt,sf,frequency,gateways,best_gateway,rssi,snr\n")
        try store.records.forEachExportRecord(filter) { r in
            let fields: [String] = [
                RFC3339.string(r.time), r.latitude.plainText, r.longitude.plainText, r.altitude.map(\.plainText) ?? "",
                r.status.rawValue, r.method ?? "", r.mode, Self.quoted(r.device ?? ""), r.devEUI ?? "", r.fCnt.map(String.init) ?? "",
                r.spreadingFactor.map(String.init) ?? "", r.frequency.map(String.init) ?? "", String(r.gateways),
                Self.quoted(r.bestGateway ?? ""), r.rssi.map(\.plainText) ?? "", r.snr.map(\.plainText) ?? "",
            ]
            try sink.write(fields.joined(separator: ",") + "\n")
            count += 1
        }
        return count
    }

    static func quoted(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
