import Foundation
import GRDB
import MTTCore
import TestSupport
import Testing

/// The coverage aggregates as records are stored: TTN Mapper's rules, reach, "mapped but not
/// heard", and the tables a rebuild makes from the raw records.
@Suite("Coverage kept as records are stored")
struct CoverageAggregateTests {
    let dir = TemporaryDirectory("mtt-coverage")
    let start = RFC3339.parse("2026-06-21T10:00:00Z")!
    let here = GeoPoint(latitude: 52.0907, longitude: 5.1214)

    func store() throws -> Store { try Store(path: dir.file("mtt.sqlite")) }

    /// A heard uplink at `point`, placed there, in `session`; returns the uplink.
    @discardableResult
    func heard(
        _ store: Store, _ session: Int64, at point: GeoPoint, seconds: Double, sf: Int = 7, network: String = "NS_TTS_V3://ttn@000013",
        _ receptions: [GatewayReception]
    ) throws -> Int64 {
        let time = start.adding(seconds: seconds)
        let uplink = Uplink(deviceID: "node", devEUI: "0004A30B001C0530", fCnt: UInt32(seconds), spreadingFactor: sf, receivedAt: time,
                            networkID: network, receptions: receptions)
        let id = try store.records.record(uplink, session: session)
        try store.records.record(Sample(sessionID: session, subject: .uplink(id), time: time, position: point, method: .interpolated))
        return id
    }

    /// A transmission the node confirmed at `point`; returns the attempt.
    @discardableResult
    func attempt(_ store: Store, _ session: Int64, at point: GeoPoint, seconds: Double) throws -> Int64 {
        let time = start.adding(seconds: seconds)
        let fix = Fix(time: time, latitude: point.latitude, longitude: point.longitude, satellites: 9, mode: .threeD, source: "test")
        let id = try store.records.record(Attempt(sessionID: session, node: "fake:1", payload: [1], fix: fix, sentAt: time, devEUI: "0004A30B001C0530", spreadingFactor: 9))
        try store.records.confirmAttempt(id, frameCounter: UInt32(seconds), at: time)
        return id
    }

    func expectRebuildKeeps(_ store: Store, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let kept = try store.coverage.coverageTables()
        try store.coverage.rebuildCoverage()
        let rebuilt = try store.coverage.coverageTables()
        for (table, rows) in kept {
            #expect(rows == rebuilt[table], "\(table): kept \(rows.count) rows, rebuilt \(rebuilt[table]?.count ?? 0)", sourceLocation: sourceLocation)
        }
    }

    /// The same gateway EUI heard through The Things Stack and through ChirpStack is two antennas:
    /// the coverage keeps gateways apart by network (issue 31).
    @Test func oneGatewayEUIOnTwoNetworksIsTwoAntennas() throws {
        let store = try store()
        let session = try store.sessions.startSession(mode: .listener, at: start)
        let gateway = GatewayReception(gatewayID: "b827ebfffe000001", gatewayEUI: "B827EBFFFE000001", rssi: -90, snr: 5, location: here.offset(metres: 800, bearing: 0))
        try heard(store, session, at: here, seconds: 0, [gateway])
        try heard(store, session, at: here, seconds: 10, network: "NS_CHIRP://chirpstack.example.org", [gateway])
        let gateways = try store.coverage.coverageGateways(CoverageFilter())
        #expect(gateways.map(\.network).sorted() == ["NS_CHIRP://chirpstack.example.org", "NS_TTS_V3://ttn@000013"])
        #expect(gateways.allSatisfy { $0.receptions == 1 && $0.cells == 1 })
        try expectRebuildKeeps(store)
    }

