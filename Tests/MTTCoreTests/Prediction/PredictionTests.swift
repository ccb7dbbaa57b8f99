import Foundation
import MTTCore
import TestSupport
import Testing

/// The prediction's fits against a world written here, independently: gateways with a known
/// log-distance path loss and shadowing, drives through it, and what a receiver with a floor hears.
@Suite("Coverage prediction")
struct PredictionTests {
    /// A gateway's world: signal = intercept − slope·log10(d/1 km) + shadowing, heard at or above `floor`.
    struct World {
        var gateway = GeoPoint(latitude: 52.0, longitude: 5.0)
        var intercept = -112.0
        var slope = 35.0
        var sigma = 6.0
        var floor = LoRaReceiver.signalFloor(spreadingFactor: 7)  // the observations are sent at SF7
        /// A smooth part of the shadowing, the same for every drive past a place (dB), if any.
        var field: (GeoPoint) -> Double = { _ in 0 }

        func signal(at p: GeoPoint, _ random: inout SplitMix64) -> Double {
            let d = max(gateway.distance(to: p) / 1000, 0.05)
            return intercept - slope * log10(d) + field(p) + sigma * Self.normal(&random)
        }

        /// Places from 200 m to 12 km, spread evenly in log-distance and bearing.
        func drive(_ count: Int, seed: UInt64) -> [AntennaObservation] {
            var random = SplitMix64(seed: seed)
            return (0..<count).map { _ in
                let km = pow(10, Double.random(in: log10(0.2)...log10(12), using: &random))
                let p = gateway.offset(metres: km * 1000, bearing: Double.random(in: 0..<360, using: &random))
                let s = signal(at: p, &random)
                return AntennaObservation(point: p, signal: s >= floor ? s : nil, spreadingFactor: 7)
            }
        }

        static func normal(_ random: inout SplitMix64) -> Double {
            let u1 = max(Double.random(in: 0..<1, using: &random), 1e-12), u2 = Double.random(in: 0..<1, using: &random)
            return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
        }
    }

    static func points(_ world: World, _ observations: [AntennaObservation]) -> [PathLossFit.Point] {
        observations.map { PathLossFit.Point(kilometres: world.gateway.distance(to: $0.point) / 1000, value: $0.signal ?? world.floor, heard: $0.signal != nil) }
    }

    /// 3,000 places, about a third below the floor. The tolerances are about five standard errors
    /// of a least-squares fit of this size (slope: σ / (sd(log10 d) · √n) ≈ 6 / (0.51 · 44) ≈
    /// 0.27 dB a decade; intercept about 0.2 dB; σ about 0.1 dB), widened a little for the censoring.
    @Test func theCensoredFitFindsTheWorldsLineWhereTheHeardOnlyLineRunsHigh() throws {
        let world = World()
        let observations = world.drive(3_000, seed: 7)
        let unheard = observations.filter { $0.signal == nil }.count
        #expect(unheard > 600 && unheard < 1_500, "\(unheard) of 3000 below the floor")
        let fit = try #require(PathLossFit.fit(Self.points(world, observations), censored: true))
        #expect(abs(fit.slope - world.slope) < 1.5, "slope \(fit.slope)")
        #expect(abs(fit.intercept - world.intercept) < 1.0, "intercept \(fit.intercept)")
        #expect(abs(fit.sigma - world.sigma) < 0.6, "σ \(fit.sigma)")
        // Through the heard receptions alone the line is too flat and too strong far out (SPEC §11).
        let plain = try #require(PathLossFit.fit(Self.points(world, observations), censored: false))
        #expect(plain.slope < world.slope - 3, "the heard-only slope \(plain.slope) is not biased: the test's world is not censored enough")
        #expect(abs(fit.mean(kilometres: 10) - world.intercept + world.slope) < abs(plain.mean(kilometres: 10) - world.intercept + world.slope))
    }

    @Test func aSlopeBeyondPhysicsIsHeldAtItsLimitAndAFewReceptionsMakeNoModel() throws {
        var world = World()
        world.slope = 90
        world.sigma = 1
        world.floor = -400
        let fit = try #require(PathLossFit.fit(Self.points(world, world.drive(500, seed: 3)), censored: true))
        #expect(fit.slope == PathLossFit.slopes.upperBound)
        let few = World().drive(60, seed: 4).filter { $0.signal != nil }.prefix(19)
        #expect(throws: PredictionRefusal.self) { try AntennaModel(key: AntennaKey(network: "n", gateway: "g", antenna: 0), position: World().gateway, observations: Array(few)) }
    }

