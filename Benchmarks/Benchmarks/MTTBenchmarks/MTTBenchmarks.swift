import Benchmark
import Foundation
import MTTCore
import MTTHTTP
import MTTMQTT
import MTTSerial
import TestSupport

/// The TTN message every decode benchmark reads: three gateways, as the project's own fixture has it.
let message: [UInt8] = {
    let path = FixtureFiles.own("ttn/three-gateways.json")
    return [UInt8](FileManager.default.contents(atPath: path) ?? Data())
}()

/// A ChirpStack v4 uplink event (two gateways), as the project's own fixture has it.
let chirpStackMessage: [UInt8] = {
    let path = FixtureFiles.own("chirpstack/two-gateways.json")
    return [UInt8](FileManager.default.contents(atPath: path) ?? Data())
}()

let chirpStackTopic = "application/17c82e96-be03-4f38-aef3-f83d48582d97/device/0004a30b001c0530/event/up"

func decodedUplink() -> Uplink {
    guard case .uplink(let uplink)? = try? UplinkDecoder.decode(message) else { fatalError("the fixture does not decode") }
    return uplink
}

/// A store of `count` listener samples, made once and kept in /tmp between runs (it takes a while).
func storeWithSamples(_ count: Int) throws -> Store {
    let path = "/tmp/mtt-benchmark-\(count)-samples.sqlite"
    if FileManager.default.fileExists(atPath: path), let store = try? Store(path: path), try store.status().samples == count {
        return store
    }
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let store = try Store(path: path)
    var left = count
    while left > 0 {
        let chunk = min(left, 50_000)
        try SyncTestData.addListenerSamples(chunk, to: store)
        left -= chunk
    }
    return store
}

