import Foundation
import MTTCore

/// What one MQTT message turned out to be.
public enum UplinkDecoding: Sendable, Hashable {
    case uplink(Uplink)
    /// Sent from the TTS console's "simulate uplink": not real coverage.
    case simulated
    /// Valid JSON of another kind (a join, a downlink event).
    case notAnUplink
}

/// A message that could not be read as an uplink, in one line.
public struct UplinkDecodeError: Error, Equatable, CustomStringConvertible {
    public var description: String
}

/// Reads The Things Stack v3 uplink JSON (current and pre-3.22 layouts) and legacy TTN v2 JSON
/// into mtt's `Uplink`.
public enum UplinkDecoder {
    /// - Parameter arrival: when mtt received the message; the uplink's time when the message
    ///   carries none at all (the TTS documentation's own example has neither `received_at`).
    public static func decode(_ payload: [UInt8], arrival: Timestamp = .now()) throws(UplinkDecodeError) -> UplinkDecoding {
        // The fast path reads current TTS messages; anything else (v2, a wrong type, broken JSON)
        // goes through JSONDecoder, which also words the errors.
        if let v3 = try? JSONReader.read(payload, { r throws(JSONReader.Mismatch) in try TTSUplinkMessage(reading: &r) }),
           v3.end_device_ids != nil {
            return try decoding(v3, arrival: arrival)
        }
        let data = Data(payload)
        let decoder = JSONDecoder()
        let v3: TTSUplinkMessage
        do {
            v3 = try decoder.decode(TTSUplinkMessage.self, from: data)
        } catch {
            throw UplinkDecodeError(description: reason(error))
        }
        if v3.end_device_ids != nil {
            return try decoding(v3, arrival: arrival)
        }
        let v2: TTNV2UplinkMessage
        do {
            v2 = try decoder.decode(TTNV2UplinkMessage.self, from: data)
        } catch {
            throw UplinkDecodeError(description: reason(error))
        }
        guard v2.dev_id != nil, v2.metadata != nil || v2.counter != nil else { return .notAnUplink }
        return .uplink(try uplink(v2))
    }

    private static func decoding(_ v3: TTSUplinkMessage, arrival: Timestamp) throws(UplinkDecodeError) -> UplinkDecoding {
        guard let ids = v3.end_device_ids else { return .notAnUplink }
        if v3.simulated == true { return .simulated }
        guard let message = v3.uplink_message else { return .notAnUplink }
        return .uplink(try uplink(ids: ids, message: message, topLevelReceivedAt: v3.received_at, arrival: arrival))
    }

    private static func uplink(
        ids: TTSUplinkMessage.EndDeviceIDs, message m: TTSUplinkMessage.UplinkMessage, topLevelReceivedAt: TTSUplinkMessage.Time?,
        arrival: Timestamp
    ) throws(UplinkDecodeError) -> Uplink {
        guard let deviceID = ids.device_id else { throw UplinkDecodeError(description: "uplink without a device_id") }
        let lora = m.settings?.data_rate?.lora
        var frequency: UInt64?
        if let text = m.settings?.frequency {
            guard let hz = UInt64(text) else { throw UplinkDecodeError(description: "settings.frequency is not a number of Hz: \(text)") }
            frequency = hz
        }
        let receptions = try (m.rx_metadata ?? []).map { r throws(UplinkDecodeError) -> GatewayReception in
            let viaPacketBroker = r.packet_broker != nil || r.gateway_ids?.gateway_id == "packetbroker"
            return GatewayReception(
                gatewayID: r.gateway_ids?.gateway_id ?? r.packet_broker?.forwarder_gateway_id ?? "unknown",
                gatewayEUI: upperCased(r.gateway_ids?.eui ?? r.packet_broker?.forwarder_gateway_eui),
                rssi: r.rssi, channelRSSI: r.channel_rssi, signalRSSI: r.signal_rssi, snr: r.snr,
                time: try r.time.map { t throws(UplinkDecodeError) in try time(t, "rx_metadata.time") },
                concentratorTimestamp: r.timestamp, channelIndex: r.channel_index, antennaIndex: r.antenna_index,
                location: r.location.flatMap { l in
                    guard let lat = l.latitude, let lon = l.longitude else { return nil }
                    return GeoPoint(latitude: lat, longitude: lon, altitude: l.altitude)
                },
                viaPacketBroker: viaPacketBroker)
        }
        // The network server's time; else the earliest gateway's; else when mtt got the message.
        let receivedAt = try (m.received_at ?? topLevelReceivedAt).map { t throws(UplinkDecodeError) in try time(t, "received_at") }
            ?? receptions.compactMap(\.time).min() ?? arrival
        return Uplink(
            deviceID: deviceID, applicationID: ids.application_ids?.application_id,
            devEUI: upperCased(ids.dev_eui), devAddr: upperCased(ids.dev_addr),
            fPort: m.f_port ?? 0, fCnt: m.f_cnt ?? 0, frequency: frequency,
            spreadingFactor: lora?.spreading_factor, bandwidth: lora?.bandwidth,
            codingRate: lora?.coding_rate ?? m.settings?.coding_rate,
            receivedAt: receivedAt, airtime: try m.consumed_airtime.map { d throws(UplinkDecodeError) in try duration(d) },
            payload: try base64(m.frm_payload), networkID: m.network_ids?.net_id.map { networkID(tenant: m.network_ids?.tenant_id ?? "ttn", netID: $0) },
            receptions: receptions)
    }

