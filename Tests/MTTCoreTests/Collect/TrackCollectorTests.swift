import Foundation
import MTTCore
import TestSupport
import Testing

/// Matching and listener modes with a known track and known uplink times.
@Suite("Matching and listener collectors")
struct TrackCollectorTests {
    static let t0 = TrackInterpolatorTests.t0
    let dir = TemporaryDirectory()

    /// 0…60 s along a straight line north at 10 m/s, a fix each second.
    static let track: [Fix] = (0...60).map { s in
        let p = GeoPoint(latitude: 52.09, longitude: 5.12).offset(metres: Double(s) * 10, bearing: 0)
        return Fix(time: t0.adding(seconds: Double(s)), latitude: p.latitude, longitude: p.longitude, speed: 10, mode: .threeD, source: "t")
    }

    static func uplink(_ fCnt: UInt32, heardAt second: Double) -> Uplink {
        Uplink(deviceID: "tracker-7", devEUI: "70B3D57ED0000007", fCnt: fCnt, receivedAt: t0.adding(seconds: second + 0.3),
               receptions: [GatewayReception(gatewayID: "gw", rssi: -110, snr: -3, time: t0.adding(seconds: second))])
    }

    func collect(listener: Bool, uplinks: [Uplink], track: [Fix] = Self.track, payload: PayloadPlacement? = nil) async throws -> (Store, Int64) {
        let expected = uplinks.count
        let store = try Store(path: dir.file(listener ? "listener.sqlite" : "matching.sqlite"))
        let session = try store.sessions.startSession(mode: listener ? .listener : .matching)
        // The run "happens" just after the scripted track: uplinks it can never cover expire at once.
        let clock = ScaledClock(scale: 1, start: Self.t0.adding(seconds: 125))
        let fixes = ScriptedFixSource(fixes: track)
        // The uplinks come once the whole track is stored, so the test does not race the GPS: come
        // early, they would find the run's clock far past them and expire unplaced. A loaded machine
        // (two suites at once) took more than 30 s to store 61 fixes.
        let lastFix = track.last?.time
        let network = ScriptedUplinkSource(uplinks: uplinks) {
            await eventually(timeout: runProgressTimeout) { (try? store.records.fixes(session: session).last?.time) == lastFix }
        }
        let task: Task<Void, any Error>
        let flush: @Sendable () async throws -> Void
        if listener {
            let c = ListenerCollector(store: store, session: session, fixes: fixes, uplinks: network, interval: 5, payload: payload, clock: clock, emit: { _ in })
            task = Task { try await c.run() }
            flush = { try await c.flush() }
        } else {
            let c = MatchingCollector(store: store, session: session, fixes: fixes, uplinks: network, interval: 5, clock: clock, emit: { _ in })
            task = Task { try await c.run() }
            flush = { try await c.flush() }
        }
        // Let the scripted track and uplinks play out, then stop as Ctrl-C would.
        try await eventually(timeout: runProgressTimeout) { try store.records.samples(session: session).count >= expected }
        task.cancel()
        _ = await task.result
        try await flush()
        return (store, session)
    }

    @Test func matchingPlacesUplinksOnTheTrackWithinAMetre() async throws {
        let uplinks = [Self.uplink(1, heardAt: 12.5), Self.uplink(2, heardAt: 33), Self.uplink(3, heardAt: 59.9)]
        let (store, session) = try await collect(listener: false, uplinks: uplinks)
        let samples = try store.records.samples(session: session)
        try #require(samples.count == 3)
        for (sample, uplink) in zip(samples, uplinks) {
            let seconds = uplink.earliestReceiveTime.seconds(since: Self.t0)
            let expected = GeoPoint(latitude: 52.09, longitude: 5.12).offset(metres: seconds * 10, bearing: 0)
            #expect(sample.method == .interpolated)
            #expect(try #require(sample.position).distance(to: expected) < 1, "uplink at \(seconds) s")
        }
        // Matching stores one track point every 5 s unless moving fast; 10 m/s is fast.
        #expect(try store.records.fixes(session: session).count == 61)
        #expect(try store.status().uplinks == 3)
    }

    @Test func uplinksOutsideTheTrackAreKeptWithoutAPositionAndSayWhy() async throws {
        let slowTrack = Self.track.map { var f = $0; f.speed = 1; return f }
        let uplinks = [Self.uplink(1, heardAt: -20), Self.uplink(2, heardAt: 75)]
        let (store, session) = try await collect(listener: false, uplinks: uplinks, track: slowTrack)
        let samples = try store.records.samples(session: session)
        try #require(samples.count == 2)
        #expect(samples.allSatisfy { $0.position == nil && $0.method == .none })
        #expect(samples[0].reason == "before the track starts (20 s early)")
        #expect(samples[1].reason?.hasPrefix("after the track ends") == true)
        // Slow: a point every 5 s of fix time.
        #expect(try store.records.fixes(session: session).count == 13)
    }

