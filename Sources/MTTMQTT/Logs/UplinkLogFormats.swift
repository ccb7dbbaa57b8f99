import MTTCore

extension UplinkLogFormat {
    /// The network logs MTTMQTT reads, in the order a file's first entry is tried against them.
    public static func networks(chirpStackNetworkID: String) -> [UplinkLogFormat] {
        [.theThingsStack, .chirpStack(networkID: chirpStackNetworkID), .heliumConsole]
    }

    /// The Things Stack's uplink messages (and legacy TTN v2's), as a webhook logger or
    /// `mosquitto_sub` saves them; a join or other event is no uplink, nor is a console simulation.
    public static let theThingsStack = UplinkLogFormat(
        name: "The Things Stack uplinks", marks: ["end_device_ids", "uplink_message", "hardware_serial", "payload_raw"]
    ) { bytes throws(UplinkLogError) in
        do throws(UplinkDecodeError) {
            guard case .uplink(let uplink) = try UplinkDecoder.decode(bytes) else { return nil }
            return uplink
        } catch {
            throw UplinkLogError(error.description)
        }
    }

    /// ChirpStack v4's `up` events, one per line as an integration logs them: an event without
    /// radio metadata (a join) is no uplink. Their network id is the server's (`--network-id`).
    public static func chirpStack(networkID: String) -> UplinkLogFormat {
        UplinkLogFormat(name: "ChirpStack v4 up events", marks: ["deviceInfo"]) { bytes throws(UplinkLogError) in
            do throws(UplinkDecodeError) {
                let decoded = try ChirpStackDecoder.decode(topic: "application/log/device/log/event/up", bytes, networkID: networkID)
                guard case .uplink(let uplink) = decoded, uplink.frequency != nil || !uplink.receptions.isEmpty else { return nil }
                return uplink
            } catch {
                throw UplinkLogError(error.description)
            }
        }
    }

    /// The Helium console's integration JSON: one entry per purchasing hotspot, merged.
    public static let heliumConsole = UplinkLogFormat(
        name: "Helium console uplinks", marks: ["hotspots"], repeatsUplinks: true
    ) { bytes throws(UplinkLogError) in
        do throws(UplinkDecodeError) {
            return try HeliumConsoleDecoder.decode(bytes)
        } catch {
            throw UplinkLogError(error.description)
        }
    }
}