    @Test func receptionsTooFarFromOrAtTheirGatewayAreLeftOutAndCounted() throws {
        let store = try store()
        let session = try store.sessions.startSession(mode: .listener, at: start, SessionDescription(network: "ttn"))
        let near = here.destination(metres: 5_000, bearing: 90)
        try heard(store, session, at: here, seconds: 0, [
            GatewayReception(gatewayID: "gw-near", rssi: -100, snr: 4, location: near),
            GatewayReception(gatewayID: "gw-wrong-place", rssi: -110, snr: 2, location: here.offset(metres: 250_000, bearing: 0)),
            GatewayReception(gatewayID: "gw-here", rssi: -60, snr: 9, location: here),
        ])
        // A sample at 0,0 (a receiver's empty fix) never counts.
        try heard(store, session, at: GeoPoint(latitude: 0, longitude: 0), seconds: 10, [GatewayReception(gatewayID: "gw-near", rssi: -100, snr: 4, location: near)])

        let summary = try store.coverage.coverageSummary(CoverageFilter())
        #expect(summary.leftOut == ["farther than 200 km": 1, "at the gateway": 1, "position": 1], "\(summary.leftOut)")
        #expect(summary.gateways.map(\.gateway) == ["gw-near"])
        #expect(summary.area.mapped == 1 && summary.area.heard == 1)
        let near1 = try #require(summary.gateways.first)
        #expect(near1.receptions == 1 && near1.best == -100 && near1.position == near && !near1.estimated)
        #expect(abs((near1.farthest?.metres ?? 0) - 5_000) < 1 && (269...270).contains(near1.farthest?.bearing ?? 0), "\(String(describing: near1.farthest))")
        try expectRebuildKeeps(store)
    }

    /// A drive round a gateway: strong at 1 km, weak at 3 km, on 36 bearings.
    @Test func reachIsDrawnPerLevelFromTheGateway() throws {
        let store = try store()
        let session = try store.sessions.startSession(mode: .listener, at: start, SessionDescription(network: "ttn"))
        let gateway = here
        var seconds = 0.0
        for bearing in stride(from: 0.0, to: 360, by: 10) {
            for (metres, rssi) in [(1_000.0, -95.0), (3_000.0, -118.0), (2_000.0, -117.0)] {
                // Just inside the beam, so its whole degree is this bearing.
                try heard(store, session, at: gateway.destination(metres: metres, bearing: bearing + 0.3), seconds: seconds,
                          [GatewayReception(gatewayID: "gw-mast", rssi: rssi, snr: 5, location: gateway)])
                seconds += 10
            }
        }
        let reach = try #require(try store.coverage.reach(gateway: "gw-mast").first)
        #expect(reach.position == gateway && reach.beams.count == 72)
        let strong = reach.distances(.above100), weak = reach.distances(.above120)
        for bearing in stride(from: 0, to: 360, by: 10) {
            #expect(abs(strong[bearing] - 1_000) < 1 && abs(weak[bearing] - 3_000) < 1, "bearing \(bearing): \(strong[bearing]), \(weak[bearing])")
        }
        // A level with no reception on a bearing takes the next stronger level's reach there.
        #expect(abs(reach.distances(.above110)[0] - 1_000) < 1)
        #expect(strong[5] == 0 && weak[5] == 0)
        let beam = try #require(reach.beams.first { $0.level == .above120 && $0.bearing == 0 })
        #expect(beam.samples == 2 && abs(beam.secondFarthest - 2_000) < 1)
        let outline = reach.polygon(.above120)
        #expect(outline.count == 361 && outline.first == outline.last)
        #expect(abs(outline[359 - 270].distance(to: gateway) - 3_000) < 1)  // counter-clockwise: bearing 270 is the 90th from the end
        try expectRebuildKeeps(store)
    }

