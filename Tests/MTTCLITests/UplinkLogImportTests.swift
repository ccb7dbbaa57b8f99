import Foundation
import MTTCore
import TestSupport
import Testing

/// Issue 43: `mtt import` of the networks' own logs of a fleet's uplinks, each uplink once, placed
/// by its device's own position. The entries are written for mtt from SPEC §3, §8 and §9.4.
@Suite("mtt import of uplink logs")
struct UplinkLogImportTests {
    let mtt = MTTCommand()

    static func tts(device: String, fCnt: Int, at time: String, decoded: String? = nil, payload: String = "AQ==", fPort: Int = 1) -> String {
        let decodedField = decoded.map { #","decoded_payload":\#($0)"# } ?? ""
        return #"{"end_device_ids":{"device_id":"\#(device)","dev_eui":"70B3D57ED000AB\#(String(format: "%02X", fCnt))"},"received_at":"\#(time)","uplink_message":{"f_port":\#(fPort),"f_cnt":\#(fCnt),"frm_payload":"\#(payload)"\#(decodedField),"rx_metadata":[{"gateway_ids":{"gateway_id":"gw-1"},"rssi":-101,"snr":4.5}],"settings":{"data_rate":{"lora":{"bandwidth":125000,"spreading_factor":7}},"frequency":"868500000"}}}"#
    }

    func write(_ lines: [String], _ name: String) throws -> String {
        let path = mtt.dir.file(name)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func samples() throws -> [Sample] {
        let store = try Store(path: mtt.database, access: .readOnly)
        return try store.sessions.sessions(since: Timestamp(nanosecondsSinceEpoch: 0))
            .flatMap { try store.records.samples(session: $0.id) }.sorted { $0.time < $1.time }
    }

    /// The uplinks the samples are of, in the samples' order.
    func uplinks() throws -> [Uplink] {
        let store = try Store(path: mtt.database, access: .readOnly)
        return try samples().compactMap { sample in
            guard case .uplink(let id) = sample.subject else { return nil }
            return try store.records.uplink(id)
        }
    }

    @Test func theThingsStackLinesArePlacedAndASecondImportAddsNothing() async throws {
        let fieldTester = Data(Hex.bytes("1ECDAF810663047E0C08")!).base64EncodedString()
        let log = try write([
            Self.tts(device: "tbeam-1", fCnt: 1, at: "2026-06-21T10:00:00Z", decoded: #"{"gps":{"latitude":52.09,"longitude":5.12,"altitude":4},"sats":7}"#),
            Self.tts(device: "wio-1", fCnt: 2, at: "2026-06-21T10:00:10Z", payload: fieldTester),
            #"{"end_device_ids":{"device_id":"tbeam-1","dev_eui":"70B3D57ED000AB01"},"join_accept":{"received_at":"2026-06-21T09:59:00Z"}}"#,
            Self.tts(device: "tbeam-1", fCnt: 3, at: "2026-06-21T10:00:20Z", decoded: #"{"latitude":0,"longitude":0}"#),
        ], "tts.jsonl")
        let first = try await mtt.run(["import", log, "--codec", "wio-1=fieldtester", "--db", mtt.database])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "imported 3 uplinks (The Things Stack uplinks) into session 1 of \(mtt.database): 2 placed by their device's own position; 1 entry not an uplink\n  1 kept without a position: mtt status --reasons says why\n", "\(first.stdout)")
        let placed = try samples()
        try #require(placed.count == 3)
        #expect(placed[0].method == .payload && placed[0].position == GeoPoint(latitude: 52.09, longitude: 5.12, altitude: 4))
        #expect(try #require(placed[1].position).distance(to: GeoPoint(latitude: 43.6046921, longitude: 1.4441872)) < 0.1)
        #expect(placed[2].position == nil && placed[2].reason?.hasPrefix("payload position refused, null_island") == true)

        // The same uplinks again, as an array this time: nothing new, no empty session.
        let array = try write(["[" + [
            Self.tts(device: "tbeam-1", fCnt: 1, at: "2026-06-21T10:00:00Z"),
            Self.tts(device: "wio-1", fCnt: 2, at: "2026-06-21T10:00:10Z", payload: fieldTester),
        ].joined(separator: ",\n") + "]"], "tts-array.json")
        let second = try await mtt.run(["import", array, "--codec", "wio-1=fieldtester", "--db", mtt.database, "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == #"{"already_stored":2,"estimated_attempts":0,"format":"The Things Stack uplinks","not_uplinks":0,"placed":0,"uplinks":0}"# + "\n", "\(second.stdout)")
        let store = try Store(path: mtt.database, access: .readOnly)
        #expect(try store.status().sessions == 1 && store.status().uplinks == 3)
    }

    /// Frames a tracker's log lacks (its counter went 4, 5, 8) are the frames nobody heard: two
    /// estimated attempts, placed between the heard positions around them; a second import adds
    /// neither uplinks nor estimates.
    @Test func framesMissingFromALogAreEstimatedOnce() async throws {
        let lines = [(4, "10:00:00", 52.0900), (5, "10:00:30", 52.0910), (8, "10:02:00", 52.0940)].map { fCnt, time, latitude in
            #"{"end_device_ids":{"device_id":"bus-7","dev_eui":"70B3D57ED000BB07"},"received_at":"2026-06-21T\#(time)Z","uplink_message":{"f_port":1,"f_cnt":\#(fCnt),"frm_payload":"AQ==","decoded_payload":{"latitude":\#(latitude),"longitude":5.12,"sats":9},"rx_metadata":[{"gateway_ids":{"gateway_id":"gw-1"},"rssi":-101,"snr":4.5}],"settings":{"data_rate":{"lora":{"bandwidth":125000,"spreading_factor":7}},"frequency":"868500000"}}}"#
        }
        let log = try write(lines, "bus.jsonl")
        let first = try await mtt.run(["import", log, "--db", mtt.database])
        #expect(first.status == 0 && first.stdout.contains("  2 frames the devices sent and nobody heard (gaps in their frame counters), kept as estimated attempts"), "\(first.stdout)")
        let store = try Store(path: mtt.database, access: .readOnly)
        var estimated: [EstimatedAttempt] = []
        try store.records.forEachEstimatedAttempt { estimated.append($0) }
        #expect(estimated.map(\.fCnt) == [6, 7])
        #expect(estimated.map { RFC3339.string($0.sentAt, fractionDigits: 0) } == ["2026-06-21T10:01:00Z", "2026-06-21T10:01:30Z"])
        #expect(abs((estimated.first?.position?.latitude ?? 0) - 52.0920) < 1e-9 && abs((estimated.last?.position?.latitude ?? 0) - 52.0930) < 1e-9)
        let again = try await mtt.run(["import", log, "--json", "--db", mtt.database])
        #expect(again.stdout.contains(#""already_stored":3,"estimated_attempts":0"#), "\(again.stdout)")
        #expect(try store.status().estimatedAttempts == 2)
    }

    @Test func chirpStackUpEventsWithTheirCodecsObject() async throws {
        let up = { (fCnt: Int, time: String, object: String) in
            #"{"deduplicationId":"d-\#(fCnt)","time":"\#(time)","deviceInfo":{"deviceName":"bus-\#(fCnt % 2)","devEui":"a84041000181\#(String(format: "%04x", fCnt % 2))","applicationId":"fleet"},"devAddr":"01020304","fCnt":\#(fCnt),"fPort":2,"data":"AQ==","object":\#(object),"rxInfo":[{"gatewayId":"0016c001ff1a2b3c","rssi":-97,"snr":6.5}],"txInfo":{"frequency":868100000,"modulation":{"lora":{"bandwidth":125000,"spreadingFactor":9,"codeRate":"CR_4_5"}}}}"#
        }
        let log = try write([
            up(10, "2026-06-21T11:00:00Z", #"{"gpsLocation":{"1":{"latitude":48.8566,"longitude":2.3522,"altitude":35}}}"#),
            #"{"deduplicationId":"j","time":"2026-06-21T10:59:00Z","deviceInfo":{"deviceName":"bus-1","devEui":"a840410001810001"},"devAddr":"01020304"}"#,
            up(11, "2026-06-21T11:01:00Z", #"{"Latitude":"48.86","Longitude":"2.35","fixFailed":true}"#),
        ], "chirpstack.jsonl")
        let result = try await mtt.run(["import", log, "--network-id", "lns.example.org", "--db", mtt.database])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("imported 2 uplinks (ChirpStack v4 up events) into session 1"), "\(result.stdout)")
        let placed = try samples()
        try #require(placed.count == 2)
        #expect(placed[0].position == GeoPoint(latitude: 48.8566, longitude: 2.3522, altitude: 35))
        #expect(placed[1].reason?.hasPrefix("no payload position, no_fix: fixFailed") == true)
        let uplink = try #require(try uplinks().first)
        #expect(uplink.networkID == "NS_CHIRP://lns.example.org" && uplink.spreadingFactor == 9)
    }

    /// One uplink bought by two hotspots comes as two entries seconds apart: stored once, heard by both.
    @Test func heliumEntriesOfOneUplinkAreOneUplinkWithEveryHotspot() async throws {
        let entry = { (fCnt: Int, reportedAt: Int64, hotspot: String, rssi: Int) in
            #"{"name":"lgt92-7","dev_eui":"A84041000181C0DE","devaddr":"48000001","fcnt":\#(fCnt),"port":2,"payload":"AVfEYPk1cndPPGQ=","reported_at":\#(reportedAt),"decoded":{"payload":{"Latitude":22.52912,"Longitude":-113.937801,"BatV":3.9},"status":"success"},"hotspots":[{"id":"\#(hotspot)","name":"\#(hotspot)-name","lat":22.53,"long":-113.94,"rssi":\#(rssi),"snr":5.2,"spreading":"SF10BW125","frequency":904.1,"channel":8,"status":"success","reported_at":\#(reportedAt)}]}"#
        }
        let start: Int64 = 1_782_036_000_000
        let log = try write([
            entry(5, start, "112abc", -110),
            entry(5, start + 4_000, "112def", -118),
            entry(6, start + 120_000, "112abc", -109),
        ], "helium.jsonl")
        let result = try await mtt.run(["import", log, "--db", mtt.database])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("imported 2 uplinks (Helium console uplinks) into session 1"), "\(result.stdout)")
        let uplinks = try uplinks()
        try #require(uplinks.count == 2)
        #expect(uplinks[0].receptions.map(\.gatewayID) == ["112abc", "112def"])
        #expect(uplinks[0].receptions.map(\.rssi) == [-110, -118])
        #expect(uplinks[0].networkID == "NS_HELIUM://000024" && uplinks[0].spreadingFactor == 10 && uplinks[0].frequency == 904_100_000)
        #expect(try samples().allSatisfy { $0.method == .payload && $0.position?.latitude == 22.52912 })

        let again = try await mtt.run(["import", log, "--db", mtt.database])
        #expect(again.stdout.hasPrefix("nothing new in \(log) (Helium console uplinks); 2 uplinks already stored"), "\(again.stdout)")
    }

    @Test func aBrokenEntryIsNamedAndNothingIsStored() async throws {
        let log = try write([
            Self.tts(device: "tbeam-1", fCnt: 1, at: "2026-06-21T10:00:00Z"),
            #"{"end_device_ids":{"device_id":"tbeam-1"},"uplink_message":{"f_cnt":"seven"}}"#,
        ], "broken.jsonl")
        let result = try await mtt.run(["import", log, "--db", mtt.database])
        #expect(result.status == 1)
        #expect(result.stderr.contains("entry 2 is not one of The Things Stack uplinks (uplink_message.f_cnt is not an integer"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("nothing was imported\n"))
        #expect(try Store(path: mtt.database, access: .readOnly).status().uplinks == 0)
    }
}
