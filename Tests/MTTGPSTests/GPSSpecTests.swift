import MTTCore
import MTTGPS
import Testing

/// `--gps` read through MTTGPS's registry of fix source kinds: each spec goes to its kind, reads
/// back with its defaults filled in, and makes the source it names.
@Suite("GPS specs")
struct GPSSpecTests {
    static func spec(_ text: String) throws(SpecError) -> GPSSpec {
        try GPSSpec(parsing: text, kinds: FixSourceKind.gps)
    }

    @Test(arguments: [
        ("gpsd", "gpsd", "gpsd://127.0.0.1:2947"),
        ("gpsd://", "gpsd", "gpsd://127.0.0.1:2947"),
        ("gpsd://pi.local", "gpsd", "gpsd://pi.local:2947"),
        ("gpsd://10.1.2.3:3000", "gpsd", "gpsd://10.1.2.3:3000"),
        ("gpsd://[::1]:2948", "gpsd", "gpsd://[::1]:2948"),
        ("nmea:drive.log", "nmea", "nmea:drive.log"),
        ("nmea:/tmp/a b.nmea?speed=10", "nmea", "nmea:/tmp/a b.nmea?speed=10"),
        ("nmea:x?speed=0", "nmea", "nmea:x?speed=0"),
        ("fixed:52.09,5.12", "fixed", "fixed:52.09,5.12"),
        ("fixed:-33.9,151.2,40", "fixed", "fixed:-33.9,151.2,40.0"),
        ("fake", "fake", "fake"),
        ("fake:42", "fake", "fake:42"),
    ])
    func readsByItsKind(text: String, kind: String, readsBack: String) throws {
        let spec = try Self.spec(text)
        #expect(spec.kind.name == kind)
        #expect(spec.description == readsBack)
        #expect(spec.source().spec == readsBack, "the source made is the one the spec names")
    }

    @Test(arguments: [
        "", "gps", "gpsd://host:0", "gpsd://host:99999", "gpsd://:2947", "gpsdx", "nmea:", "nmea:x?fast=1",
        "nmea:x?speed=-1", "fixed:91,0", "fixed:0,181", "fixed:1", "fixed:a,b", "fixed:1,2,3,4", "fake:x",
    ])
    func refusesWithTheAcceptedForms(text: String) {
        #expect {
            try Self.spec(text)
        } throws: { error in
            (error as? SpecError)?.description.hasPrefix("bad GPS spec \(text)") == true
        }
    }

    @Test func anUnknownKindIsRefusedWithEveryForm() {
        #expect(throws: SpecError("bad GPS spec serial:/dev/ttyACM0: use gpsd[://HOST:PORT], nmea:FILE[?speed=N], fixed:LAT,LON[,ALT], fake[:SEED] or jsonl:FILE")) {
            try Self.spec("serial:/dev/ttyACM0")
        }
    }

    @Test func describesItselfAsParsed() throws {
        for text in ["gpsd://127.0.0.1:2947", "gpsd://[::1]:2948", "nmea:x.log", "nmea:x.log?speed=10", "fixed:52.09,5.12", "fake", "fake:9"] {
            #expect(try Self.spec(text).description == text)
        }
    }

    @Test func onlyTheSimulatedDriveFollowsTheRunClock() throws {
        #expect(FixSourceKind.gps.filter(\.followsTheRunClock).map(\.name) == ["fake"])
        #expect(FixSourceKind.gps.compactMap(\.simulatedAs) == ["GPS replayed from a file", "fake GPS", "GPS scripted in JSON lines"])
    }
}
