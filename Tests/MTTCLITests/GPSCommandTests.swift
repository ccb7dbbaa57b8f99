import Foundation
import MTTSerial
import TestSupport
import Testing

@Suite("mtt gps")
struct GPSCommandTests {
    let mtt = MTTCommand()
    let capture = FixtureFiles.own("nmea/utrecht-drive.nmea")

    @Test func printsFixesWithModeSatellitesHDOPAndAge() async throws {
        let result = try await mtt.run(["gps", "--gps", "nmea:\(capture)?speed=0", "--count", "3"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0] == "connected to nmea:\(capture)?speed=0")
        #expect(lines[1].hasPrefix("2026-06-21T10:15:00Z  3D  52.090780, 5.121510  alt 3.0 m  sats 9  hdop 0.9  22.8 km/h  age "))
        #expect(lines[1].hasSuffix(" days STALE"), "\(lines[1])")  // a capture from June: its age in days, as collect says it
    }

    @Test func jsonIsOneObjectPerEvent() async throws {
        let result = try await mtt.run(["gps", "--gps", "nmea:\(capture)?speed=0", "--count", "2", "--json"])
        #expect(result.status == 0)
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["type"] as? String } == ["connected", "fix", "fix"])
        #expect(objects[1]["lat"] as? Double == 52.09078)
        #expect(objects[1]["mode"] as? Int == 3)
        #expect(objects[1]["satellites"] as? Int == 9)
        #expect(objects[1]["time"] as? String == "2026-06-21T10:15:00.000Z")
    }

    @Test func unreadableCaptureIsOneLineAndExit1() async throws {
        let result = try await mtt.run(["gps", "--gps", "nmea:/nonexistent.nmea"])
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("mtt: cannot read the NMEA file /nonexistent.nmea\n"))
    }

    @Test func badSpecIsAUsageError() async throws {
        let result = try await mtt.run(["gps", "--gps", "gpsd://host:0"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("bad GPS spec gpsd://host:0"))
    }

    /// The whole path a user runs: a receiver on a serial device, gpsd, libgps, `mtt gps`.
    @Test func readsARealGpsd() async throws {
        let device = try PseudoTerminal()
        let gpsd = try await GPSDServer.start(device: device.slavePath)
        defer { gpsd.stop() }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: capture)))
        // Keep the receiver talking while mtt connects and reads, on a thread of its own (feeding
        // sleeps between chunks, which must not hold one of the test runner's few async threads).
        let feeder = Thread {
            for _ in 0..<20 where !Thread.current.isCancelled {
                device.feedNow(bytes, chunk: 120, pauseMicroseconds: 10_000)
            }
        }
        feeder.start()
        defer { feeder.cancel() }
        let result = try await mtt.run(["gps", "--gps", "gpsd://127.0.0.1:\(gpsd.port)", "--count", "5", "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let fixes = result.stdout.split(separator: "\n").filter { $0.contains("\"type\":\"fix\"") }
        #expect(fixes.count == 5)
        #expect(fixes.allSatisfy { $0.contains("\"source\":\"gpsd://127.0.0.1:\(gpsd.port)\"") })
    }
}
