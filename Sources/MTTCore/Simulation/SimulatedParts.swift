/// What in a run stood in for the real world, in words ("fake node", "fake GPS"): a session with
/// any of them is marked simulated when it starts, and a plain `mtt sync` never sends its records.
/// An emulator with a real network is simulated too: the network heard a radio that was not where
/// the track says.
public enum SimulatedParts {
    public static func of(nodes: [NodeSpec], gps: GPSSpec, fakeNetwork: Bool, speed: Double) -> [String] {
        of(nodes: nodes, gps: gps.kind.simulatedAs, fakeNetwork: fakeNetwork, speed: speed)
    }

    /// The parts of a session recorded before mtt marked them, read from the specs it kept. Such
    /// sessions knew four GPS kinds, of which two stood in for a receiver.
    static func of(nodesText: String?, gpsText: String?, networkText: String?) -> [String] {
        let nodes = (nodesText ?? "").split(separator: " ").compactMap { try? NodeSpec(parsing: String($0)) }
        let gps: String? = gpsText.flatMap { text in
            if text == "fake" || text.hasPrefix("fake:") { return "fake GPS" }
            return text.hasPrefix("nmea:") ? "GPS replayed from a file" : nil
        }
        return of(nodes: nodes, gps: gps, fakeNetwork: networkText == "fake", speed: 1)
    }

    private static func of(nodes: [NodeSpec], gps: String?, fakeNetwork: Bool, speed: Double) -> [String] {
        var parts: [String] = []
        for node in nodes {
            let part: String? = switch node {
            case .fake: "fake node"
            case .fakeModem: "emulated modem"
            case .unix: "emulated node (unix:)"
            case .ble, .serial: nil
            }
            if let part, !parts.contains(part) { parts.append(part) }
        }
        if let gps { parts.append(gps) }
        if fakeNetwork { parts.append("simulated network") }
        if speed != 1 { parts.append("time at \(speed.plainText)×") }
        return parts
    }
}
