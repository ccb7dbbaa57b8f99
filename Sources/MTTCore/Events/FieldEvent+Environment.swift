/// An event as environment variables for a hook's command (`MTT_EVENT_TYPE`, `MTT_EVENT_LAT`, …):
/// each field of the JSON under its name in capitals, lists comma-separated, the gateway's fields
/// as `MTT_EVENT_GATEWAY_ID` and so on, and `MTT_EVENT_SUMMARY`, the event in one line of words.
extension FieldEvent {
    public var environment: [String: String] {
        var values: [String: String] = [
            "VERSION": String(version), "TYPE": type.rawValue, "TIME": RFC3339.string(time), "SUMMARY": summary,
            "SESSION": session.map(String.init) ?? "",
        ]
        func put(_ name: String, _ value: (some CustomStringConvertible)?) {
            if let value { values[name] = value.description }
        }
        func put(_ name: String, _ value: Double?) {
            if let value { values[name] = value.plainText }
        }
        put("NODE", node)
        put("DEVICE", device)
        put("ATTEMPT", attempt)
        put("UPLINK", uplink)
        put("F_CNT", fCnt)
        put("LAT", lat)
        put("LON", lon)
        put("GATEWAYS", gateways)
        put("HEARD_BY", heardBy?.joined(separator: ","))
        put("RSSI", rssi)
        put("SNR", snr)
        put("MARGIN", margin)
        put("GATEWAY_ID", gateway?.id)
        put("GATEWAY_EUI", gateway?.eui)
        put("GATEWAY_LAT", gateway?.lat)
        put("GATEWAY_LON", gateway?.lon)
        put("REASON", reason)
        put("DETAIL", detail)
        put("OUTAGE", outage)
        put("MISSED", missed)
        put("SILENCE", silence)
        put("BATTERY", battery)
        put("METHOD", method)
        put("TARGET", target)
        put("SENT", sent)
        put("REJECTED", rejected)
        put("UNDELIVERED", undelivered)
        put("QUEUED", queued)
        put("URL", url)
        return Dictionary(uniqueKeysWithValues: values.map { ("MTT_EVENT_" + $0.key, $0.value) })
    }
}
