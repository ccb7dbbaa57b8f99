extension ExportFormat {
    public static let jsonl = ExportFormat(name: "jsonl", help: "one JSON object per record and line, for jq and scripts", writer: JSONLinesWriter())
}

/// One JSON object per record and line (JSON Lines), the fields of the CSV with each gateway that
/// heard it: `mtt export --format jsonl | jq 'select(.status == "lost")'`.
struct JSONLinesWriter: ExportWriter {
    func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws -> Int {
        typealias J = JSONString
        var count = 0
        try store.records.forEachExportRecord(filter) { r in
            let gateways = r.receptions.map { g in
                "{\"id\":\(J.quoted(g.gateway)),\"rssi\":\(J.number(g.rssi)),\"snr\":\(J.number(g.snr))"
                    + ",\"lat\":\(J.number(g.position?.latitude)),\"lon\":\(J.number(g.position?.longitude))}"
            }
            var line = "{\"time\":\(J.quoted(RFC3339.string(r.time))),\"lat\":\(J.number(r.latitude)),\"lon\":\(J.number(r.longitude))"
            line += ",\"alt\":\(J.number(r.altitude)),\"status\":\(J.quoted(r.status.rawValue)),\"method\":\(J.string(r.method))"
            line += ",\"mode\":\(J.quoted(r.mode)),\"session\":\(r.session),\"device\":\(J.string(r.device)),\"dev_eui\":\(J.string(r.devEUI))"
            line += ",\"f_cnt\":\(J.number(r.fCnt.map(Double.init))),\"sf\":\(J.number(r.spreadingFactor.map(Double.init))),\"frequency\":\(J.number(r.frequency.map(Double.init)))"
            line += ",\"rssi\":\(J.number(r.rssi)),\"snr\":\(J.number(r.snr)),\"gateways\":[\(gateways.joined(separator: ","))]}\n"
            try sink.write(line)
            count += 1
        }
        return count
    }
}
