import MTTCore

/// The Things Stack (v3) uplink message as its MQTT server publishes it (SPEC.md section 3).
/// Every field is optional: TTS leaves out fields whose value is 0, "" or false. Read by
/// `init(reading:)`, written by `UplinkEncoder`; `Decodable` is the reference the differential test
/// holds the reader to.
struct TTSUplinkMessage: Codable {
    /// A time field, read as the message is read: RFC 3339 text that parses becomes a timestamp
    /// without a String in between (four per uplink); other text is kept for the error.
    enum Time: Codable {
        case time(Timestamp)
        case text(String)

        init(_ text: String) {
            self = RFC3339.parse(text).map(Time.time) ?? .text(text)
        }

        init(from decoder: any Decoder) throws {
            self.init(try decoder.singleValueContainer().decode(String.self))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .time(let time): try container.encode(RFC3339.string(time, fractionDigits: 9))
            case .text(let text): try container.encode(text)
            }
        }
    }

    struct EndDeviceIDs: Codable {
        struct ApplicationIDs: Codable {
            var application_id: String?
        }
        var device_id: String?
        var application_ids: ApplicationIDs?
        var dev_eui: String?
        var dev_addr: String?
    }

    struct UplinkMessage: Codable {
        var f_port: Int?
        var f_cnt: UInt32?
        var frm_payload: String?
        var rx_metadata: [RxMetadata]?
        var settings: Settings?
        var received_at: Time?
        var consumed_airtime: String?
        var network_ids: NetworkIDs?
        /// The application's payload formatter's output, whatever its shape.
        var decoded_payload: JSONValue?
    }

    struct RxMetadata: Codable {
        struct GatewayIDs: Codable {
            var gateway_id: String?
            var eui: String?
        }
        struct Location: Codable {
            var latitude: Double?
            var longitude: Double?
            var altitude: Double?
        }
        struct PacketBroker: Codable {
            var forwarder_gateway_id: String?
            var forwarder_gateway_eui: String?
        }
        var gateway_ids: GatewayIDs?
        var packet_broker: PacketBroker?
        var time: Time?
        var timestamp: UInt32?
        var rssi: Double?
        var channel_rssi: Double?
        var signal_rssi: Double?
        var snr: Double?
        var channel_index: Int?
        var antenna_index: Int?
        var location: Location?
    }

    struct Settings: Codable {
        struct DataRate: Codable {
            struct LoRa: Codable {
                var bandwidth: Int?
                var spreading_factor: Int?
                var coding_rate: String?
            }
            var lora: LoRa?
        }
        var data_rate: DataRate?
        /// Before TTS 3.22 the coding rate sat here instead of in `data_rate.lora`.
        var coding_rate: String?
        /// Hz, as a string.
        var frequency: String?
    }

    struct NetworkIDs: Codable {
        var net_id: String?
        var tenant_id: String?
    }

    var end_device_ids: EndDeviceIDs?
    var received_at: Time?
    var uplink_message: UplinkMessage?
    var simulated: Bool?
}