    /// `mtt coverage diff`: a drive, then a later one with a second gateway: its cells are newly
    /// heard, a cell mapped again that nobody heard any more is lost, one heard in both is still heard.
    @Test func aDiffSaysWhatANewGatewayAddedAndWhatWasLost() throws {
        let store = try store()
        let gw1 = GatewayReception(gatewayID: "gw-1", rssi: -100, snr: 5, location: here.destination(metres: 3_000, bearing: 0))
        let gw2 = GatewayReception(gatewayID: "gw-2", rssi: -110, snr: 2, location: here.destination(metres: 3_000, bearing: 180))
        let a = here, b = here.offset(metres: 300, bearing: 90), d = here.offset(metres: 600, bearing: 90), e = here.offset(metres: 900, bearing: 90)
        let before = try store.sessions.startSession(mode: .active, at: start, SessionDescription(nodes: "fake", network: "fake"))
        try heard(store, before, at: a, seconds: 10, [gw1])
        try heard(store, before, at: b, seconds: 20, [gw1])
        try store.sessions.endSession(before, at: start.adding(seconds: 100))
        let after = try store.sessions.startSession(mode: .active, at: start.adding(seconds: 10_000), SessionDescription(nodes: "fake", network: "fake"))
        try heard(store, after, at: a, seconds: 10_010, [gw1])
        try attempt(store, after, at: b, seconds: 10_020)
        try heard(store, after, at: d, seconds: 10_030, [gw2])
        try heard(store, after, at: e, seconds: 10_040, [gw1, gw2])

        let diff = try store.coverage.coverageDiff(since: start.adding(seconds: 5_000))
        #expect(Set(diff.newlyHeard) == [MapTile(containing: d), MapTile(containing: e)])
        #expect(diff.lost == [MapTile(containing: b)])
        #expect(diff.stillHeard == 1)
        #expect(diff.newlyHeardBy == ["gw-1": 1, "gw-2": 2])
        // One gateway's view: gw-2 heard nothing before, so both its cells are new to it.
        let second = try store.coverage.coverageDiff(since: start.adding(seconds: 5_000), gateway: "gw-2")
        #expect(Set(second.newlyHeard) == [MapTile(containing: d), MapTile(containing: e)] && second.stillHeard == 0)
        // A window that ends before the second drive: nothing since.
        let none = try store.coverage.coverageDiff(since: start.adding(seconds: 5_000), until: start.adding(seconds: 6_000))
        #expect(none.newlyHeard.isEmpty && none.lost.isEmpty && none.stillHeard == 0)
    }

    @Test func attemptsNobodyHeardAreMappedButNotHeardOnceTheNetworkSideIsKnown() throws {
        let store = try store()
        let withNetwork = try store.sessions.startSession(mode: .active, at: start, SessionDescription(nodes: "fake", network: "fake"))
        let places = (0..<3).map { here.offset(metres: Double($0) * 200, bearing: 90) }
        for (i, place) in places.enumerated() {
            let id = try attempt(store, withNetwork, at: place, seconds: Double(i * 10))
            if i == 0 {
                let uplink = try heard(store, withNetwork, at: place, seconds: 0, sf: 9, [GatewayReception(gatewayID: "gw-1", rssi: -100, snr: 3)])
                try store.records.link(attempt: id, toUplink: uplink)
            }
        }
        // A run with no network source: its attempts may or may not have been heard.
        let offline = try store.sessions.startSession(mode: .active, at: start.adding(seconds: 600), SessionDescription(nodes: "fake"))
        for i in 0..<2 { try attempt(store, offline, at: here.offset(metres: 1_000 + Double(i) * 200, bearing: 0), seconds: 600 + Double(i * 10)) }

        var area = try store.coverage.coverageSummary(CoverageFilter()).area
        #expect(area.mapped == 5 && area.heard == 1 && area.mappedNotHeard == 2 && area.unknown == 2, "\(area)")
        // The sessions' own figures, and the newest one's change.
        let latest = try #require(try store.coverage.coverageSummary(CoverageFilter()).latest)
        #expect(latest.session == offline && latest.newlyMapped == 2 && latest.newlyHeard == 0)
        #expect(try store.coverage.coverageSummary(CoverageFilter(window: ExportFilter(session: withNetwork))).area.mapped == 3)
        #expect(try store.coverage.coverageSummary(CoverageFilter(spreadingFactor: 9)).area.heard == 1)
        #expect(try store.coverage.coverageSummary(CoverageFilter(spreadingFactor: 12)).area.mapped == 0)
        try expectRebuildKeeps(store)

        // A fetch read the network's side: nobody heard them.
        try store.sessions.markFetched(session: offline, at: start.adding(seconds: 900))
        area = try store.coverage.coverageSummary(CoverageFilter()).area
        #expect(area.mappedNotHeard == 4 && area.unknown == 0, "\(area)")
    }