    /// Blocked cross-validation over a world whose shadowing is the known normal scatter: the 80 %
    /// intervals hold about 80 % of the held-out receptions, and P(heard) ranks heard above not.
    @Test func heldOutReceptionsFallInTheirIntervalsAsOftenAsTheySay() throws {
        let world = World()
        let data = [AntennaData(key: AntennaKey(network: "n", gateway: "g", antenna: 0), position: world.gateway, observations: world.drive(4_000, seed: 11))]
        let report = BlockedCrossValidation().run(data)
        #expect(report.receptions > 2_000)
        #expect((0.75...0.85).contains(report.model.inside80), "\(report.model)")
        #expect((report.model.auc ?? 0) > 0.8, "\(report.model)")
        // With no spatial structure to find, the model is no worse than the line (a little noise).
        #expect(report.model.rmse < report.baseline.rmse + 0.3, "\(report.model) against \(report.baseline)")
        #expect(abs(report.model.rmse - world.sigma) < 0.6)
    }

    /// Gateways that hear 4 dB under the book's sensitivity (real ones report signals there): the
    /// floor is taken from the weakest receptions, and the intervals still hold what they say.
    @Test func aFloorUnderTheBooksIsReadFromTheReceptions() throws {
        var world = World()
        world.floor -= 4
        let data = [AntennaData(key: AntennaKey(network: "n", gateway: "g", antenna: 0), position: world.gateway, observations: world.drive(4_000, seed: 12))]
        let report = BlockedCrossValidation().run(data)
        #expect(report.receptions > 2_000)
        #expect((0.75...0.85).contains(report.model.inside80), "\(report.model)")
        #expect(report.model.rmse < report.baseline.rmse + 0.3, "\(report.model) against \(report.baseline)")
    }

    /// Shadowing that stays with the place (a building, a hill): beside its measurements the model
    /// follows it and its interval narrows; far from them it says the whole scatter.
    @Test func besideMeasurementsTheResidualsAreFollowed() throws {
        var world = World()
        world.sigma = 1.5
        // A strong gateway: nearly every place within its reach is heard.
        world.intercept = -70
        world.field = { p in 10 * sin(p.latitude * 111_000 / 400) * cos(p.longitude * 68_000 / 400) }
        let observations = world.drive(6_000, seed: 21)
        let model = try AntennaModel(key: AntennaKey(network: "n", gateway: "g", antenna: 0), position: world.gateway, observations: observations)
        var random = SplitMix64(seed: 99)
        var near: [Double] = [], line: [Double] = []
        for o in observations.prefix(300) {
            // 15 m from a measured place, where the field has hardly changed.
            let p = o.point.offset(metres: 15, bearing: 45)
            let truth = world.signal(at: p, &random)
            let predicted = try model.predict(at: p)
            near.append(predicted.signal - truth)
            line.append(model.fit.mean(kilometres: world.gateway.distance(to: p) / 1000) - truth)
        }
        func rms(_ e: [Double]) -> Double { (e.map { $0 * $0 }.reduce(0, +) / Double(e.count)).squareRoot() }
        #expect(rms(near) < rms(line) / 2, "kriged \(rms(near)) dB against the line's \(rms(line)) dB")
        let far = try model.predict(at: world.gateway.offset(metres: 11_500, bearing: 0).offset(metres: 900, bearing: 90))
        let close = try model.predict(at: observations[0].point.offset(metres: 10, bearing: 0))
        #expect(far.high - far.low > close.high - close.low)
        #expect(throws: PredictionRefusal.self) { try model.predict(at: world.gateway.offset(metres: 40_000, bearing: 0)) }
    }

    /// A gateway that reports a position 3 km from where it stands: its receptions say so, and where;
    /// one that reports where it is, is left alone.
    @Test func aReportedPositionTheReceptionsContradictIsFlaggedWithWhereTheySayItIs() throws {
        var world = World()
        world.intercept = -95
        let observations = world.drive(2_000, seed: 31)
        let key = AntennaKey(network: "n", gateway: "g", antenna: 0)
        let wrong = world.gateway.offset(metres: 3_000, bearing: 60)
        let moved = try #require(GatewayPositionCheck.check(AntennaData(key: key, position: wrong, observations: observations)))
        #expect(moved.contradicted, "\(moved)")
        // Within three fine steps of the truth: the drive's scatter (6 dB) blurs the best fit a little.
        #expect(moved.likely.distance(to: world.gateway) < 300, "\(moved.likely.distance(to: world.gateway)) m from where it stands")
        #expect(moved.text.contains("check the position it reports"))
        let right = try #require(GatewayPositionCheck.check(AntennaData(key: key, position: world.gateway, observations: observations)))
        #expect(!right.contradicted && right.distance < 300, "\(right)")
        // Too few receptions, or no position of its own: no check.
        #expect(GatewayPositionCheck.check(AntennaData(key: key, position: wrong, observations: Array(observations.filter { $0.signal != nil }.prefix(29)))) == nil)
        var estimated = AntennaData(key: key, position: wrong, observations: observations)
        estimated.positionEstimated = true
        #expect(GatewayPositionCheck.check(estimated) == nil)
    }

