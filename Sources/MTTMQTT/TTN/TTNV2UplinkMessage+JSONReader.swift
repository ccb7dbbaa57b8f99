/// The legacy message read by the same one-pass reader as v3, so one reader words every error.
extension TTNV2UplinkMessage {
    typealias Mismatch = JSONReader.Mismatch

    init(reading r: inout JSONReader) throws(Mismatch) {
        var m = Self()
        guard try r.object({ key, r throws(Mismatch) in
            if key.matches("app_id") {
                m.app_id = try r.string()
            } else if key.matches("dev_id") {
                m.dev_id = try r.string()
            } else if key.matches("hardware_serial") {
                m.hardware_serial = try r.string()
            } else if key.matches("port") {
                m.port = try r.integer()
            } else if key.matches("counter") {
                m.counter = try r.integer()
            } else if key.matches("payload_raw") {
                m.payload_raw = try r.string()
            } else if key.matches("payload_fields") {
                m.payload_fields = try r.value().nonNull
            } else if key.matches("metadata") {
                m.metadata = try Metadata(reading: &r)
            }
        }) else { throw r.mismatch("an object") }
        self = m
    }
}

extension TTNV2UplinkMessage.Metadata {
    init?(reading r: inout JSONReader) throws(TTNV2UplinkMessage.Mismatch) {
        var m = Self()
        guard try r.object({ key, r throws(TTNV2UplinkMessage.Mismatch) in
            if key.matches("time") {
                m.time = try r.string()
            } else if key.matches("frequency") {
                m.frequency = try r.double()
            } else if key.matches("data_rate") {
                m.data_rate = try r.string()
            } else if key.matches("coding_rate") {
                m.coding_rate = try r.string()
            } else if key.matches("airtime") {
                m.airtime = try r.integer()
            } else if key.matches("gateways") {
                var list: [TTNV2UplinkMessage.Gateway] = []
                if try r.array({ r throws(TTNV2UplinkMessage.Mismatch) in
                    guard let gateway = try TTNV2UplinkMessage.Gateway(reading: &r) else {
                        throw r.mismatch("an object")
                    }
                    list.append(gateway)
                }) {
                    m.gateways = list
                }
            }
        }) else { return nil }
        self = m
    }
}

extension TTNV2UplinkMessage.Gateway {
    init?(reading r: inout JSONReader) throws(TTNV2UplinkMessage.Mismatch) {
        var g = Self()
        guard try r.object({ key, r throws(TTNV2UplinkMessage.Mismatch) in
            if key.matches("gtw_id") {
                g.gtw_id = try r.string()
            } else if key.matches("gtw_eui") {
                g.gtw_eui = try r.string()
            } else if key.matches("timestamp") {
                g.timestamp = try r.integer()
            } else if key.matches("time") {
                g.time = try r.string()
            } else if key.matches("channel") {
                g.channel = try r.integer()
            } else if key.matches("rssi") {
                g.rssi = try r.double()
            } else if key.matches("snr") {
                g.snr = try r.double()
            } else if key.matches("latitude") {
                g.latitude = try r.double()
            } else if key.matches("longitude") {
                g.longitude = try r.double()
            } else if key.matches("altitude") {
                g.altitude = try r.double()
            }
        }) else { return nil }
        self = g
    }
}
