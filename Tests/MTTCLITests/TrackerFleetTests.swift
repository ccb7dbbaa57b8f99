import Foundation
import MTTCore
import TestSupport
import Testing

/// Issue 43: a fleet of simulated trackers (`--network fake?trackers=N`) published through a real
/// mosquitto as The Things Stack and as ChirpStack publish uplinks, heard by a listener with
/// `--gps payload` and no GPS at all: every sample where its device's payload says, the frames
/// nobody heard estimated between the heard ones, the coverage a rebuild makes, and the estimates
/// apart from the measurements in the exports and the map's cells.
@Suite("Trackers: a fleet through a real broker", .serialized)
struct TrackerFleetTests {
    let mtt = MTTCommand()
    static let trackers = 12

    @Test(arguments: [("fake?trackers=12", "v3/+/devices/+/up", "decoded_payload"),
                      ("fake?format=chirpstack&trackers=12", "application/+/device/+/event/up", "\"object\"")])
    func aFleetIsPlacedByItsOwnPositionsAndItsLostFramesEstimated(network: String, topic: String, decodedKey: String) async throws {
        let broker = try await MosquittoBroker.start()
        let wire = try await broker.subscribe(topic: topic)
        defer { wire.stop() }
        let run = try await mtt.run([
            "collect", "--mode", "listener", "--gps", "payload", "--network", network, "--mqtt-url", "mqtt://127.0.0.1:\(broker.port)",
            "--speed", "20", "--duration", "20s", "--db", mtt.database,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // Through the broker, decoded payloads and all.
        #expect(wire.stdout.contains(decodedKey) && wire.stdout.contains("sim-tracker-001"), "\(wire.stdout.prefix(600))")

        let store = try Store(path: mtt.database, access: .readOnly)
        let samples = try store.records.samples(session: 1)
        var byUplink: [Int64: Sample] = [:]
        for sample in samples { if case .uplink(let id) = sample.subject { byUplink[id] = sample } }
        let fleet = SimulatedTrackerFleet(count: Self.trackers)
        var placed = 0, devices = Set<String>()
        for (id, sample) in byUplink {
            let uplink = try #require(try store.records.uplink(id))
            devices.insert(uplink.deviceID)
            guard let position = sample.position else {
                // Only the tracker with bad fixes sends positions the gates refuse.
                #expect(uplink.deviceID == "sim-tracker-012" && sample.reason?.hasPrefix("payload position refused, few_satellites") == true,
                        "\(uplink.deviceID): \(sample.reason ?? "")")
                continue
            }
            placed += 1
            #expect(sample.method == .payload)
            // Where the device's own frame says: read with its codec, or (for the trackers whose
            // network decoded the payload) the T-Beam's 10 bytes it decoded from.
            let codec = fleet.codecs[uplink.deviceID] ?? .ttnMapper9
            let said = try codec.position(in: PayloadFrame(uplink.payload, fPort: uplink.fPort))
            #expect(GeoPoint(latitude: said.latitude, longitude: said.longitude).distance(to: position) < 3, "\(uplink.deviceID) f_cnt \(uplink.fCnt ?? 0)")
        }
        #expect(placed > 50 && devices.count >= 10, "\(placed) placed of \(byUplink.count), devices \(devices.sorted())")
        #expect(samples.contains { $0.reason?.contains("few_satellites") == true }, "the tracker with bad fixes was never refused")

        // Every gap of a device's frame counters, estimated where it was between its heard fixes.
        var estimated: [EstimatedAttempt] = []
        try store.records.forEachEstimatedAttempt { estimated.append($0) }
        let placedEstimates = estimated.filter { $0.position != nil }
        #expect(placedEstimates.count > 5, "\(estimated.count) estimated, \(placedEstimates.count) placed")
        for estimate in placedEstimates {
            let before = try #require(try store.records.uplink(estimate.heardBefore)), after = try #require(try store.records.uplink(estimate.heardAfter))
            let from = try #require(byUplink[estimate.heardBefore]?.position), to = try #require(byUplink[estimate.heardAfter]?.position)
            let fraction = Double(estimate.fCnt - before.fCnt!) / Double(after.fCnt! - before.fCnt!)
            #expect(try #require(estimate.position).distance(to: from.interpolated(to: to, fraction: fraction)) < 0.01)
            #expect(before.deviceID == estimate.deviceID && after.deviceID == estimate.deviceID && before.fCnt! < estimate.fCnt && estimate.fCnt < after.fCnt!)
        }
        let status = try await mtt.run(["status", "--json", "--db", mtt.database])
        #expect(status.stdout.contains(#""estimated_attempts":\#(estimated.count)"#) && status.stdout.contains(#""attempts":0"#), "\(status.stdout)")
        let trips = try await mtt.run(["sessions", "devices", "--json", "--db", mtt.database])
        #expect(Set(trips.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["device"] as? String
        }) == devices, "\(trips.stdout)")

        // The coverage kept as they came is what a rebuild makes from the records.
        let kept = try store.coverage.coverageTables()
        #expect(try await mtt.run(["coverage", "--rebuild", "--db", mtt.database]).status == 0)
        #expect(try Store(path: mtt.database, access: .readOnly).coverage.coverageTables() == kept)

        // Apart in the exports and the map's cells: their own layer, their own cell state and colour.
        let layer = try await mtt.run(["export", "--format", "geojson", "--layer", "estimated", "--db", mtt.database])
        #expect(layer.stdout.components(separatedBy: #""estimated":true"#).count - 1 == placedEstimates.count, "\(layer.stderr)")
        let cells = try await mtt.run(["export", "--format", "geojson", "--layer", "cells", "--db", mtt.database]).stdout
        #expect(cells.contains(#""state":"not-heard-estimated""#) && cells.contains(#""color":"\#(CoverageLayer.estimatedColor)""#))
        let file = mtt.dir.file("fleet.gpkg")
        #expect(try await mtt.run(["export", "--format", "gpkg", "--out", file, "--db", mtt.database]).status == 0)
        let info = try await ChildProcess.run("/usr/bin/ogrinfo", ["-so", file, "estimated_attempts"])
        #expect(info.stdout.contains("Feature Count: \(placedEstimates.count)\n"), "\(info.stdout.prefix(400)) \(info.stderr)")
        let samplesLayer = try await ChildProcess.run("/usr/bin/ogrinfo", ["-so", file, "samples"])
        #expect(samplesLayer.stdout.contains("Feature Count: \(placed)\n"), "\(samplesLayer.stdout.prefix(400))")
        // Each tracker's own track, a line per session of its own with two places or more.
        var tracks = 0
        try store.records.forEachDeviceSession { if $0.placed > 1 { tracks += 1 } }
        let trackLayer = try await ChildProcess.run("/usr/bin/ogrinfo", ["-so", file, "device_tracks"])
        #expect(tracks > 5 && trackLayer.stdout.contains("Feature Count: \(tracks)\n"), "\(tracks): \(trackLayer.stdout.prefix(400))")
    }

    /// A fleet of 120 on the map: the page lists the devices that sent most and offers every one
    /// in its Device filter, draws one device's dots alone when it is chosen, does not spread 120
    /// devices side by side, and draws the cells only a tracker's estimated frames mapped in their
    /// own colour, as the server gives them.
    @Test func aFleetOnTheMap() async throws {
        let drive = try await mtt.run([
            "collect", "--mode", "listener", "--gps", "payload", "--network", "fake?trackers=120", "--speed", "20", "--duration", "10s",
            "--db", mtt.database,
        ])
        #expect(drive.status == 0, "\(drive.stderr)")
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "127.0.0.1:\(port)", "--tiles", "none", "--db", mtt.database])
        defer { server.kill() }
        #expect(await server.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(server.stderr)")
        let samples = try await CoverageMapTests.features(port: port, "/api/samples.geojson")
        var dots: [String: Int] = [:]
        for f in samples { dots[(f["properties"] as? [String: Any])?["device"] as? String ?? "", default: 0] += 1 }
        #expect(dots.count > 60, "\(dots.count) devices")
        let busiest = try #require(dots.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })
        let cells = try await CoverageMapTests.features(port: port, "/api/cells?z=16&bbox=-74.1,40.5,-73.8,40.8")
        #expect(CoverageMapTests.colours(cells)[CoverageLayer.estimatedColor, default: 0] > 0, "\(CoverageMapTests.colours(cells))")

        let page = try HeadlessBrowser(url: "http://127.0.0.1:\(port)/#view=40.6782,-73.9442,13")
        #expect(try await page.wait(until: "document.getElementById('drawn').dataset.count > 0 && document.getElementById('drawn').dataset.cellZoom"))
        #expect(try await CoverageMapTests.drawn(page, "count") == String(samples.count))
        #expect(try await page.evaluate("document.getElementById('device-list').options.length") == String(dots.count))
        let head = try await page.evaluate("document.querySelector('#device-table th').textContent")
        #expect(head == "\"\(dots.count) devices\"", "\(head)")
        #expect(try await page.evaluate("document.querySelectorAll('#device-table tr').length") == "22", "20 devices and a line for the rest, under the header")
        #expect(try await page.evaluate("document.getElementById('legend').textContent.indexOf('side by side')") == "-1")
        #expect(try await CoverageMapTests.drawnColours(page)[CoverageLayer.estimatedColor, default: 0] > 0)
        _ = try await page.evaluate("""
            (function () { var s = document.getElementById('device-filter'); s.value = '\(busiest.key)'; s.dispatchEvent(new Event('change')); })()
            """)
        #expect(try await page.wait(until: "document.getElementById('drawn').dataset.count === '\(busiest.value)'"), "\(busiest)")
    }
}