    @Test func aGatewayWithNoPublicPositionIsPlacedByItsStrongestReceptions() throws {
        let store = try store()
        let session = try store.sessions.startSession(mode: .listener, at: start, SessionDescription(network: "ttn"))
        let mast = here.offset(metres: 2_000, bearing: 45)
        // Strong all round the mast at 300 m, weak 2 km out.
        for i in 0..<12 {
            let (metres, rssi) = i < 6 ? (300.0, -80.0) : (2_000.0, -115.0)
            try heard(store, session, at: mast.destination(metres: metres, bearing: Double(i % 6) * 60), seconds: Double(i * 10),
                      [GatewayReception(gatewayID: "gw-secret", rssi: rssi, snr: 5)])
        }
        let gateway = try #require(try store.coverage.coverageSummary(CoverageFilter()).gateways.first)
        #expect(gateway.estimated)
        let estimate = try #require(gateway.position)
        #expect(estimate.distance(to: mast) < 50, "estimated \(estimate.distance(to: mast)) m from the mast")
        #expect(try store.coverage.reach(gateway: "gw-secret").isEmpty)
    }

    @Test func deletingASessionTakesItsCoverageAndLeavesWhatARebuildMakes() throws {
        let store = try store()
        let gw = GatewayReception(gatewayID: "gw-1", rssi: -100, snr: 3, location: here.offset(metres: 4_000, bearing: 180))
        let first = try store.sessions.startSession(mode: .listener, at: start, SessionDescription(network: "ttn"))
        try heard(store, first, at: here, seconds: 0, [gw])
        try heard(store, first, at: here.offset(metres: 3_000, bearing: 0), seconds: 10, [gw])
        let second = try store.sessions.startSession(mode: .listener, at: start.adding(seconds: 600), SessionDescription(network: "ttn"))
        try heard(store, second, at: here.offset(metres: 500, bearing: 90), seconds: 600, [gw])
        try attempt(store, second, at: here.offset(metres: 900, bearing: 90), seconds: 610)

        #expect(try store.sessions.deleteSession(first) != nil)
        let summary = try store.coverage.coverageSummary(CoverageFilter())
        #expect(summary.area.mapped == 2 && summary.gateways.first?.receptions == 1, "\(summary)")
        // Its farthest reception went with it.
        #expect(abs((summary.gateways.first?.farthest?.metres ?? 0) - here.offset(metres: 500, bearing: 90).distance(to: gw.location!)) < 1)
        try expectRebuildKeeps(store)
    }

    /// A gateway that reports a place 2 km from where it was has its coverage from the receptions
    /// since, its cells from before kept as history; a reception older than the move that comes
    /// late goes to the history, and a GPS's few metres are no move. Deleting the session that
    /// heard it at its new place leaves it where it was, with all its cells again.
    @Test func aGatewayThatMovedKeepsItsOldCellsAsHistory() throws {
        let store = try store()
        let old = here.offset(metres: 3_000, bearing: 0)
        let new = old.offset(metres: 2_000, bearing: 90)
        func gateway(at place: GeoPoint) -> GatewayReception { GatewayReception(gatewayID: "gw-moving", rssi: -100, snr: 4, location: place) }
        let before = try store.sessions.startSession(mode: .listener, at: start, SessionDescription(network: "ttn"))
        for i in 0..<3 { try heard(store, before, at: here.offset(metres: Double(i) * 200, bearing: 90), seconds: Double(i * 10), [gateway(at: old)]) }
        let after = try store.sessions.startSession(mode: .listener, at: start.adding(seconds: 600), SessionDescription(network: "ttn"))
        for i in 0..<2 { try heard(store, after, at: here.offset(metres: Double(i) * 200, bearing: 180), seconds: 600 + Double(i * 10), [gateway(at: new)]) }
        // A few metres of a GPS: the same place.
        try heard(store, after, at: here.offset(metres: 400, bearing: 180), seconds: 620, [gateway(at: new.offset(metres: 30, bearing: 10))])

        let moves = try store.coverage.gatewayMoves()
        #expect(moves.map(\.gateway) == ["gw-moving"] && moves.first?.movedAt == start.adding(seconds: 600), "\(moves)")
        #expect(abs((moves.first?.metres ?? 0) - old.distance(to: new)) < 0.01)
        var summary = try store.coverage.coverageSummary(CoverageFilter())
        #expect(summary.gateways.map(\.cells) == [3] && summary.gateways.map(\.receptions) == [3], "only what it heard since the move")
        #expect(try store.coverage.coverageTables()["coverage_cells_moved"]?.count == 3, "the cells from before, kept")
        try expectRebuildKeeps(store)

        // Heard at its old place before the move, stored after it: history, not coverage.
        try heard(store, before, at: here.offset(metres: 900, bearing: 0), seconds: 300, [gateway(at: old)])
        summary = try store.coverage.coverageSummary(CoverageFilter())
        #expect(summary.gateways.map(\.cells) == [3] && summary.gateways.map(\.receptions) == [3])
        #expect(try store.coverage.coverageTables()["coverage_cells_moved"]?.count == 4)
        try expectRebuildKeeps(store)
        // Its model is fitted to where it stands now: neither heard nor missed before the move.
        let data = try store.coverage.predictionData(CoverageFilter())
        #expect(data.map(\.key.gateway) == ["gw-moving"] && data.first?.observations.count == 3 && data.first?.position == new, "\(data)")

        #expect(try store.sessions.deleteSession(after) != nil)
        #expect(try store.coverage.gatewayMoves().isEmpty)
        summary = try store.coverage.coverageSummary(CoverageFilter())
        #expect(summary.gateways.map(\.cells) == [4] && summary.gateways.map(\.receptions) == [4], "its old cells are its coverage again")
        #expect(try store.coverage.coverageTables()["coverage_cells_moved"]?.isEmpty == true)
        try expectRebuildKeeps(store)
    }

