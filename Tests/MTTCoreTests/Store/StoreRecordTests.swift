import Foundation
import MTTCore
import TestSupport
import Testing

@Suite("Store: records and status")
struct StoreRecordTests {
    let dir = TemporaryDirectory()

    func fix(_ second: Int64, lat: Double = 40.7, lon: Double = -74.0) -> Fix {
        Fix(
            time: Timestamp(nanosecondsSinceEpoch: 1_750_000_000_000_000_000 + second * 1_000_000_000),
            latitude: lat, longitude: lon, altitudeHAE: 12.5, altitudeMSL: 45.1, eph: 4.2, epv: 7.5,
            hdop: 0.9, satellites: 9, speed: 13.4, track: 271.0, mode: .threeD, source: "fixed:40.7,-74")
    }

    @Test func newDatabaseHasAllCountsZero() throws {
        let store = try Store(path: dir.file("new.sqlite"))
        let status = try store.status()
        #expect(status.attempts == 0 && status.confirmed == 0 && status.failed == 0 && status.heard == 0)
        #expect(status.uplinks == 0 && status.gpsSamples == 0)
        #expect(status.unsynced == ["mapthethings": 0, "ttnmapper": 0])
        #expect(try store.integrityCheck() == "ok")
    }

    /// References are not checked on every insert (see `Store.init`), so the integrity check is
    /// where a record that points nowhere shows.
    @Test func integrityCheckNamesARecordThatRefersToAMissingOne() throws {
        let store = try Store(path: dir.file("dangling.sqlite"))
        let session = try store.sessions.startSession(mode: .listener, SessionDescription(gps: "fixed"))
        let uplink = try store.records.record(Uplink(deviceID: "node-1", receivedAt: fix(1).time), session: session)
        try store.records.record(Sample(sessionID: session, subject: .uplink(uplink), time: fix(1).time, position: nil, method: .none))
        #expect(try store.integrityCheck() == "ok")
        try store.records.record(Sample(sessionID: session, subject: .uplink(999), time: fix(2).time, position: nil, method: .none))
        #expect(try store.integrityCheck() == "1 record(s) refer to a missing one (the first: samples 2, in uplinks)")
    }

    @Test func fixRoundTripsWithEveryField() throws {
        let store = try Store(path: dir.file("fix.sqlite"))
        let session = try store.sessions.startSession(mode: .matching, SessionDescription(gps: "fixed"))
        let original = fix(1)
        var bare = fix(2)
        bare.altitudeHAE = nil; bare.altitudeMSL = nil; bare.eph = nil; bare.epv = nil
        bare.hdop = nil; bare.satellites = nil; bare.speed = nil; bare.track = nil; bare.mode = .twoD
        try store.records.record(bare, session: session)
        try store.records.record(original, session: session)
        #expect(try store.records.fixes(session: session) == [original, bare])
    }

    @Test func attemptLifecycleIsCountedByState() throws {
        let store = try Store(path: dir.file("attempts.sqlite"))
        let session = try store.sessions.startSession(mode: .active, SessionDescription(nodes: "fake:1"))
        let payload = LocationPayload(format: .tracked, latitude: 40.7, longitude: -74).bytes
        let a = try store.records.record(Attempt(sessionID: session, node: "fake:1", sequence: 1, payload: payload, fix: fix(1), sentAt: fix(1).time))
        let b = try store.records.record(Attempt(sessionID: session, node: "fake:1", sequence: 2, payload: payload, fix: fix(20), sentAt: fix(20).time))
        let c = try store.records.record(Attempt(sessionID: session, node: "fake:1", sequence: 3, payload: payload, fix: nil, sentAt: fix(40).time))
        #expect(try store.status().pending == 3)

        try store.records.confirmAttempt(a, frameCounter: 160)
        try store.records.failAttempt(b, reason: "no TX result within 25 s")
        let reread = try #require(try store.records.attempt(a))
        #expect(reread.state == .confirmed && reread.frameCounter == 160 && reread.payload == payload)
        #expect(reread.fix == fix(1))
        #expect(try store.records.attempt(b)?.failureReason == "no TX result within 25 s")

        // A later run resolves what an interrupted one left pending.
        #expect(try store.records.failPendingAttempts(reason: "mtt stopped before the result came") == 1)
        #expect(try store.records.attempt(c)?.state == .failed)

        let status = try store.status()
        #expect(status.attempts == 3 && status.confirmed == 1 && status.failed == 2 && status.pending == 0)
        #expect(status.gpsSamples == 2)
        #expect(status.unsynced["mapthethings"] == 1)
    }

