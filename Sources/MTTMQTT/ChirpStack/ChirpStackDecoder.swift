import MTTCore

/// Reads ChirpStack v4's MQTT integration events into mtt's `Uplink` (SPEC.md section 8), through
/// the same JSON reader as The Things Stack's uplinks.
public enum ChirpStackDecoder {
    /// - Parameters:
    ///   - topic: the event's topic: its last part after `event/` says what kind it is.
    ///   - networkID: what every uplink of this server carries (`NS_CHIRP://HOST`, `NS_HELIUM://000024`).
    ///   - arrival: when mtt received the message; the uplink's time when the event has none.
    public static func decode(topic: String, _ payload: [UInt8], networkID: String, arrival: Timestamp = .now()) throws(UplinkDecodeError) -> UplinkDecoding {
        if topic.hasSuffix("/rx") { return .unsupported(version3) }
        guard topic.hasSuffix("/event/up") else { return .notAnUplink }
        // The servers can encode events as protobuf instead of JSON: binary, never an object.
        if let first = payload.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first != UInt8(ascii: "{") {
            if (try? JSONReader.read(payload, { r throws(JSONReader.Mismatch) in try r.skip() })) == nil {
                return .unsupported("these events are not JSON (the server's MQTT integration encodes protobuf: set its json option)")
            }
        }
        let event: ChirpStackUplinkEvent
        do throws(UplinkDecodeError) {
            event = try UplinkDecoder.read(payload) { r throws(JSONReader.Mismatch) in try ChirpStackUplinkEvent(reading: &r) }
        } catch {
            // v3's fields have other types (its modulation is a string): known by its names.
            if isVersion3(payload) { return .unsupported(version3) }
            throw error
        }
        if event.looksLikeVersion3 && event.deviceInfo == nil { return .unsupported(version3) }
        return .uplink(try uplink(event, networkID: networkID, arrival: arrival))
    }

    /// Whether the document is an object naming v3's fields, whatever their values.
    private static func isVersion3(_ payload: [UInt8]) -> Bool {
        (try? JSONReader.read(payload) { r throws(JSONReader.Mismatch) -> Bool in
            var v3 = false
            try r.object { key, _ throws(JSONReader.Mismatch) in
                if key.matches("applicationID") || key.matches("devEUI") { v3 = true }
            }
            return v3
        }) ?? false
    }

    static let version3 = "ChirpStack v3 is not supported (its events name applicationID and devEUI): mtt reads ChirpStack v4"

    private static func uplink(_ e: ChirpStackUplinkEvent, networkID: String, arrival: Timestamp) throws(UplinkDecodeError) -> Uplink {
        guard let devEUI = UplinkDecoder.eui(e.deviceInfo?.devEui) else {
            throw UplinkDecodeError(description: "uplink without a deviceInfo.devEui of 16 hex digits")
        }
        let lora = e.txInfo.flatMap { $0.notLoRa ? nil : $0 }
        // The network server's time for the uplink: the event's, else a gateway's as the server saw it.
        let serverTime = try e.time.map { t throws(UplinkDecodeError) in try UplinkDecoder.time(t, "time") }
            ?? e.rxInfo.lazy.compactMap { $0.nsTime.flatMap(UplinkDecoder.gatewayTime) }.first
        // A relayed uplink was heard by the gateways from the relay, not from where the device was:
        // the network heard it, but its receptions say nothing of coverage there.
        let receptions = e.relayed ? [] : e.rxInfo.map { r in
            // proto3 leaves out zeros: an absent RSSI, SNR or index is 0, as The Things Stack's.
            GatewayReception(
                gatewayID: r.gatewayId ?? GatewayReception.unknownID, gatewayEUI: UplinkDecoder.eui(r.gatewayId),
                rssi: r.rssi ?? 0, snr: r.snr ?? 0, time: r.gwTime.flatMap(UplinkDecoder.gatewayTime),
                channelIndex: r.channel ?? 0, antennaIndex: r.antenna ?? 0,
                location: r.location?.point)
        }
        return Uplink(
            deviceID: e.deviceInfo?.deviceName ?? devEUI.lowercased(), applicationID: e.deviceInfo?.applicationId, devEUI: devEUI,
            devAddr: UplinkDecoder.hexIdentifier(e.devAddr, digits: 8), fPort: e.fPort ?? 0, fCnt: e.fCnt ?? 0, frequency: e.txInfo?.frequency,
            spreadingFactor: lora?.spreadingFactor, bandwidth: lora?.bandwidth, codingRate: lora?.codeRate.flatMap(codingRate),
            receivedAt: serverTime ?? arrival, payload: try UplinkDecoder.base64(e.data), networkID: networkID, receptions: receptions,
            decodedPayload: e.object)
    }

    /// `CR_4_5` (the proto enum's name) as mtt and TTS write it: `4/5`.
    private static func codingRate(_ name: String) -> String? {
        guard name.hasPrefix("CR_") else { return nil }
        let parts = name.dropFirst(3).split(separator: "_")
        return parts.count == 2 ? "\(parts[0])/\(parts[1])" : nil
    }
}
