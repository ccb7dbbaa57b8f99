import MTTCore

/// ChirpStack v4's MQTT topics for an application's devices (SPEC.md section 8).
public enum ChirpStackTopics {
    /// The application of a demo or test broker that has none (the simulated network's).
    public static let demoApplication = "00000000-0000-4000-8000-00000000d3e0"

    /// `application/APP/device/DEV_EUI/event/up` for each device; `+` for every device (or, as
    /// the application, every application the user may read).
    public static func uplinks(application: String, devices: [String]) throws(SpecError) -> [String] {
        guard application == "+" || isApplicationID(application) else {
            throw SpecError("bad ChirpStack application ID \(application): a UUID as its console shows it, or + for all")
        }
        guard !devices.isEmpty else { throw SpecError("no device to hear: name a DevEUI, or + for all") }
        return try devices.map { device throws(SpecError) in
            guard device == "+" || (device.count == 16 && device.allSatisfy(\.isHexDigit)) else {
                throw SpecError("bad DevEUI \(device): ChirpStack names devices by their DevEUI, 16 hex digits, or + for all")
            }
            return uplink(application: application, devEUI: device)
        }
    }

    /// The topic a device's uplinks are published on.
    public static func uplink(application: String, devEUI: String) -> String {
        "application/\(application)/device/\(devEUI.lowercased())/event/up"
    }

    private static func isApplicationID(_ id: String) -> Bool {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
