import MTTCore

/// The Helium console's HTTP integration JSON (SPEC §9.4), as integrations and data sets log it:
/// one object per uplink and purchasing hotspot, read by the same one-pass reader as the MQTT
/// messages.
public enum HeliumConsoleDecoder {
    /// TTN Mapper's id for the Helium network (SPEC §7).
    public static let networkID = "NS_HELIUM://000024"

    struct Entry {
        struct Hotspot {
            var id: String?
            var lat: Double?
            var long: Double?
            var rssi: Double?
            var snr: Double?
            var spreading: String?
            var frequency: Double?
            var channel: Int?
            var reportedAt: Int64?
        }

        var name: String?
        var devEUI: String?
        var devAddr: String?
        var fCnt: UInt32?
        var port: Int?
        var payload: String?
        var reportedAt: Int64?
        var decoded: JSONValue?
        var hotspots: [Hotspot] = []
    }

    /// The entry's uplink, or the reason it is none.
    public static func decode(_ bytes: [UInt8]) throws(UplinkDecodeError) -> Uplink {
        let entry = try UplinkDecoder.read(bytes) { r throws(JSONReader.Mismatch) in try Entry(reading: &r) }
        guard let devEUI = UplinkDecoder.eui(entry.devEUI) else {
            throw UplinkDecodeError(description: "no dev_eui of 16 hex digits")
        }
        guard let reportedAt = entry.reportedAt ?? entry.hotspots.compactMap(\.reportedAt).min() else {
            throw UplinkDecodeError(description: "no reported_at")
        }
        let rate = entry.hotspots.lazy.compactMap { $0.spreading.flatMap(LoRaDataRate.init) }.first
        let receptions = entry.hotspots.map { h in
            GatewayReception(
                gatewayID: h.id ?? GatewayReception.unknownID, rssi: h.rssi, snr: h.snr,
                time: h.reportedAt.map(Self.time), channelIndex: h.channel,
                location: h.lat.flatMap { lat in h.long.flatMap { GeoPoint(checkingLatitude: lat, longitude: $0) } })
        }
        return Uplink(
            deviceID: entry.name ?? devEUI.lowercased(), devEUI: devEUI, devAddr: UplinkDecoder.hexIdentifier(entry.devAddr, digits: 8),
            fPort: entry.port, fCnt: entry.fCnt, frequency: entry.hotspots.lazy.compactMap(\.frequency).first.flatMap(Uplink.frequency(megahertz:)),
            spreadingFactor: rate?.spreadingFactor, bandwidth: rate?.bandwidth, receivedAt: time(reportedAt),
            payload: try UplinkDecoder.base64(entry.payload), networkID: networkID, receptions: receptions, decodedPayload: entry.decoded)
    }

    private static func time(_ milliseconds: Int64) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: milliseconds * 1_000_000)
    }
}

extension HeliumConsoleDecoder.Entry {
    init(reading r: inout JSONReader) throws(JSONReader.Mismatch) {
        var e = Self()
        guard try r.object({ key, r throws(JSONReader.Mismatch) in
            if key.matches("name") {
                e.name = try r.string()
            } else if key.matches("dev_eui") {
                e.devEUI = try r.string()
            } else if key.matches("devaddr") {
                e.devAddr = try r.string()
            } else if key.matches("fcnt") {
                e.fCnt = try r.integer()
            } else if key.matches("port") {
                e.port = try r.integer()
            } else if key.matches("payload") {
                e.payload = try r.string()
            } else if key.matches("reported_at") {
                e.reportedAt = try r.integer()
            } else if key.matches("decoded") {
                _ = try r.object { key, r throws(JSONReader.Mismatch) in
                    if key.matches("payload") { e.decoded = try r.value().nonNull }
                }
            } else if key.matches("hotspots") {
                // Each purchasing hotspot, a reception of the uplink.
                _ = try r.array { r throws(JSONReader.Mismatch) in
                    var h = Hotspot()
                    guard try r.object({ key, r throws(JSONReader.Mismatch) in
                        if key.matches("id") {
                            h.id = try r.string()
                        } else if key.matches("lat") {
                            h.lat = try r.double()
                        } else if key.matches("long") {
                            h.long = try r.double()
                        } else if key.matches("rssi") {
                            h.rssi = try r.double()
                        } else if key.matches("snr") {
                            h.snr = try r.double()
                        } else if key.matches("spreading") {
                            h.spreading = try r.string()
                        } else if key.matches("frequency") {
                            h.frequency = try r.double()
                        } else if key.matches("channel") {
                            h.channel = try r.integer()
                        } else if key.matches("reported_at") {
                            h.reportedAt = try r.integer()
                        }
                    }) else { throw r.mismatch("an object") }
                    e.hotspots.append(h)
                }
            }
        }) else { throw r.mismatch("an object") }
        self = e
    }
}