    @Test func uplinkKeepsEveryReceptionAndJoinsItsAttempt() throws {
        let store = try Store(path: dir.file("uplinks.sqlite"))
        let session = try store.sessions.startSession(mode: .active)
        let uplink = Uplink(
            deviceID: "node-1", applicationID: "mapper", devEUI: "0004A30B001C0530", devAddr: "260B1234",
            fPort: 1, fCnt: 160, frequency: 904_100_000, spreadingFactor: 10, bandwidth: 125_000,
            codingRate: "4/5", receivedAt: Timestamp(nanosecondsSinceEpoch: 1_750_000_000_123_456_789),
            airtime: 0.370688, payload: [2, 1, 2, 3, 4, 5, 6], networkID: "NS_TTS_V3://ttn@000013",
            receptions: [
                GatewayReception(gatewayID: "gw-a", gatewayEUI: "B827EBFFFE000001", rssi: -97, channelRSSI: -97,
                                 snr: 7.25, time: Timestamp(nanosecondsSinceEpoch: 1_750_000_000_001_000_001),
                                 concentratorTimestamp: 4_000_000_000, channelIndex: 3, antennaIndex: 0,
                                 location: GeoPoint(latitude: 40.68, longitude: -73.98, altitude: 30)),
                GatewayReception(gatewayID: "packetbroker", rssi: -118, snr: -12.5, viaPacketBroker: true),
            ])
        let uplinkID = try store.records.record(uplink, session: session)
        var expected = uplink
        expected.id = uplinkID
        #expect(try store.records.uplink(uplinkID) == expected)
        #expect(try store.records.uplink(uplinkID)?.earliestReceiveTime == Timestamp(nanosecondsSinceEpoch: 1_750_000_000_001_000_001))

        let attempt = try store.records.record(Attempt(sessionID: session, node: "fake:1", payload: [2], fix: fix(1), sentAt: fix(1).time, state: .confirmed, frameCounter: 160))
        try store.records.link(attempt: attempt, toUplink: uplinkID)
        try store.records.record(Sample(sessionID: session, subject: .uplink(uplinkID), time: uplink.receivedAt,
                                position: GeoPoint(latitude: 40.7, longitude: -74), method: .txTime))
        let status = try store.status()
        #expect(status.heard == 1 && status.uplinks == 1 && status.samples == 1)
        #expect(status.unsynced["ttnmapper"] == 1)
        #expect(status.lossPercent == 0)
    }

    /// Text and blobs of every size come back as stored, in a batch of rows: those that fit in the
    /// row's own buffer, one that does not, an empty text and an empty payload (not NULL).
    @Test func textAndBlobsOfAnySizeRoundTripInABatch() throws {
        let store = try Store(path: dir.file("text.sqlite"))
        let session = try store.sessions.startSession(mode: .listener)
        let long = String(repeating: "gateway-", count: 1000)
        let uplinks = [
            Uplink(deviceID: "node-1", applicationID: "", devEUI: "0004A30B001C0530", receivedAt: fix(1).time,
                   payload: [], receptions: [GatewayReception(gatewayID: long, gatewayEUI: "B827EBFFFE000001")]),
            Uplink(deviceID: "ünïcødé-node", codingRate: "4/5", receivedAt: fix(2).time, payload: Array(repeating: 0xAB, count: 5000),
                   networkID: "NS_TTS_V3://ttn@000013", receptions: [GatewayReception(gatewayID: "gw-b")]),
        ]
        let ids = try store.batch { batch in try uplinks.map { try batch.record($0, session: session) } }
        for (id, uplink) in zip(ids, uplinks) {
            var expected = uplink
            expected.id = id
            #expect(try store.records.uplink(id) == expected)
        }
    }

    @Test func samplesKeepMethodAndReason() throws {
        let store = try Store(path: dir.file("samples.sqlite"))
        let session = try store.sessions.startSession(mode: .listener)
        let uplinkID = try store.records.record(Uplink(deviceID: "d", receivedAt: fix(5).time), session: session)
        let positioned = Sample(sessionID: session, subject: .uplink(uplinkID), time: fix(5).time,
                                position: GeoPoint(latitude: 40.70001, longitude: -74.00002, altitude: 40), method: .interpolated)
        let unpositioned = Sample(sessionID: session, subject: .uplink(uplinkID), time: fix(6).time,
                                  position: nil, method: .none, reason: "outside the track")
        let ids = [try store.records.record(positioned), try store.records.record(unpositioned)]
        var expected = [positioned, unpositioned]
        expected[0].id = ids[0]
        expected[1].id = ids[1]
        #expect(try store.records.samples(session: session) == expected)
        // Listener samples with a position wait for MapTheThings; the unpositioned one does not.
        #expect(try store.status().unsynced["mapthethings"] == 1)
    }

    @Test func metaValueIsStableAcrossReopen() throws {
        let path = dir.file("meta.sqlite")
        let first = try Store(path: path).metaValue("ttnmapper.userid") { "mtt-0001" }
        let second = try Store(path: path).metaValue("ttnmapper.userid") { "mtt-0002" }
        #expect(first == "mtt-0001" && second == "mtt-0001")
    }
}
