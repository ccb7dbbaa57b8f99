import MTTCore

/// The legacy TTN v2 uplink message (shut down 2021; still in old captures and self-hosted stacks).
/// Read by `init(reading:)`; `Decodable` is the reference the differential test holds that reader to.
struct TTNV2UplinkMessage: Codable {
    struct Metadata: Codable {
        var time: String?
        /// MHz
        var frequency: Double?
        /// e.g. "SF7BW125"
        var data_rate: String?
        var coding_rate: String?
        /// Nanoseconds.
        var airtime: Int64?
        var gateways: [Gateway]?
    }

    struct Gateway: Codable {
        var gtw_id: String?
        var gtw_eui: String?
        var timestamp: UInt32?
        var time: String?
        var channel: Int?
        var rssi: Double?
        var snr: Double?
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
    }

    var app_id: String?
    var dev_id: String?
    var hardware_serial: String?
    var port: Int?
    var counter: UInt32?
    var payload_raw: String?
    /// The application's payload function's output.
    var payload_fields: JSONValue?
    var metadata: Metadata?
}