/// A track of one fix a second, a little north-east each time.
func track(_ count: Int) -> [Fix] {
    (0..<count).map { i in
        Fix(
            time: SyncTestData.start.adding(seconds: Double(i)), latitude: 52 + Double(i) * 1e-5,
            longitude: 5 + Double(i) * 1e-5, mode: .threeD, source: "benchmark")
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(5), maxIterations: 1_000)

    Benchmark("TTN v3 uplink decode", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try UplinkDecoder.decode(message))
        }
    }

    Benchmark("ChirpStack v4 uplink decode", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ChirpStackDecoder.decode(topic: chirpStackTopic, chirpStackMessage, networkID: "NS_CHIRP://chirpstack.example.org"))
        }
    }

    Benchmark("ChirpStack uplink decode + store, 500 per transaction", configuration: .init(scalingFactor: .kilo, maxIterations: 20)) { benchmark, store in
        let session = try store.sessions.startSession(mode: .listener)
        for _ in 0..<(benchmark.scaledIterations.count / 500) {
            let uplinks = (0..<500).compactMap { _ -> Uplink? in
                let decoded = try? ChirpStackDecoder.decode(topic: chirpStackTopic, chirpStackMessage, networkID: "NS_CHIRP://chirpstack.example.org")
                guard case .uplink(let uplink)? = decoded else { return nil }
                return uplink
            }
            try store.batch { batch in
                for uplink in uplinks { blackHole(try batch.record(uplink, session: session)) }
            }
        }
    } setup: {
        try Store(path: TemporaryDirectory("mtt-bench").file("chirpstack-batched.sqlite"))
    }

    Benchmark("TTN uplink decode + store, one transaction per uplink", configuration: .init(scalingFactor: .one, maxIterations: 300)) { benchmark, store in
        let session = try store.sessions.startSession(mode: .listener)
        for _ in benchmark.scaledIterations {
            guard case .uplink(let uplink) = try UplinkDecoder.decode(message) else { continue }
            blackHole(try store.records.record(uplink, session: session))
        }
    } setup: {
        try Store(path: TemporaryDirectory("mtt-bench").file("each.sqlite"))
    }

    Benchmark("TTN uplink decode + store, 500 per transaction", configuration: .init(scalingFactor: .kilo, maxIterations: 20)) { benchmark, store in
        let session = try store.sessions.startSession(mode: .listener)
        for _ in 0..<(benchmark.scaledIterations.count / 500) {
            let uplinks = (0..<500).compactMap { _ -> Uplink? in
                guard case .uplink(let uplink)? = try? UplinkDecoder.decode(message) else { return nil }
                return uplink
            }
            try store.batch { batch in
                for uplink in uplinks { blackHole(try batch.record(uplink, session: session)) }
            }
        }
    } setup: {
        try Store(path: TemporaryDirectory("mtt-bench").file("batched.sqlite"))
    }

    Benchmark("payload codecs: location 02 encode + decode", configuration: .init(scalingFactor: .mega)) { benchmark in
        for i in benchmark.scaledIterations {
            let payload = LocationPayload(format: .tracked, latitude: 52.09 + Double(i % 1000) * 1e-5, longitude: 5.12)
            blackHole(try LocationPayload(bytes: payload.bytes))
        }
    }

    Benchmark("payload codecs: telemetry 05 decode", configuration: .init(scalingFactor: .mega)) { benchmark in
        let bytes = TelemetryPayload(latitude: 52.09, longitude: 5.12, altitude: 12, hdop: 0.9, battery: 87).bytes
        for _ in benchmark.scaledIterations {
            blackHole(try TelemetryPayload(bytes: bytes))
        }
    }

    Benchmark("interpolation over a 1-million-fix track", configuration: .init(scalingFactor: .kilo)) { benchmark, fixes in
        let interpolator = TrackInterpolator()
        var generator = SplitMix64(seed: 1)
        for _ in benchmark.scaledIterations {
            let at = SyncTestData.start.adding(seconds: Double.random(in: 0..<999_999, using: &generator))
            blackHole(interpolator.position(at: at, in: fixes))
        }
    } setup: {
        track(1_000_000)
    }

    Benchmark("export of 1 million samples (GeoJSON)", configuration: .init(scalingFactor: .one, maxDuration: .seconds(120), maxIterations: 3)) { benchmark, store in
        for _ in benchmark.scaledIterations {
            let sink = try TextSink(path: "/dev/null")
            blackHole(try Exporter.export(store, as: .geojson, to: sink))
            try sink.close()
        }
    } setup: {
        try storeWithSamples(1_000_000)
    }

    Benchmark("sync of 2,000 attempts to a loopback server", configuration: .init(scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 10)) { benchmark, template in
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let folder = TemporaryDirectory("mtt-bench")
        for iteration in benchmark.scaledIterations {
            // A fresh copy of the queue each time: copying the file costs a millisecond or so.
            let path = folder.file("sync-\(iteration).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: path)
            let store = try Store(path: path)
            let destination = MapTheThingsDestination(
                baseURL: URL(string: server.baseURL)!, credentials: .init(user: "bench", token: "t", secret: "s"), databaseID: "bench")
            let uploader = Uploader(store: store, destination: destination, transport: HTTPTransport(timeout: 10, connections: 8))
            let summary = try await uploader.run()
            precondition(summary.sent == 2_000, "\(summary)")
        }
    } setup: {
        let path = "/tmp/mtt-benchmark-2000-attempts.sqlite"
        if !FileManager.default.fileExists(atPath: path) {
            let store = try Store(path: path)
            try SyncTestData.addConfirmedAttempts(2_000, to: store)
            // One file, no WAL beside it, so a copy is the whole database.
            _ = try store.integrityCheck()
        }
        return path
    }

    // DESIGN.md "On the road": from a USB modem's by-id link being there again (plugged back, not
    // joined) to mtt's first attempt on it, through the production reconnect back-off and the join.
    // The policy sends at once (no wait of its own), so the figure is mtt's part alone.
    Benchmark("modem plugged back: link present again → first attempt", configuration: .init(metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(120), maxIterations: 8)) { benchmark in
        let folder = TemporaryDirectory("mtt-bench-replug")
        let byID = folder.file("usb-Microchip_RN2483-if00")
        let first = try ModemEmulator(kind: .rn2483)
        try FileManager.default.createSymbolicLink(atPath: byID, withDestinationPath: first.slavePath)
        let connector = ModemConnector(spec: SerialNodeSpec(path: byID, modem: .rn2483))
        let link = try await connector.connect()
        let store = try Store(path: folder.file("replug.sqlite"))
        let session = try store.sessions.startSession(mode: .active)
        var policy = SendPolicy()
        policy.minimumInterval = 0
        policy.minimumDistance = 0
        let log = CollectEventLog()
        let collector = ActiveCollector(
            store: store, session: session, nodes: [ActiveNode(link: link, devEUI: try await link.info().devEUI, connector: connector)],
            fixes: MovingFixSource(clock: SystemClock()), uplinks: nil, policy: policy, emit: log.emit)
        let run = Task { try await collector.run() }
        func waitFor(_ condition: () -> Bool) async throws {
            while !condition() { try await Task.sleep(for: .milliseconds(1)) }
        }
        try await waitFor { log.all.contains { if case .attempt = $0 { true } else { false } } }
        var plugged = [first]
        for _ in benchmark.scaledIterations {
            let losses = log.losses
            plugged.last?.unplug()
            try FileManager.default.removeItem(atPath: byID)
            try await waitFor { log.losses > losses }
            // Away for 3 s, so the back-off has grown past its first steps.
            try await Task.sleep(for: .seconds(3))
            let next = try ModemEmulator(kind: .rn2483, joined: false, holdsKeys: true)
            plugged.append(next)
            let attemptsBefore = log.all.count { if case .attempt = $0 { true } else { false } }
            benchmark.startMeasurement()
            try FileManager.default.createSymbolicLink(atPath: byID, withDestinationPath: next.slavePath)
            try await waitFor { log.all.count { if case .attempt = $0 { true } else { false } } > attemptsBefore }
            benchmark.stopMeasurement()
        }
        run.cancel()
        _ = await run.result
    }

    coverageBenchmarks()
    communityBenchmarks()
}