    /// Stored receptions of a gateway that reports a position 3 km off: `mtt coverage --gateway`,
    /// the exports' gateways layer and the map say what its receptions say.
    /// A community's map fits its models to the cells (`CellObservations`): two gateways of the
    /// world heard 1,500 uplinks between them, stored in a local database; the models made from its
    /// cells are the models made from its receptions, within what the 5 dB buckets cost, and both
    /// find the world's line of the gateway the drive went round. Tolerances: the buckets add about
    /// 1.4 dB RMS to 6 dB of shadowing (σ a few tenths); near a gateway, where a cell holds several
    /// strong receptions, their bucket's middle under the best stands for each, which tilts the
    /// line by up to a dB a decade (0.97 here); both fits are held to the world as the censored fit
    /// above is.
    @Test func modelsFittedToTheCellsAreThoseFittedToTheReceptions() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("cells.sqlite"))
        var a = World(), b = World()
        a.intercept = -100
        b.intercept = -100
        b.gateway = a.gateway.offset(metres: 4_000, bearing: 90)
        let start = Timestamp(nanosecondsSinceEpoch: 1_800_000_000_000_000_000)
        let session = try store.sessions.startSession(mode: .listener, at: start)
        var random = SplitMix64(seed: 5)
        var stored = 0
        for (i, o) in a.drive(2_000, seed: 11).enumerated() {
            let heardBy = [("gw-a", a, o.signal), ("gw-b", b, Optional(b.signal(at: o.point, &random)))].compactMap { name, world, signal in
                signal.flatMap { $0 >= world.floor ? GatewayReception(gatewayID: name, rssi: $0, snr: 5, location: world.gateway) : nil }
            }
            guard !heardBy.isEmpty, stored < 1_500 else { continue }
            stored += 1
            let time = start.adding(seconds: Double(i))
            let uplink = Uplink(deviceID: "d", devEUI: "0004A30B001C0530", fCnt: UInt32(i), spreadingFactor: 7, receivedAt: time, networkID: "n", receptions: heardBy)
            let id = try store.records.record(uplink, session: session)
            try store.records.record(Sample(sessionID: session, subject: .uplink(id), time: time, position: o.point, method: .interpolated))
        }
        var cells: [GatewayCell] = []
        try store.coverage.forEachGatewayCell(CoverageFilter(), perSpreadingFactor: true) { cells.append($0) }
        let fromCells = CoverageModel(CellObservations.antennaData(cells: cells, unheard: [], gateways: try store.coverage.coverageGateways(CoverageFilter())))
        let fromReceptions = CoverageModel(try store.coverage.predictionData(CoverageFilter()))
        #expect(fromCells.models.map(\.key.gateway) == ["gw-a", "gw-b"] && fromReceptions.models.map(\.key.gateway) == ["gw-a", "gw-b"])
        for (cellModel, receptionModel) in zip(fromCells.models, fromReceptions.models) {
            let (c, r) = (cellModel.fit, receptionModel.fit)
            let name = cellModel.key.gateway
            #expect(abs(c.intercept - r.intercept) < 0.6 && abs(c.slope - r.slope) < 1.5 && abs(c.sigma - r.sigma) < 0.4, "\(name): cells \(c), receptions \(r)")
            for fit in [c, r] where name == "gw-a" {
                #expect(abs(fit.intercept - a.intercept) < 1.5 && abs(fit.slope - a.slope) < 3 && abs(fit.sigma - a.sigma) < 0.8, "\(name): \(fit)")
            }
            #expect(cellModel.receptions == receptionModel.receptions, "\(name): every reception is in a cell")
        }
    }

    @Test func aContradictedPositionIsInTheGatewaysLayer() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("positions.sqlite"))
        var world = World()
        world.intercept = -95
        let wrong = world.gateway.offset(metres: 3_000, bearing: 60)
        let session = try store.sessions.startSession(mode: .listener, at: Timestamp(nanosecondsSinceEpoch: 1_800_000_000_000_000_000))
        for (i, o) in world.drive(600, seed: 41).enumerated() {
            guard let signal = o.signal else { continue }
            let time = Timestamp(nanosecondsSinceEpoch: 1_800_000_000_000_000_000).adding(seconds: Double(i))
            let uplink = Uplink(deviceID: "d", devEUI: "0004A30B001C0530", fCnt: UInt32(i), spreadingFactor: 7, receivedAt: time, networkID: "n",
                                receptions: [GatewayReception(gatewayID: "off-by-3km", rssi: signal, snr: 5, location: wrong)])
            let id = try store.records.record(uplink, session: session)
            try store.records.record(Sample(sessionID: session, subject: .uplink(id), time: time, position: o.point, method: .interpolated))
        }
        let checks = try GatewayPositionCheck.checks(store, CoverageFilter())
        #expect(checks.count == 1 && checks[0].contradicted, "\(checks)")
        let file = dir.file("gateways.geojson")
        let sink = try TextSink(path: file)
        _ = try CoverageLayer.writeGeoJSON(.gateways, store, filter: CoverageFilter(), to: sink)
        try sink.close()
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(#""position_check":"its receptions fit"#), "\(text)")
        #expect(try store.coverage.gatewaySummaries(ExportFilter()).count == 1)
    }
}