    /// A tracker's frames nobody heard count in their cells apart from measured attempts: a cell
    /// with only those is "not heard, estimated", one with a measured attempt too stays "not heard";
    /// the kept counts are what a rebuild makes, and a deleted session takes them.
    @Test func estimatedAttemptsAreCountedApartAndKeepWhatARebuildMakes() throws {
        let store = try store()
        let session = try store.sessions.startSession(mode: .listener, at: start, SessionDescription(gps: "payload", network: "ttn"))
        let gw = GatewayReception(gatewayID: "gw-1", rssi: -110, snr: -3, location: here.offset(metres: 3_000, bearing: 0))
        let before = try heard(store, session, at: here, seconds: 0, [gw])
        let after = try heard(store, session, at: here.offset(metres: 1_200, bearing: 90), seconds: 30, [gw])
        let lostAt = [here.offset(metres: 400, bearing: 90), here.offset(metres: 800, bearing: 90)]
        try store.batch { batch in
            for (k, place) in lostAt.enumerated() {
                try batch.record(EstimatedAttempt(
                    sessionID: session, deviceID: "node", devEUI: nil, fCnt: UInt32(k + 1), sentAt: start.adding(seconds: Double(k + 1) * 10),
                    position: place, reason: nil, spreadingFactor: 7, heardBefore: before, heardAfter: after))
            }
            try batch.record(EstimatedAttempt(
                sessionID: session, deviceID: "node", devEUI: nil, fCnt: 40, sentAt: start.adding(seconds: 400), position: nil,
                reason: "the heard uplinks around it are 400 s apart (more than 300 s)", spreadingFactor: 7, heardBefore: before, heardAfter: after))
        }
        try attempt(store, session, at: lostAt[1], seconds: 20)

        let cells = try store.coverage.coverageCells(CoverageFilter())
        let first = try #require(cells.first { $0.tile == MapTile(containing: lostAt[0], zoom: MapTile.cellZoom) })
        #expect(first.state == .estimated && first.estimatedAttempts == 1 && first.attempts == 0, "\(first)")
        #expect(CoverageLayer.color(first) == CoverageLayer.estimatedColor)
        let second = try #require(cells.first { $0.tile == MapTile(containing: lostAt[1], zoom: MapTile.cellZoom) })
        #expect(second.state == .notHeard && second.estimatedAttempts == 1 && second.attempts == 1, "\(second)")
        #expect(try store.coverage.coverageSummary(CoverageFilter()).area.mappedNotHeard == 2)
        #expect(try store.status().estimatedAttempts == 3)
        #expect(try store.status().attempts == 1, "an estimate is never a measured attempt")
        try expectRebuildKeeps(store)

        #expect(try store.sessions.deleteSession(session) != nil)
        #expect(try store.status().estimatedAttempts == 0)
        #expect(try store.coverage.coverageCells(CoverageFilter()).isEmpty)
    }

