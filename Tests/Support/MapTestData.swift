import MTTCore

/// A database for the map's tests: a listener session with samples in every TTN Mapper band, each
/// at its own place (a grid some 150 m apart, so no two dots touch on screen), a gateway with a
/// public position, a track under them; and an active session with attempts nobody heard.
public enum MapTestData {
    public static let start = RFC3339.parse("2026-06-21T10:00:00Z")!
    /// RSSI, SNR → band colour: three samples in each band.
    public static let levels: [(rssi: Double, snr: Double, color: String)] = [
        (-95, 8, "#ff0000"), (-101, 5, "#ff7f00"), (-104, -3, "#ffff00"),
        (-112, 2, "#00ff00"), (-118, 0, "#00ffff"), (-119, -6, "#0000ff"),
    ]
    public static let perBand = 3
    public static let unheard = 4

    /// The dots the map should draw, by colour.
    public static var expectedBands: [String: Int] {
        var bands: [String: Int] = [:]
        for level in levels { bands[level.color, default: 0] += perBand }
        bands["#000000"] = unheard
        return bands
    }

    public static var dots: Int { levels.count * perBand + unheard }

    /// The place of `oneHeardSample`'s dot.
    public static let here = GeoPoint(latitude: 52.0907, longitude: 5.1214)

    /// A listener session with one sample at `here`, heard by `receptions`: a dot and what heard it.
    public static func oneHeardSample(_ store: Store, receptions: [GatewayReception]) throws {
        try heardSamples(store, at: [here], receptions: receptions)
    }

    /// A listener session of `device`'s samples at `points`, ten seconds apart, each heard by
    /// `receptions` (one gateway at -90 dBm by default).
    public static func heardSamples(
        _ store: Store, at points: [GeoPoint], device: String = "node", devEUI: String? = nil, startingAt first: Timestamp = start,
        receptions: [GatewayReception] = [GatewayReception(gatewayID: "gw-1", rssi: -90, snr: 5)]
    ) throws {
        let session = try store.sessions.startSession(mode: .listener, at: first, SessionDescription(gps: "fixed", devices: [device]))
        for (i, point) in points.enumerated() {
            let time = first.adding(seconds: Double(i * 10))
            try store.records.record(Fix(time: time, latitude: point.latitude, longitude: point.longitude, satellites: 9, mode: .threeD, source: "test"), session: session)
            let uplink = Uplink(deviceID: device, devEUI: devEUI, fCnt: UInt32(i + 1), spreadingFactor: 7, receivedAt: time, receptions: receptions)
            let id = try store.records.record(uplink, session: session)
            try store.records.record(Sample(sessionID: session, subject: .uplink(id), time: time, position: point, method: .interpolated))
        }
        try store.sessions.endSession(session, at: first.adding(seconds: Double(points.count * 10)))
    }

    public static func fill(_ store: Store) throws {
        let origin = GeoPoint(latitude: 52.0907, longitude: 5.1214)
        let listener = try store.sessions.startSession(mode: .listener, at: start, SessionDescription(gps: "fixed", devices: ["mapper-node-1"]))
        var index = 0
        for level in levels {
            for _ in 0..<perBand {
                let time = start.adding(seconds: Double(index * 10))
                let place = origin.offset(metres: Double(index / 6) * 150, bearing: 0).offset(metres: Double(index % 6) * 150, bearing: 90)
                try store.records.record(Fix(time: time, latitude: place.latitude, longitude: place.longitude, satellites: 9, mode: .threeD, source: "test"), session: listener)
                let uplink = Uplink(
                    deviceID: "mapper-node-1", devEUI: "0004A30B001C0530", fCnt: UInt32(index), spreadingFactor: 7 + index % 3,
                    receivedAt: time, receptions: [GatewayReception(
                        gatewayID: "utrecht-dom", gatewayEUI: "B827EBFFFE000001", rssi: level.rssi, snr: level.snr, time: time,
                        location: origin.offset(metres: 1_200, bearing: 30))])
                let id = try store.records.record(uplink, session: listener)
                try store.records.record(Sample(sessionID: listener, subject: .uplink(id), time: time, position: place, method: .interpolated))
                index += 1
            }
        }
        try store.sessions.endSession(listener, at: start.adding(seconds: Double(index * 10)))
        let active = try store.sessions.startSession(mode: .active, at: start.adding(seconds: 600), SessionDescription(nodes: "fake"))
        for i in 0..<unheard {
            let time = start.adding(seconds: 600 + Double(i * 10))
            let place = origin.offset(metres: 600 + Double(i) * 150, bearing: 180)
            let id = try store.records.record(Attempt(
                sessionID: active, node: "fake:1", payload: [2], fix: Fix(time: time, latitude: place.latitude, longitude: place.longitude, mode: .threeD, source: "test"),
                sentAt: time, devEUI: "0004A30B001C0531", spreadingFactor: 10))
            try store.records.confirmAttempt(id, frameCounter: UInt32(i), at: time)
        }
        try store.sessions.endSession(active, at: start.adding(seconds: 700))
    }

