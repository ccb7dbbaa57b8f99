/// What in a run stood in for the real world, in words ("fake node", "fake GPS"): a session with
/// any of them is marked simulated when it starts, and a plain `mtt sync` never sends its records.
/// An emulator with a real network is simulated too: the network heard a radio that was not where
/// the track says.
public enum SimulatedParts {
    public static func of(nodes: [NodeSpec], gps: GPSSpec, fakeNetwork: Bool, speed: Double) -> [String] {
        of(nodes: nodes.compactMap(\.kind.simulatedAs), gps: gps.kind.simulatedAs, fakeNetwork: fakeNetwork, speed: speed)
    }

    /// The parts of a session recorded before mtt marked them, read from the specs it kept. Such
    /// sessions knew the first kinds of node and GPS, whose specs say here which were emulated.
    static func of(nodesText: String?, gpsText: String?, networkText: String?) -> [String] {
        let nodes = (nodesText ?? "").split(separator: " ").compactMap { text -> String? in
            if text.hasPrefix("fake-") { return "emulated modem" }
            if text == "fake" || text.hasPrefix("fake:") || text.hasPrefix("fake?") { return "fake node" }
            return text.hasPrefix("unix:") ? "emulated node (unix:)" : nil
        }
        let gps: String? = gpsText.flatMap { text in
            if text == "fake" || text.hasPrefix("fake:") { return "fake GPS" }
            return text.hasPrefix("nmea:") ? "GPS replayed from a file" : nil
        }
        return of(nodes: nodes, gps: gps, fakeNetwork: networkText == "fake", speed: 1)
    }

    private static func of(nodes: [String], gps: String?, fakeNetwork: Bool, speed: Double) -> [String] {
        var parts: [String] = []
        for part in nodes where !parts.contains(part) { parts.append(part) }
        if let gps { parts.append(gps) }
        if fakeNetwork { parts.append("simulated network") }
        if speed != 1 { parts.append("time at \(speed.plainText)×") }
        return parts
    }
}
