import FoundationEssentials
import Glibc
import MTTCore

/// An `Uplink` as The Things Stack v3 publishes it, leaving out zero values as TTS does: what the
/// simulated network sends to a real broker. `UplinkDecoder` reads it back unchanged.
public enum UplinkEncoder {
    public static func json(_ u: Uplink) -> [UInt8] {
        typealias M = TTSUplinkMessage
        let rx = u.receptions.map { r in
            M.RxMetadata(
                gateway_ids: .init(gateway_id: r.gatewayID, eui: r.gatewayEUI),
                packet_broker: r.viaPacketBroker ? .init(forwarder_gateway_id: nil, forwarder_gateway_eui: nil) : nil,
                time: r.time.map(M.Time.time), timestamp: r.concentratorTimestamp,
                rssi: r.rssi, channel_rssi: r.channelRSSI, signal_rssi: r.signalRSSI, snr: r.snr == 0 ? nil : r.snr,
                channel_index: r.channelIndex == 0 ? nil : r.channelIndex, antenna_index: r.antennaIndex == 0 ? nil : r.antennaIndex,
                location: r.location.map { .init(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) })
        }
        let netID = u.networkID.flatMap { $0.split(separator: "@").last.map(String.init) }
        let message = M(
            end_device_ids: .init(
                device_id: u.deviceID, application_ids: .init(application_id: u.applicationID),
                dev_eui: u.devEUI, dev_addr: u.devAddr),
            received_at: .time(u.receivedAt),
            uplink_message: .init(
                f_port: u.fPort == 0 ? nil : u.fPort, f_cnt: u.fCnt == 0 ? nil : u.fCnt,
                frm_payload: u.payload.isEmpty ? nil : Data(u.payload).base64EncodedString(), rx_metadata: rx,
                settings: .init(
                    data_rate: .init(lora: .init(bandwidth: u.bandwidth, spreading_factor: u.spreadingFactor, coding_rate: u.codingRate)),
                    coding_rate: nil, frequency: u.frequency.map(String.init)),
                received_at: .time(u.receivedAt),
                consumed_airtime: u.airtime.map { "\($0)s" },
                network_ids: netID.map { .init(net_id: $0, tenant_id: "ttn") }, decoded_payload: u.decodedPayload),
            simulated: nil)
        let encoder = JSONEncoder.stable()
        return [UInt8]((try? encoder.encode(message)) ?? Data())
    }
}
