// A country's mappers, for the community benchmark (scripts/community-bench): one mtt database
// per mapper, each a year of listener drives over a country the size of the Netherlands, dense in
// its cities and sparse on the roads between them, heard by the gateways a community has (many in
// the cities, few in the country).
//
//   CountryDrives FOLDER MAPPERS SAMPLES_PER_MAPPER [FIRST]
//
// Writes FOLDER/mapper-NN.sqlite (NN from FIRST, 1 by default: one more mapper for a community
// already made is the same drives as in a bigger run) and prints, per mapper, its samples and the receptions its
// cells count (what the community's cells must add up to).
import Foundation
import MTTCore
import Synchronization

struct City {
    let name: String
    let centre: GeoPoint
}

let cities: [City] = [
    ("Amsterdam", 52.370, 4.895), ("Rotterdam", 51.922, 4.479), ("The Hague", 52.078, 4.300), ("Utrecht", 52.091, 5.121),
    ("Eindhoven", 51.441, 5.470), ("Groningen", 53.219, 6.567), ("Tilburg", 51.556, 5.091), ("Almere", 52.371, 5.222),
    ("Breda", 51.589, 4.776), ("Nijmegen", 51.842, 5.853), ("Enschede", 52.222, 6.894), ("Zwolle", 52.517, 6.083),
    ("Maastricht", 50.851, 5.691), ("Leeuwarden", 53.201, 5.800), ("Arnhem", 51.985, 5.899),
].map { City(name: $0.0, centre: GeoPoint(latitude: $0.1, longitude: $0.2)) }

/// The community's gateways: 30 around each city's centre, 250 spread over the country.
struct Gateways {
    struct Gateway {
        let id: String
        let eui: String
        let place: GeoPoint
    }
    let all: [Gateway]
    /// Gateways by 0.2° of latitude and 0.3° of longitude, for the search around a sample.
    private let grid: [Int: [Int]]

    init(using g: inout SplitMix64) {
        var places: [GeoPoint] = []
        for city in cities {
            for _ in 0..<30 {
                places.append(city.centre.destination(metres: 7_000 * Double.random(in: 0...1, using: &g).squareRoot(), bearing: Double.random(in: 0..<360, using: &g)))
            }
        }
        for _ in 0..<250 {
            places.append(GeoPoint(latitude: Double.random(in: 50.8...53.4, using: &g), longitude: Double.random(in: 3.5...7.1, using: &g)))
        }
        all = places.enumerated().map { i, p in
            let eui = String(format: "B827EBFFFE%06X", i)
            return Gateway(id: "eui-" + eui.lowercased(), eui: eui, place: p)
        }
        var grid: [Int: [Int]] = [:]
        for (i, gateway) in all.enumerated() { grid[Self.key(gateway.place), default: []].append(i) }
        self.grid = grid
    }

    private static func key(_ p: GeoPoint) -> Int { Int((p.latitude / 0.2).rounded(.down)) * 10_000 + Int((p.longitude / 0.3).rounded(.down)) }

    /// The strongest three that hear an uplink sent at `p`: -60 dBm at 100 m, 30 dB a decade on,
    /// ±6 dB, heard above -125 dBm (some 15 km).
    func heard(at p: GeoPoint, using g: inout SplitMix64) -> [(Gateway, Double)] {
        let row = Int((p.latitude / 0.2).rounded(.down)), column = Int((p.longitude / 0.3).rounded(.down))
        var heard: [(Gateway, Double)] = []
        for r in (row - 1)...(row + 1) {
            for c in (column - 1)...(column + 1) {
                for i in grid[r * 10_000 + c] ?? [] {
                    let metres = all[i].place.distance(to: p)
                    guard metres < 20_000 else { continue }
                    let rssi = -60 - 30 * log10(max(metres, 10) / 100) + Double.random(in: -6...6, using: &g)
                    if rssi > -125 { heard.append((all[i], rssi.rounded())) }
                }
            }
        }
        return Array(heard.sorted { $0.1 > $1.1 }.prefix(3))
    }
}