    /// The gateways of `drive`: one 500 m south of where it starts (its label clear of the cells),
    /// one 3 km north.
    public static let driveGateways = (start: "gw-start", north: "gw-north")

    /// An active drive with the network's side known, east from `here`: 60 attempts 75 m apart
    /// at SF10, the first 40 heard by the gateway near the start (-90 dBm falling 0.8 dB a step:
    /// every band from red to blue), every third of the first 30 also by a gateway 3 km north; the
    /// last 20 heard by nobody. Heard cells in every band, cells nobody heard, reach for both.
    public static func drive(_ store: Store) throws {
        let session = try store.sessions.startSession(mode: .active, at: start, SessionDescription(nodes: "fake", network: "mqtt"))
        let start = here, south = here.offset(metres: 500, bearing: 180), north = here.offset(metres: 3_000, bearing: 0)
        for i in 0..<60 {
            let time = MapTestData.start.adding(seconds: Double(i * 15))
            let place = start.offset(metres: Double(i) * 75, bearing: 90)
            let fix = Fix(time: time, latitude: place.latitude, longitude: place.longitude, satellites: 9, mode: .threeD, source: "test")
            let id = try store.records.record(Attempt(
                sessionID: session, node: "fake:1", payload: [2], fix: fix, sentAt: time, devEUI: "0004A30B001C0531", spreadingFactor: 10))
            try store.records.confirmAttempt(id, frameCounter: UInt32(i), at: time)
            guard i < 40 else { continue }
            var receptions = [GatewayReception(gatewayID: driveGateways.start, rssi: -90 - 0.8 * Double(i), snr: 5, location: south)]
            if i < 30 && i % 3 == 0 { receptions.append(GatewayReception(gatewayID: driveGateways.north, rssi: -118, snr: -3, location: north)) }
            try store.batch { batch in
                let uplink = try batch.record(Uplink(
                    deviceID: "fake-1", devEUI: "0004A30B001C0531", fCnt: UInt32(i), spreadingFactor: 10, receivedAt: time,
                    networkID: "NS_TTS_V3://ttn@000013", receptions: receptions), session: session)
                try batch.recordHeard(attempt: id, uplink: uplink, session: session, fix: fix)
            }
        }
        try store.sessions.endSession(session, at: MapTestData.start.adding(seconds: 900))
    }

    /// A listener session of `count` placed samples in one batch per 2,000, walking 15 m a step
    /// in a 4 km square east of `here`, each heard by one or two of three gateways: enough for an
    /// upload that takes a while.
    public static func manySamples(_ store: Store, count: Int) throws {
        let session = try store.sessions.startSession(mode: .listener, at: start, SessionDescription(gps: "fixed", devices: ["walker"]))
        let gateways = [here, here.offset(metres: 3_000, bearing: 90), here.offset(metres: 3_000, bearing: 180)]
        var made = 0
        while made < count {
            try store.batch { batch in
                for i in made..<min(made + 2_000, count) {
                    let row = i / 260, column = row % 2 == 0 ? i % 260 : 259 - i % 260
                    let place = here.offset(metres: Double(column) * 15, bearing: 90).offset(metres: Double(row % 260) * 15, bearing: 180)
                    let time = start.adding(seconds: Double(i))
                    let heardBy = gateways.enumerated().filter { $0.offset == 0 || ($0.offset + i) % 3 == 0 }.map { index, gateway in
                        GatewayReception(gatewayID: "walk-gw-\(index)", rssi: -70 - 0.012 * gateway.distance(to: place), snr: 4 - Double(i % 12), location: gateway)
                    }
                    let uplink = try batch.record(Uplink(
                        deviceID: "walker", devEUI: "0004A30B00000009", fCnt: UInt32(i), spreadingFactor: 7 + i % 3, receivedAt: time,
                        networkID: "NS_TTS_V3://ttn@000013", receptions: heardBy), session: session)
                    try batch.record(Sample(sessionID: session, subject: .uplink(uplink), time: time, position: place, method: .interpolated))
                }
            }
            made = min(made + 2_000, count)
        }
        try store.sessions.endSession(session, at: start.adding(seconds: Double(count)))
    }
}
