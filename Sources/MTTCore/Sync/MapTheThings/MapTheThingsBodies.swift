/// The JSON bodies mtt posts to a MapTheThings server. `transmissions` is the server's own API;
/// `samples` and `tracks` are mtt's, documented in the README, for servers that add them.
enum MapTheThingsBodies {
    /// `POST /api/v0/transmissions`: an attempt the node confirmed.
    struct Transmission: Encodable {
        var lat: Double
        var lon: Double
        var alt: Double?
        /// `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`, UTC.
        var timestamp: String
        var dev_eui: String
        /// The LoRaWAN FCntUp.
        var msg_seq: Int64?
    }

    /// `POST /api/v0/samples`: a listener-mode uplink at the position it was heard at.
    struct Sample: Encodable {
        var lat: Double
        var lon: Double
        var alt: Double?
        var timestamp: String
        var dev_eui: String?
        var device_id: String
        var msg_seq: Int64?
        /// How the position was found: interpolated, latest_fix.
        var method: String
        var spreading_factor: Int?
        var frequency: UInt64?
        var gateways: [Gateway]
    }

    struct Gateway: Encodable {
        var gtw_id: String
        var gtw_eui: String?
        var rssi: Double?
        var snr: Double?
    }

    /// `POST /api/v0/tracks`: a piece of a matching-mode track (up to 500 points).
    struct Track: Encodable {
        /// Stable across uploads: the database's id and the session's.
        var track_id: String
        var devices: String?
        var points: [Point]
    }

    struct Point: Encodable {
        var lat: Double
        var lon: Double
        var alt: Double?
        var timestamp: String
        var eph: Double?
        var hdop: Double?
        var satellites: Int?
    }
}
