import MTTCore

/// The Things Stack's MQTT topics for a user's devices.
public enum TTNTopics {
    /// `v3/USER/devices/ID/up` for each device; `+` stands for every device of the application.
    /// USER is the MQTT username (`app-id@ttn` on The Things Network).
    public static func uplinks(username: String, devices: [String]) throws(SpecError) -> [String] {
        guard !username.isEmpty, !username.contains(where: { "+#/".contains($0) }) else {
            throw SpecError("bad MQTT username \(username): use APP_ID@TENANT, e.g. my-mapper@ttn")
        }
        guard !devices.isEmpty else { throw SpecError("no device to hear: name a device ID, or + for all") }
        return try devices.map { device throws(SpecError) in
            guard device == "+" || isDeviceID(device) else {
                throw SpecError("bad device ID \(device): TTS device IDs are 2–36 lower-case letters, digits and dashes, or + for all")
            }
            return uplink(username: username, device: device)
        }
    }

    /// The one topic a device's uplinks are published on (the simulated network publishes there).
    public static func uplink(username: String, device: String) -> String {
        "v3/\(username)/devices/\(device)/up"
    }

    private static func isDeviceID(_ id: String) -> Bool {
        (2...36).contains(id.count) && id.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            && id.first != "-" && id.last != "-"
    }
}