    /// A listener at a fixed place (`--gps fixed:`) hears uplinks stamped ahead of its own clock (a
    /// network server's clock, or a load generator's): each is placed at once, at that place, not
    /// held until the track passes its time.
    @Test func aStationaryGPSPlacesEachUplinkAtOnce() async throws {
        let store = try Store(path: dir.file("fixed.sqlite"))
        let session = try store.sessions.startSession(mode: .listener)
        let place = GeoPoint(latitude: 52.09, longitude: 5.12)
        let clock = ScaledClock(scale: 1, start: Self.t0)
        let fix = Fix(time: Self.t0, latitude: place.latitude, longitude: place.longitude, mode: .twoD, source: "fixed")
        let fixes = ScriptedFixSource(fixes: [fix], stationary: true)
        // Heard a minute ahead of the run's clock, and sent only once the one fix is stored.
        let uplinks = [Self.uplink(1, heardAt: 60), Self.uplink(2, heardAt: 61)]
        let network = ScriptedUplinkSource(uplinks: uplinks) {
            await eventually(timeout: runProgressTimeout) { (try? store.records.fixes(session: session).count) == 1 }
        }
        let collector = ListenerCollector(store: store, session: session, fixes: fixes, uplinks: network, interval: 5, clock: clock, emit: { _ in })
        let task = Task { try await collector.run() }
        // Placed while the run goes on: nothing is left for the flush at the stop.
        try await eventually(timeout: runProgressTimeout) { try store.records.samples(session: session).count == 2 }
        task.cancel()
        _ = await task.result
        let samples = try store.records.samples(session: session)
        #expect(samples.map(\.method) == [.latestFix, .latestFix])
        #expect(samples.allSatisfy { $0.position?.distance(to: place) ?? 99 < 0.01 })
        #expect(samples.map(\.time) == uplinks.map(\.earliestReceiveTime))
    }

    @Test func listenerInterpolatesAndFallsBackToAFreshLatestFix() async throws {
        let uplinks = [Self.uplink(1, heardAt: 20.5), Self.uplink(2, heardAt: 70), Self.uplink(3, heardAt: 90)]
        let (store, session) = try await collect(listener: true, uplinks: uplinks)
        let samples = try store.records.samples(session: session)
        try #require(samples.count == 3)
        #expect(samples[0].method == .interpolated)
        let expected = GeoPoint(latitude: 52.09, longitude: 5.12).offset(metres: 205, bearing: 0)
        #expect(try #require(samples[0].position).distance(to: expected) < 1)
        // 10 s after the last fix: fresh enough (15 s) for the latest fix, and stored as such.
        #expect(samples[1].method == .latestFix)
        #expect(samples[1].position == Self.track.last?.point)
        // 30 s after: too old; no position.
        #expect(samples[2].method == .none && samples[2].position == nil)
    }

    static func tracker(_ fCnt: UInt32, heardAt second: Double, decoded: JSONValue?, payload: [UInt8] = [], device: String = "tbeam-1") -> Uplink {
        var uplink = uplink(fCnt, heardAt: second)
        uplink.deviceID = device
        uplink.decodedPayload = decoded
        uplink.payload = payload
        uplink.fPort = 1
        return uplink
    }

    /// `--gps payload` alone: each uplink where its payload says, or kept without a position and
    /// with the reason; nothing waits for a track there is none of.
    @Test func payloadPositionsPlaceEachUplinkWhereItsDeviceSaid() async throws {
        let fieldTester = Hex.bytes("1ECDAF810663047E0C08")!
        let uplinks = [
            Self.tracker(1, heardAt: 10, decoded: .object(["latitude": .number(46.52), "longitude": .number(6.63), "altitude": .number(372), "sats": .number(9)])),
            Self.tracker(2, heardAt: 20, decoded: .object(["latitude": .number(46.52), "longitude": .number(6.63), "sats": .number(3)])),
            Self.tracker(3, heardAt: 30, decoded: nil, payload: fieldTester, device: "wio-1"),
            Self.tracker(4, heardAt: 40, decoded: nil, payload: fieldTester, device: "unknown-9"),
        ]
        var positioning = PayloadPositioning()
        positioning.codecs = try CodecChoices(parsing: ["WIO-1=fieldtester"])
        let (store, session) = try await collect(listener: true, uplinks: uplinks, track: [], payload: PayloadPlacement(positioning: positioning, besideTrack: false))
        let samples = try store.records.samples(session: session)
        try #require(samples.count == 4)
        #expect(samples[0].method == .payload && samples[0].position == GeoPoint(latitude: 46.52, longitude: 6.63, altitude: 372))
        #expect(samples[0].time == uplinks[0].earliestReceiveTime)
        #expect(samples[1].position == nil && samples[1].reason == "payload position refused, few_satellites: 3 satellites, fewer than 4 (at 46.52, 6.63)")
        #expect(samples[2].method == .payload)
        #expect(try #require(samples[2].position).distance(to: GeoPoint(latitude: 43.6046921, longitude: 1.4441872)) < 0.1)
        #expect(samples[3].position == nil && samples[3].reason == "no payload position, no_decoder: the network decoded nothing and no --codec names unknown-9")
    }

    /// `--gps payload+GPS`: a device that sends no position is placed on the track; one that does
    /// never is, even when this frame had no fix.
    @Test func besideATrackOnlyDevicesWithoutPositionsAreOnIt() async throws {
        let uplinks = [
            Self.tracker(1, heardAt: 20.5, decoded: nil, device: "mapper-node"),
            Self.tracker(2, heardAt: 30, decoded: .object(["latitude": .number(51.5), "longitude": .number(-0.12), "fixFailed": .bool(true)])),
            Self.tracker(3, heardAt: 40, decoded: .object(["temperature": .number(21)]), device: "sensor-2"),
        ]
        let (store, session) = try await collect(listener: true, uplinks: uplinks, payload: PayloadPlacement(besideTrack: true))
        let samples = try store.records.samples(session: session).sorted { $0.time < $1.time }
        try #require(samples.count == 3)
        #expect(samples[0].method == .interpolated)
        #expect(samples[1].position == nil && samples[1].reason?.hasPrefix("no payload position, no_fix: fixFailed") == true)
        #expect(samples[2].method == .interpolated)
    }
}
