import MTTCore
import Testing

@Suite("GPS specs")
struct GPSSpecTests {
    @Test(arguments: [
        ("gpsd", GPSSpec.gpsd(host: "127.0.0.1", port: 2947)),
        ("gpsd://", .gpsd(host: "127.0.0.1", port: 2947)),
        ("gpsd://pi.local", .gpsd(host: "pi.local", port: 2947)),
        ("gpsd://10.1.2.3:3000", .gpsd(host: "10.1.2.3", port: 3000)),
        ("gpsd://[::1]:2948", .gpsd(host: "::1", port: 2948)),
        ("nmea:drive.log", .nmea(path: "drive.log", speed: 1)),
        ("nmea:/tmp/a b.nmea?speed=10", .nmea(path: "/tmp/a b.nmea", speed: 10)),
        ("nmea:x?speed=0", .nmea(path: "x", speed: 0)),
        ("fixed:52.09,5.12", .fixed(GeoPoint(latitude: 52.09, longitude: 5.12))),
        ("fixed:-33.9,151.2,40", .fixed(GeoPoint(latitude: -33.9, longitude: 151.2, altitude: 40))),
        ("fake", .fake(seed: 1)),
        ("fake:42", .fake(seed: 42)),
    ])
    func parses(text: String, expected: GPSSpec) throws {
        #expect(try GPSSpec(parsing: text) == expected)
    }

    @Test(arguments: [
        "", "gps", "gpsd://host:0", "gpsd://host:99999", "gpsd://:2947", "nmea:", "nmea:x?fast=1",
        "nmea:x?speed=-1", "fixed:91,0", "fixed:0,181", "fixed:1", "fixed:a,b", "fixed:1,2,3,4", "fake:x",
    ])
    func refusesWithTheAcceptedForms(text: String) {
        #expect {
            try GPSSpec(parsing: text)
        } throws: { error in
            (error as? SpecError)?.description.hasPrefix("bad GPS spec \(text)") == true
        }
    }

    @Test func describesItselfAsParsed() throws {
        for text in ["gpsd://127.0.0.1:2947", "gpsd://[::1]:2948", "nmea:x.log", "nmea:x.log?speed=10", "fixed:52.09,5.12", "fake", "fake:9"] {
            #expect(try GPSSpec(parsing: text).description == text)
        }
    }
}
