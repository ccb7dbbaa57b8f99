/// The kinds of event a collection (or an upload) reports, as `--json`, hooks and `mtt events`
/// name them (docs/events.md).
public enum FieldEventType: String, Sendable, Hashable, Codable, CaseIterable {
    // What each attempt and uplink did.
    case attempt, confirmed, failed, heard, lost, sample
    // The parts of the rig.
    case nodeLost = "node_lost", nodeBack = "node_back"
    case gpsConnected = "gps_connected", gpsLost = "gps_lost", gpsBack = "gps_back"
    case networkConnected = "network_connected", networkLost = "network_lost"
    case batteryLow = "battery_low", stale
    case storeBusy = "store_busy", storeBack = "store_back"
    // Answering the devices that ask: a field tester's reply, or why none went.
    case fieldTestAnswered = "field_test_answered", fieldTestHeldBack = "field_test_held_back"
    // What the mapper wants to know while driving.
    case coverageLost = "coverage_lost", coverageBack = "coverage_back", newGateway = "new_gateway"
    // After an upload.
    case syncDone = "sync_done"
    // Once a second each: printed with --json and offered to hooks, never stored (the track holds them).
    case fix, trackPoint = "track_point"

    /// Whether the run stores it for `mtt events`: not the per-second position reports, not the
    /// samples (the map's data: `mtt export`), and not `heard`, which `mtt events` reads back from
    /// the uplinks themselves (a listener burst would otherwise write each uplink twice).
    public var isStored: Bool {
        switch self {
        case .fix, .trackPoint, .sample, .heard: false
        default: true
        }
    }

    /// A type by its name, or nil.
    public init?(named name: String) { self.init(rawValue: name) }
}
