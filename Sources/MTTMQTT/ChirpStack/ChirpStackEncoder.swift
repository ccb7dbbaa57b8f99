import FoundationEssentials
import MTTCore

/// An `Uplink` as ChirpStack v4's MQTT integration publishes it (protobuf's JSON mapping, zero
/// values left out): what the simulated network sends to a real broker with
/// `--network fake?format=chirpstack`. `ChirpStackDecoder` reads it back.
public enum ChirpStackEncoder {
    public static func json(_ u: Uplink, applicationID: String) -> [UInt8] {
        var fields: [String] = []
        fields.append(#""time":"# + JSONString.quoted(RFC3339.string(u.receivedAt, fractionDigits: 9)))
        var device = [#""applicationId":"# + JSONString.quoted(applicationID), #""deviceName":"# + JSONString.quoted(u.deviceID)]
        if let devEUI = u.devEUI { device.append(#""devEui":"# + JSONString.quoted(devEUI.lowercased())) }
        fields.append(#""deviceInfo":{"# + device.joined(separator: ",") + "}")
        if let devAddr = u.devAddr { fields.append(#""devAddr":"# + JSONString.quoted(devAddr.lowercased())) }
        if let fCnt = u.fCnt, fCnt != 0 { fields.append(#""fCnt":\#(fCnt)"#) }
        if let fPort = u.fPort, fPort != 0 { fields.append(#""fPort":\#(fPort)"#) }
        if !u.payload.isEmpty { fields.append(#""data":"# + JSONString.quoted(Data(u.payload).base64EncodedString())) }
        // The codec's output, as the application's device profile decodes it.
        if let object = u.decodedPayload, let json = try? JSONEncoder.stable().encode(object) {
            fields.append(#""object":"# + String(decoding: json, as: UTF8.self))
        }
        let rx = u.receptions.map { r -> String in
            var g = [#""gatewayId":"# + JSONString.quoted((r.gatewayEUI ?? r.gatewayID).lowercased())]
            if let time = r.time { g.append(#""gwTime":"# + JSONString.quoted(RFC3339.string(time, fractionDigits: 9))) }
            if let rssi = r.rssi, rssi != 0 { g.append(#""rssi":"# + JSONString.number(rssi)) }
            if let snr = r.snr, snr != 0 { g.append(#""snr":"# + JSONString.number(snr)) }
            if let channel = r.channelIndex, channel != 0 { g.append(#""channel":\#(channel)"#) }
            if let antenna = r.antennaIndex, antenna != 0 { g.append(#""antenna":\#(antenna)"#) }
            if let l = r.location {
                g.append(#""location":{"latitude":"# + JSONString.number(l.latitude) + #","longitude":"# + JSONString.number(l.longitude)
                    + (l.altitude.map { #","altitude":"# + JSONString.number($0) } ?? "") + "}")
            }
            return "{" + g.joined(separator: ",") + "}"
        }
        fields.append(#""rxInfo":["# + rx.joined(separator: ",") + "]")
        var tx: [String] = []
        if let frequency = u.frequency { tx.append(#""frequency":\#(frequency)"#) }
        var lora: [String] = []
        if let bandwidth = u.bandwidth { lora.append(#""bandwidth":\#(bandwidth)"#) }
        if let sf = u.spreadingFactor { lora.append(#""spreadingFactor":\#(sf)"#) }
        if let rate = u.codingRate { lora.append(#""codeRate":"# + JSONString.quoted("CR_" + rate.replacingOccurrences(of: "/", with: "_"))) }
        if !lora.isEmpty { tx.append(#""modulation":{"lora":{"# + lora.joined(separator: ",") + "}}") }
        fields.append(#""txInfo":{"# + tx.joined(separator: ",") + "}")
        return Array(("{" + fields.joined(separator: ",") + "}").utf8)
    }
}