    /// A database of an mtt from before coverage gets its coverage when it is first opened to record:
    /// the same tables the triggers would have kept.
    @Test func anOlderDatabaseGetsItsCoverageWhenOpened() throws {
        let path = dir.file("mtt.sqlite")
        let kept: [String: [[String]]]
        do {
            let store = try store()
            let session = try store.sessions.startSession(mode: .active, at: start, SessionDescription(nodes: "fake", network: "fake"))
            for i in 0..<6 {
                let place = here.offset(metres: Double(i) * 120, bearing: 45)
                let id = try attempt(store, session, at: place, seconds: Double(i * 10))
                if i % 2 == 0 {
                    let uplink = try heard(store, session, at: place, seconds: Double(i * 10), sf: 9,
                                           [GatewayReception(gatewayID: "gw-1", rssi: -100 - Double(i), snr: 3, location: here.destination(metres: 3_000, bearing: 0))])
                    try store.records.link(attempt: id, toUplink: uplink)
                }
            }
            kept = try store.coverage.coverageTables()
        }
        // What an mtt before coverage left: no coverage tables, triggers or migration.
        let older = try DatabaseQueue(path: path)
        try older.write { db in
            for trigger in [
                "coverage_attempt_stored", "coverage_attempt_confirmed", "coverage_attempt_heard", "coverage_estimated_stored",
                "coverage_linkcheck_stored", "coverage_linkcheck_confirmed",
            ] {
                try db.execute(sql: "DROP TRIGGER \(trigger)")
            }
            for table in [
                "coverage_cells", "coverage_attempts", "coverage_left_out", "coverage_reach", "coverage_totals", "estimated_attempts", "field_test_replies",
                "coverage_linkchecks", "gateway_places", "coverage_cells_moved",
            ] {
                try db.execute(sql: "DROP TABLE \(table)")
            }
            try db.execute(sql: "ALTER TABLE attempts DROP COLUMN linkcheck_gateways")
            try db.execute(sql: "ALTER TABLE attempts DROP COLUMN linkcheck_margin")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE CAST(identifier AS INTEGER) >= 8")
        }
        try older.close()
        let reopened = try Store(path: path)
        #expect(try reopened.coverage.coverageTables() == kept)
        #expect(try reopened.coverage.coverageSummary(CoverageFilter()).area.mapped == 6)
    }

    /// A listener burst: hundreds of samples in one transaction, many in the same cells and beams
    /// (equal distances among them), then another burst: what is kept equals the rebuild.
    @Test func burstsOfSamplesInOneTransactionKeepWhatARebuildMakes() throws {
        let store = try store()
        let gateways = [here.destination(metres: 2_000, bearing: 0), here.destination(metres: 3_000, bearing: 120)]
        var random = SplitMix64(seed: 33)
        var place = here
        var seconds = 0.0
        for _ in 0..<2 {
            let session = try store.sessions.startSession(mode: .listener, at: start.adding(seconds: seconds), SessionDescription(network: "ttn"))
            try store.batch { batch in
                for i in 0..<400 {
                    // Every fourth sample where the one before it was: the same cell and beam, equally far.
                    if i % 4 != 0 { place = place.destination(metres: 20, bearing: Double.random(in: 0..<360, using: &random)) }
                    let time = start.adding(seconds: seconds)
                    let receptions = gateways.enumerated().map { n, g in
                        GatewayReception(gatewayID: "gw-\(n)", rssi: -100 - Double(Int.random(in: 0..<30, using: &random)), snr: Double(Int.random(in: -10..<10, using: &random)), location: g)
                    }
                    let uplink = Uplink(deviceID: "node", fCnt: UInt32(i), spreadingFactor: 7 + i % 3, receivedAt: time, networkID: "NS_TTS_V3://ttn@000013", receptions: receptions)
                    let id = try batch.record(uplink, session: session)
                    try batch.record(Sample(sessionID: session, subject: .uplink(id), time: time, position: place, method: .interpolated))
                    seconds += 1
                }
            }
        }
        #expect(try store.coverage.coverageSummary(CoverageFilter()).gateways.map(\.receptions) == [800, 800])
        try expectRebuildKeeps(store)
    }
}