/// One mapper's year: sessions of 1,000 uplinks 10 s apart, spread over the twelve months before
/// December 2026; walks in the home city (15 m a step, within 6 km of its centre), now and then a
/// drive to another city (250 m a step, straight there) and walks there.
func drive(mapper: Int, samples: Int, gateways: Gateways, into path: String) throws -> (samples: Int, receptions: Int) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let store = try Store(path: path)
    var g = SplitMix64(seed: 1_000 + UInt64(mapper))
    var city = cities[mapper % cities.count]
    var here = city.centre
    var destination: City?
    let year = RFC3339.parse("2025-12-01T08:00:00Z")!
    let sessions = max(1, samples / 1_000)
    var made = 0, fCnt: UInt32 = 0
    for s in 0..<sessions {
        var time = year.adding(seconds: Double(s) * 360 * 86_400 / Double(sessions) + Double(mapper) * 97)
        let session = try store.sessions.startSession(mode: .listener, at: time)
        let target = s == sessions - 1 ? samples : min(samples, made + 1_000)
        while made < target {
            try store.batch { batch in
                while made < target {
                    if let goal = destination {
                        here = here.destination(metres: 250, bearing: here.bearing(to: goal.centre) + Double.random(in: -10...10, using: &g))
                        if here.distance(to: goal.centre) < 3_000 { city = goal; destination = nil }
                    } else {
                        let bearing = here.distance(to: city.centre) > 6_000 ? here.bearing(to: city.centre) : Double.random(in: 0..<360, using: &g)
                        here = here.destination(metres: 15, bearing: bearing)
                        if Double.random(in: 0..<1, using: &g) < 0.0005 { destination = cities.filter { $0.name != city.name }.randomElement(using: &g) }
                    }
                    time = time.adding(seconds: 10)
                    fCnt &+= 1
                    let heard = gateways.heard(at: here, using: &g)
                    guard !heard.isEmpty else { continue }  // nobody heard it: a listener has no sample
                    let uplink = Uplink(
                        deviceID: "mapper-\(mapper)", devEUI: String(format: "0004A30B%08X", mapper), fCnt: fCnt, spreadingFactor: 7 + Int(fCnt % 6),
                        receivedAt: time, networkID: "NS_TTS_V3://ttn@000013",
                        receptions: heard.map { gateway, rssi in
                            GatewayReception(gatewayID: gateway.id, gatewayEUI: gateway.eui, rssi: rssi, snr: Double.random(in: -15...9, using: &g).rounded(), location: gateway.place)
                        })
                    let id = try batch.record(uplink, session: session)
                    try batch.record(Sample(sessionID: session, subject: .uplink(id), time: time, position: here, method: .interpolated))
                    made += 1
                    if made % 5_000 == 0 { break }
                }
            }
        }
        try store.sessions.endSession(session, at: time)
    }
    var receptions = 0
    try store.coverage.forEachGatewayCell(CoverageFilter()) { receptions += $0.receptions }
    return (made, receptions)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5, let mappers = Int(arguments[2]), let perMapper = Int(arguments[3]),
      let first = arguments.count == 5 ? Int(arguments[4]) : 1 else {
    FileHandle.standardError.write(Data("usage: CountryDrives FOLDER MAPPERS SAMPLES_PER_MAPPER [FIRST]\n".utf8))
    exit(2)
}
var seed = SplitMix64(seed: 48)
let gateways = Gateways(using: &seed)
let results = Mutex<[Int: (samples: Int, receptions: Int)]>([:])
DispatchQueue.concurrentPerform(iterations: mappers) { m in
    let mapper = first + m
    do {
        let result = try drive(mapper: mapper, samples: perMapper, gateways: gateways, into: "\(arguments[1])/mapper-\(String(format: "%02d", mapper)).sqlite")
        results.withLock { $0[mapper] = result }
    } catch {
        FileHandle.standardError.write(Data("mapper \(mapper): \(error)\n".utf8))
        exit(1)
    }
}
for (mapper, result) in results.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
    print("mapper-\(String(format: "%02d", mapper)) \(result.samples) \(result.receptions)")
}