    private static func uplink(_ v2: TTNV2UplinkMessage) throws(UplinkDecodeError) -> Uplink {
        let meta = v2.metadata
        guard let timeText = meta?.time else { throw UplinkDecodeError(description: "v2 uplink without metadata.time") }
        let rate = meta?.data_rate.flatMap(LoRaDataRate.init)
        let frequency = try meta?.frequency.map { mhz throws(UplinkDecodeError) -> UInt64 in
            guard let hz = Uplink.frequency(megahertz: mhz) else {
                throw UplinkDecodeError(description: "metadata.frequency is not a frequency in MHz: \(mhz)")
            }
            return hz
        }
        let receptions = try (meta?.gateways ?? []).map { g throws(UplinkDecodeError) -> GatewayReception in
            GatewayReception(
                gatewayID: g.gtw_id ?? "unknown", gatewayEUI: upperCased(g.gtw_eui), rssi: g.rssi, snr: g.snr,
                time: try g.time.map { t throws(UplinkDecodeError) in try time(t, "gateways.time") },
                concentratorTimestamp: g.timestamp, channelIndex: g.channel,
                location: g.latitude.flatMap { lat in g.longitude.map { GeoPoint(latitude: lat, longitude: $0, altitude: g.altitude) } })
        }
        return Uplink(
            deviceID: v2.dev_id ?? "", applicationID: v2.app_id, devEUI: upperCased(v2.hardware_serial),
            fPort: v2.port ?? 0, fCnt: v2.counter ?? 0,
            frequency: frequency,
            spreadingFactor: rate?.spreadingFactor, bandwidth: rate?.bandwidth, codingRate: meta?.coding_rate,
            receivedAt: try time(timeText, "metadata.time"), airtime: meta?.airtime.map { Double($0) / 1e9 },
            payload: try base64(v2.payload_raw), receptions: receptions)
    }

    /// EUIs and addresses in capitals, as mtt stores them. The Things Stack already sends them so:
    /// then the text is kept rather than copied.
    private static func upperCased(_ text: String?) -> String? {
        guard let text else { return nil }
        // The string's own bytes: a generic walk over its UTF-8 view cost as much as reading the
        // whole EUI from the JSON.
        let needsCapitals = text.withUTF8Bytes { bytes in
            bytes.contains { $0 >= 0x80 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
        }
        return needsCapitals ? text.uppercased() : text
    }

    /// `NS_TTS_V3://ttn@000013`: sized once, where interpolation grew the string twice.
    private static func networkID(tenant: String, netID: String) -> String {
        var id = "NS_TTS_V3://"
        id.reserveCapacity(id.utf8.count + tenant.utf8.count + 1 + netID.utf8.count)
        id += tenant
        id += "@"
        id += netID
        return id
    }

    private static func time(_ field: TTSUplinkMessage.Time, _ name: String) throws(UplinkDecodeError) -> Timestamp {
        switch field {
        case .time(let time): time
        case .text(let text): try time(text, name)
        }
    }

    private static func time(_ text: String, _ field: String) throws(UplinkDecodeError) -> Timestamp {
        guard let t = RFC3339.parse(text) else { throw UplinkDecodeError(description: "\(field) is not an RFC 3339 time: \(text)") }
        return t
    }

    /// `"0.061696s"` → 0.061696.
    private static func duration(_ text: String) throws(UplinkDecodeError) -> Double {
        // strtod on the string's own C text: dropping the "s" and converting the rest made two
        // strings per uplink. A duration starts with a digit (no sign, space, "inf" or "nan").
        let seconds = text.withCString { start -> Double? in
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(UInt8(bitPattern: start[0])) else { return nil }
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(start, &end)
            // The "s" must be the last byte of the text, not just before an embedded NUL.
            guard let end, value.isFinite else { return nil }
            let unitAt = UnsafePointer(end) - start
            guard unitAt == text.utf8.count - 1, end[0] == CChar(UInt8(ascii: "s")) else { return nil }
            return value
        }
        guard let seconds else { throw UplinkDecodeError(description: "consumed_airtime is not a duration: \(text)") }
        return seconds
    }

    private static func base64(_ text: String?) throws(UplinkDecodeError) -> [UInt8] {
        guard let text, !text.isEmpty else { return [] }
        guard let bytes = Base64.decode(text) else { throw UplinkDecodeError(description: "the payload is not base64") }
        return bytes
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(let type, let context):
            return "\(path(context)) is not a \(type)"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context)) is malformed"
        case DecodingError.valueNotFound(_, let context):
            return "\(path(context)) is null"
        default:
            return "not JSON"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
