import Glibc
import MTTCore

/// What one MQTT message turned out to be.
public enum UplinkDecoding: Sendable, Hashable {
    case uplink(Uplink)
    /// Sent from the TTS console's "simulate uplink": not real coverage.
    case simulated
    /// Valid JSON of another kind (a join, a downlink event).
    case notAnUplink
    /// A format mtt does not read (ChirpStack v3, protobuf): the reason, said once by the source.
    case unsupported(String)
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
        // One pass for v3; only a message without its end_device_ids is read again as v2.
        let v3 = try read(payload) { r throws(JSONReader.Mismatch) in try TTSUplinkMessage(reading: &r) }
        if v3.end_device_ids != nil {
            return try decoding(v3, arrival: arrival)
        }
        let v2 = try read(payload) { r throws(JSONReader.Mismatch) in try TTNV2UplinkMessage(reading: &r) }
        guard v2.dev_id != nil, v2.metadata != nil || v2.counter != nil else { return .notAnUplink }
        return .uplink(try uplink(v2))
    }

    /// The message as `body` reads it, or the reason it cannot, in words (found by a second read).
    static func read<T>(_ payload: [UInt8], _ body: (inout JSONReader) throws(JSONReader.Mismatch) -> T) throws(UplinkDecodeError) -> T {
        do throws(JSONReader.Mismatch) {
            return try JSONReader.read(payload, body)
        } catch {
            throw UplinkDecodeError(description: JSONReader.explain(payload, body))
        }
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
        // The network server's own clock (SPEC.md §3): the uplink's time, and the yardstick for the
        // gateways' clocks, which real gateways get wrong by minutes or years.
        let receivedAt = try networkTime(message: m.received_at, topLevel: topLevelReceivedAt) ?? arrival
        let receptions = (m.rx_metadata ?? []).map { r -> GatewayReception in
            // Packet Broker names its forwarder's gateway apart; TTN Mapper's ingest reads it there too.
            let viaPacketBroker = r.packet_broker != nil || r.gateway_ids?.gateway_id == GatewayReception.packetBrokerID
            var gatewayID = r.gateway_ids?.gateway_id
            var gatewayEUI = r.gateway_ids?.eui
            if viaPacketBroker {
                gatewayID = r.packet_broker?.forwarder_gateway_id ?? gatewayID
                gatewayEUI = r.packet_broker?.forwarder_gateway_eui ?? gatewayEUI
            }
            // TTS leaves out numbers that are 0: an absent RSSI, SNR or index is 0, not unknown.
            return GatewayReception(
                gatewayID: gatewayID ?? GatewayReception.unknownID,
                gatewayEUI: eui(gatewayEUI),
                rssi: r.rssi ?? 0, channelRSSI: r.channel_rssi ?? 0, signalRSSI: r.signal_rssi, snr: r.snr ?? 0,
                time: r.time.flatMap(gatewayTime),
                concentratorTimestamp: r.timestamp ?? (viaPacketBroker ? nil : 0),
                channelIndex: r.channel_index ?? 0, antennaIndex: r.antenna_index ?? 0,
                location: r.location?.point,
                viaPacketBroker: viaPacketBroker)
        }
        return Uplink(
            deviceID: deviceID, applicationID: ids.application_ids?.application_id,
            devEUI: eui(ids.dev_eui), devAddr: devAddr(ids.dev_addr),
            fPort: m.f_port ?? 0, fCnt: m.f_cnt ?? 0, frequency: frequency,
            spreadingFactor: lora?.spreading_factor, bandwidth: lora?.bandwidth,
            codingRate: lora?.coding_rate ?? m.settings?.coding_rate,
            receivedAt: receivedAt, airtime: try m.consumed_airtime.map { d throws(UplinkDecodeError) in try duration(d) },
            payload: try base64(m.frm_payload), networkID: m.network_ids?.net_id.map { networkID(tenant: m.network_ids?.tenant_id ?? "ttn", netID: $0) },
            receptions: receptions, decodedPayload: m.decoded_payload)
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
                gatewayID: g.gtw_id ?? GatewayReception.unknownID, gatewayEUI: eui(g.gtw_eui), rssi: g.rssi, snr: g.snr,
                time: try g.time.map { t throws(UplinkDecodeError) in try time(t, "gateways.time") },
                concentratorTimestamp: g.timestamp, channelIndex: g.channel,
                location: g.latitude.flatMap { lat in g.longitude.map { GeoPoint(latitude: lat, longitude: $0, altitude: g.altitude) } })
        }
        return Uplink(
            deviceID: v2.dev_id ?? "", applicationID: v2.app_id, devEUI: eui(v2.hardware_serial),
            fPort: v2.port ?? 0, fCnt: v2.counter ?? 0,
            frequency: frequency,
            spreadingFactor: rate?.spreadingFactor, bandwidth: rate?.bandwidth, codingRate: meta?.coding_rate,
            receivedAt: try time(timeText, "metadata.time"), airtime: meta?.airtime.map { Double($0) / 1e9 },
            payload: try base64(v2.payload_raw), receptions: receptions, decodedPayload: v2.payload_fields)
    }

    /// An EUI of 16 hex digits, in capitals as mtt stores them; nil for anything else (the
    /// `YOUR_EUI` and `xxxxxxxxxxxxxxxx` placeholders of example messages).
    static func eui(_ text: String?) -> String? { hexIdentifier(text, digits: 16) }

    /// A DevAddr of 8 hex digits, in capitals; nil for anything else.
    private static func devAddr(_ text: String?) -> String? { hexIdentifier(text, digits: 8) }

    /// The Things Stack already sends capitals: then the text is kept rather than copied.
    static func hexIdentifier(_ text: String?, digits: Int) -> String? {
        guard let text else { return nil }
        // The string's own bytes: a generic walk over its UTF-8 view cost as much as reading the
        // whole EUI from the JSON.
        let shape = text.withUTF8Bytes { bytes -> (valid: Bool, lower: Bool) in
            guard bytes.count == digits else { return (false, false) }
            var lower = false
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"): continue
                case UInt8(ascii: "a")...UInt8(ascii: "f"): lower = true
                default: return (false, false)
                }
            }
            return (true, lower)
        }
        guard shape.valid else { return nil }
        return shape.lower ? text.uppercased() : text
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

    /// `uplink_message.received_at` (the network server's), else the top-level one (the application
    /// server's); nil when the message has neither. A field that cannot be used (a Go zero time) is
    /// passed over for the other; only when neither can be used is the uplink refused.
    private static func networkTime(message: TTSUplinkMessage.Time?, topLevel: TTSUplinkMessage.Time?) throws(UplinkDecodeError) -> Timestamp? {
        var firstError: UplinkDecodeError?
        for (field, name) in [(message, "uplink_message.received_at"), (topLevel, "received_at")] {
            guard let field else { continue }
            do throws(UplinkDecodeError) {
                return try time(field, name)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        return nil
    }

    /// A gateway's clock as it said; whether to believe it is `Uplink.earliestReceiveTime`'s call.
    /// A time that is no time at all is left out rather than refusing the uplink.
    static func gatewayTime(_ field: TTSUplinkMessage.Time) -> Timestamp? {
        guard case .time(let time) = field else { return nil }
        return time
    }

    static func time(_ field: TTSUplinkMessage.Time, _ name: String) throws(UplinkDecodeError) -> Timestamp {
        switch field {
        case .time(let time): time
        case .text(let text): try time(text, name)
        }
    }

    private static func time(_ text: String, _ field: String) throws(UplinkDecodeError) -> Timestamp {
        guard let t = RFC3339.parse(text) else {
            if RFC3339.isOutOfRange(text) {
                throw UplinkDecodeError(description: "\(field) is out of range: \(text)")
            }
            throw UplinkDecodeError(description: "\(field) is not an RFC 3339 time: \(text)")
        }
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

    static func base64(_ text: String?) throws(UplinkDecodeError) -> [UInt8] {
        guard let text, !text.isEmpty else { return [] }
        guard let bytes = Base64.decode(text) else { throw UplinkDecodeError(description: "the payload is not base64") }
        return bytes
    }
}
