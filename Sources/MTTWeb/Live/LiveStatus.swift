import MTTCore

/// The status block of the map, as JSON: what the database holds (the object `mtt status --json`
/// prints) and, while a collection runs in this process, what the run sees now.
public struct LiveStatus: Sendable, Encodable {
    /// What the running collection sees; nil for `mtt serve` on a database alone.
    public struct Run: Sendable, Encodable {
        var session: Int64
        var gps: String
        var fix: Fix?
        var attempts: Int
        var confirmed: Int
        var failed: Int
        var heard: Int
        var uplinks: Int
        var lossPercent: Double?
        var lastAttempt: LastAttempt?
        var lastSuccess: LastSuccess?
        var network: String
        var lostNodes: [String: String]
        var reconnects: [String: Int]

        struct Fix: Sendable, Encodable {
            var time: String
            var lat: Double
            var lon: Double
            var satellites: Int?
            var hdop: Double?
        }

        struct LastAttempt: Sendable, Encodable {
            var time: String
            var node: String
        }

        struct LastSuccess: Sendable, Encodable {
            var time: String
            var rssi: Double?
            var snr: Double?
            var gateways: Int
        }

        enum CodingKeys: String, CodingKey {
            case session, gps, fix, attempts, confirmed, failed, heard, uplinks, network, reconnects
            case lossPercent = "loss_percent", lastAttempt = "last_attempt", lastSuccess = "last_success", lostNodes = "lost_nodes"
        }

        public init(session: Int64, stats s: CollectionStats) {
            self.session = session
            gps = s.gps
            fix = s.lastFix.map { Fix(time: RFC3339.string($0.time), lat: $0.latitude, lon: $0.longitude, satellites: $0.satellites, hdop: $0.hdop) }
            attempts = s.attempts
            confirmed = s.confirmed
            failed = s.failed
            heard = s.heard
            uplinks = s.uplinks
            lossPercent = s.lossPercent
            lastAttempt = s.lastAttempt.map { LastAttempt(time: RFC3339.string($0.time), node: $0.node) }
            lastSuccess = s.lastSuccess.map { success in
                let best = success.uplink.receptions.max { ($0.rssi ?? -.infinity) < ($1.rssi ?? -.infinity) }
                return LastSuccess(time: RFC3339.string(success.time), rssi: best?.rssi, snr: best?.snr, gateways: success.uplink.receptions.count)
            }
            network = s.network
            lostNodes = s.lostNodes
            reconnects = s.reconnects
        }
    }

    public var store: StoreStatus
    public var run: Run?
    public var time: String

    public init(store: StoreStatus, run: Run?, at time: Timestamp = .now()) {
        self.store = store
        self.run = run
        self.time = RFC3339.string(time)
    }
}
