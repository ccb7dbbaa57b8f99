import Foundation
import MTTCore
import TestSupport
import Testing

/// The coverage map as a user sees it (issue 28): cells zoomed out, dots zoomed in, a click on a
/// cell listing its gateways, one gateway's reach; served from the aggregates, and the same in a
/// report that sums its own rows offline.
@Suite("The coverage map", .serialized)
struct CoverageMapTests {
    let mtt = MTTCommand()

    /// An active drive east of Utrecht's centre: heard cells in every band, some heard by two
    /// gateways, and cells where nobody heard (`MapTestData.drive`: a simulated drive is timed in
    /// real seconds, and on a busy machine did not get far enough from its gateways to be unheard).
    func drive() async throws {
        try MapTestData.drive(try Store(path: mtt.database))
    }

    func serve() async throws -> (ChildProcess.Running, String, Int) {
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "127.0.0.1:\(port)", "--tiles", "none", "--db", mtt.database])
        #expect(await server.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(server.stderr)")
        return (server, "http://127.0.0.1:\(port)/", port)
    }

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) }

    /// The features of a GeoJSON answer of the server.
    static func features(port: Int, _ path: String) async throws -> [[String: Any]] {
        let answer = try await PlainHTTP.get(port: port, path)
        #expect(answer.status == 200, "\(path): \(answer.text)")
        return (try json(answer.text) as? [String: Any])?["features"] as? [[String: Any]] ?? []
    }

    /// The middle of a cell feature's outline, as latitude, longitude.
    static func centre(_ feature: [String: Any]) -> (Double, Double) {
        let ring = ((feature["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first ?? []
        let corners = ring.prefix(4)
        return (corners.map { $0[1] }.reduce(0, +) / Double(corners.count), corners.map { $0[0] }.reduce(0, +) / Double(corners.count))
    }

    /// A string value the page keeps in `#drawn`'s data.
    static func drawn(_ browser: HeadlessBrowser, _ key: String) async throws -> String {
        (try json(try await browser.evaluate("document.getElementById('drawn').dataset.\(key) || ''")) as? String) ?? ""
    }

    /// The map's middle on the page, where a `#view=` link centres it.
    static func mapMiddle(_ browser: HeadlessBrowser) async throws -> (Double, Double) {
        let text = try await browser.evaluate("(function () { var r = document.getElementById('map').getBoundingClientRect(); return [(r.left + r.right) / 2, (r.top + r.bottom) / 2].join(','); })()")
        let parts = text.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: ",").compactMap { Double($0) }
        return (parts[0], parts[1])
    }

    static func choose(_ browser: HeadlessBrowser, _ select: String, _ value: String) async throws {
        _ = try await browser.evaluate("(function () { var s = document.getElementById('\(select)'); s.value = '\(value)'; s.dispatchEvent(new Event('change')); })()")
    }

    /// Waits until the page has drawn no cells for a second (a resize or a second view ends).
    static func settled(_ browser: HeadlessBrowser) async throws -> Bool {
        var last = try await drawn(browser, "cellsAt")
        for _ in 0..<20 {
            // The page's quiet second is what is waited for: a look each second, not a fixed wait.
            try await Task.sleep(for: .seconds(1))
            let now = try await drawn(browser, "cellsAt")
            if now == last { return true }
            last = now
        }
        return false
    }

    /// The page's cells after a change: waits until it drew again after `before` (`cellsAt`).
    static func redrawn(_ browser: HeadlessBrowser, after before: String) async throws -> Bool {
        try await browser.wait(until: "document.getElementById('drawn').dataset.cellsAt !== '\(before)'")
    }

    /// Zoomed out to a city (13), the page draws the cells `/api/cells` gives for the view's tiles
    /// (zoom 18: five finer, some 8 px wide), mapped-but-not-heard ones black, and no dots; zoomed
    /// in (18), the dots, with their outline, and no cells.
    @Test func cellsZoomedOutDotsZoomedIn() async throws {
        try await drive()
        let (server, link, port) = try await serve()
        defer { server.kill() }
        let cells = try await Self.features(port: port, "/api/cells?z=18&bbox=4.9,51.9,5.4,52.3")
        let states = cells.compactMap { ($0["properties"] as? [String: Any])?["state"] as? String }
        #expect(states.contains("heard") && states.contains("not-heard"), "\(states)")
        let heard = try #require(cells.first { ($0["properties"] as? [String: Any])?["state"] as? String == "heard" })
        let (lat, lon) = Self.centre(heard)

        let city = try HeadlessBrowser(url: link + "#view=\(lat),\(lon),13")
        #expect(try await city.wait(until: "document.getElementById('drawn').dataset.cellZoom === '18' && document.getElementById('drawn').dataset.layer === 'cells'"))
        #expect(try await Self.drawn(city, "cells") == String(cells.count))
        let apiColours = Self.colours(cells)
        #expect(try await Self.drawnColours(city) == apiColours)
        let cityShot = try await MapServerTests.coloursOnTheMap(city, shot: mtt.dir.file("cells-13.png"))
        for colour in apiColours.keys {
            #expect(Self.pixels(Self.cell(colour), cityShot) > 0, "\(colour) (a cell: \(Self.cell(colour))) is not on the map:\n\(cityShot)")
        }
        // Dots are opaque, cells not: no band's own colour on the city view (black is the gateways' ring).
        let bands = Set(apiColours.keys).subtracting(["#000000"])
        #expect(bands.allSatisfy { Self.pixels($0, cityShot) == 0 }, "dots drawn on the city view:\n\(cityShot)")

        let street = try HeadlessBrowser(url: link + "#view=\(lat),\(lon),18")
        #expect(try await street.wait(until: "document.getElementById('drawn').dataset.layer === 'dots' && document.getElementById('drawn').dataset.count > 0"))
        let streetShot = try await MapServerTests.coloursOnTheMap(street, shot: mtt.dir.file("dots-18.png"))
        #expect(bands.contains { Self.pixels($0, streetShot) > 20 }, "no dot on the street view:\n\(streetShot)")
        #expect(bands.allSatisfy { Self.pixels(Self.cell($0), streetShot) == 0 }, "cells drawn on the street view:\n\(streetShot)")
        #expect(try await Self.drawn(street, "cells").isEmpty, "cells loaded at zoom 18")
    }

    /// A click on a cell lists the gateways that heard there with their receptions; choosing a
    /// gateway draws its reach, a polygon per level, and narrows the cells to it; the report,
    /// offline, shows the same as the server for each.
    @Test func aCellsGatewaysAndAGatewaysReachServedAndInTheReport() async throws {
        try await drive()
        let (server, link, port) = try await serve()
        defer { server.kill() }
        let report = mtt.dir.file("drive.html")
        #expect(try await mtt.run(["report", "--tiles", "none", "--db", mtt.database, "--out", report]).status == 0)

        let everywhere = "bbox=4.9,51.9,5.4,52.3"
        let cells = try await Self.features(port: port, "/api/cells?z=18&\(everywhere)")
        // The cell heard by the most gateways: the list to check has more than one line when it can.
        let busiest = try #require(cells.max { a, b in
            ((a["properties"] as? [String: Any])?["gateways"] as? Int ?? 0) < ((b["properties"] as? [String: Any])?["gateways"] as? Int ?? 0)
        })
        let p = try #require(busiest["properties"] as? [String: Any])
        let (x, y) = (try #require(p["x"] as? Int), try #require(p["y"] as? Int))
        let gateways = try await Self.features(port: port, "/api/cell?z=18&x=\(x)&y=\(y)").map { f -> [String] in
            let g = f["properties"] as? [String: Any] ?? [:]
            return [g["gateway"] as? String ?? "", String(g["receptions"] as? Int ?? -1)]
        }
        // A tile's "gateways" is the most in any one of its cells: the list has at least as many.
        #expect(gateways.count >= p["gateways"] as? Int ?? .max && !gateways.isEmpty, "\(gateways) for \(p)")
        let receptions = gateways.compactMap { Int($0[1]) }.reduce(0, +)
        #expect(receptions == p["receptions"] as? Int, "the gateways' receptions do not add up to the cell's")
        let north = MapTestData.driveGateways.north
        let reach = try await Self.features(port: port, "/api/reach?gateway=\(north)")
        #expect(!reach.isEmpty)
        let northCells = try await Self.features(port: port, "/api/cells?z=18&\(everywhere)&gateway=\(north)")
        let sf10 = try await Self.features(port: port, "/api/cells?z=18&\(everywhere)&sf=10")
        let sf7 = try await Self.features(port: port, "/api/cells?z=18&\(everywhere)&sf=7")
        #expect(sf10.count == cells.count && sf7.isEmpty, "the drive sends at SF10 only")

        let (lat, lon) = Self.centre(busiest)
        for (page, name) in [(link, "served"), ("file://" + report, "report")] {
            let browser = try HeadlessBrowser(url: page + "#view=\(lat),\(lon),13")
            #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.cellZoom === '18'"), "\(name)")
            #expect(try await Self.drawn(browser, "cells") == String(cells.count), "\(name)")
            #expect(try await Self.drawnColours(browser) == Self.colours(cells), "\(name)")
            // The view is centred on the busiest cell: a click in the middle of the map is on it.
            let (mx, my) = try await Self.mapMiddle(browser)
            try await browser.click(x: mx, y: my)
            #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.cellGateways"), "\(name): the click opened nothing")
            let listed = try #require(try Self.json(try await Self.drawn(browser, "cellGateways")) as? [[Any]])
            #expect(listed.map { ["\($0[0])", "\($0[1])"] } == gateways, "\(name)")
            let popup = try Self.json(try await browser.evaluate("document.querySelector('.leaflet-popup-content') ? document.querySelector('.leaflet-popup-content').textContent : ''")) as? String ?? ""
            #expect(popup.contains(gateways[0][0]) && popup.contains("by signal") && popup.contains(" … "), "\(name): \(popup)")

            _ = try await browser.evaluate("document.querySelector('.leaflet-popup-close-button').click()")
            let plain = try await MapServerTests.coloursOnTheMap(browser, shot: mtt.dir.file("\(name)-plain.png"))
            var before = try await Self.drawn(browser, "cellsAt")
            try await Self.choose(browser, "gateway-filter", north)
            #expect(try await Self.redrawn(browser, after: before), "\(name)")
            #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.reach === '\(reach.count)'"), "\(name): reach not drawn")
            #expect(try await Self.drawn(browser, "cells") == String(northCells.count), "\(name)")
            // Where only other gateways heard, a cell is one this gateway did not hear: black.
            #expect(try await Self.drawnColours(browser) == Self.colours(northCells), "\(name)")
            #expect(Self.colours(northCells)["#000000", default: 0] > Self.colours(cells)["#000000", default: 0], "\(name)")
            let withReach = try await MapServerTests.coloursOnTheMap(browser, shot: mtt.dir.file("\(name)-reach.png"))
            // The gateway hears the drive only weakly: its reach is the widest level's, outlined in
            // the weakest band's blue (cells are drawn translucent, never in the pure colour).
            #expect(Self.pixels("#0000ff", withReach) > Self.pixels("#0000ff", plain) + 50, "\(name): no reach on the map\n\(withReach)")

            before = try await Self.drawn(browser, "cellsAt")
            try await Self.choose(browser, "gateway-filter", "")
            try await Self.choose(browser, "sf-filter", "7")
            #expect(try await Self.redrawn(browser, after: before), "\(name)")
            #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.cells === '0'"), "\(name): SF7 cells drawn")
        }
    }

    /// Mapped in June 2026 (the map tests' data, months before these tests run): with "fade by
    /// age", the cells are drawn fainter than the 70 % of new coverage, and still drawn.
    @Test func oldCellsFadeWhenAsked() async throws {
        try MapTestData.fill(try Store(path: mtt.database))
        let report = mtt.dir.file("old.html")
        #expect(try await mtt.run(["report", "--tiles", "none", "--db", mtt.database, "--out", report]).status == 0)
        let here = MapTestData.here
        let browser = try HeadlessBrowser(url: "file://" + report + "#view=\(here.latitude),\(here.longitude),14")
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.cells > 0"))
        // The page's box may still settle (the header wraps), and the cells with it.
        #expect(try await Self.settled(browser))
        let cells = try await Self.drawn(browser, "cells")
        let colours = try await Self.drawnColours(browser).keys.filter { $0.hasPrefix("#") }
        let full = try await MapServerTests.coloursOnTheMap(browser, shot: mtt.dir.file("full.png"))
        #expect(colours.contains { Self.pixels(Self.cell($0), full) > 0 }, "\(colours) not drawn at 70 %:\n\(full)")
        let before = try await Self.drawn(browser, "cellsAt")
        _ = try await browser.evaluate("(function () { var f = document.getElementById('fade'); f.checked = true; f.dispatchEvent(new Event('change')); })()")
        #expect(try await Self.redrawn(browser, after: before))
        #expect(try await Self.drawn(browser, "cells") == cells)
        let faded = try await MapServerTests.coloursOnTheMap(browser, shot: mtt.dir.file("faded.png"))
        #expect(colours.allSatisfy { Self.pixels(Self.cell($0), faded) == 0 }, "cells still at 70 %:\n\(faded)")
        #expect(colours.contains { c in (1...6).contains { Self.pixels(Self.cell(c, opacity: 0.7 - 0.1 * Double($0)), faded) > 0 } }, "no faded cell:\n\(faded)")
    }

    /// A gateway that keeps its position to itself is placed where it heard you best, and the map
    /// says the position is estimated: on the marker's label and in the table (the marker is drawn
    /// dashed, on the canvas).
    @Test func anEstimatedGatewayIsMarkedAsSuch() async throws {
        let store = try Store(path: mtt.database)
        try MapTestData.heardSamples(store, at: (0..<4).map { MapTestData.here.offset(metres: Double($0) * 100, bearing: 45) },
                                     receptions: [GatewayReception(gatewayID: "quiet-gw", rssi: -100, snr: 3)])
        let report = mtt.dir.file("estimated.html")
        #expect(try await mtt.run(["report", "--tiles", "none", "--db", mtt.database, "--out", report]).status == 0)
        let browser = try HeadlessBrowser(url: "file://" + report)
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.count === '4'"))
        let table = try Self.json(try await browser.evaluate("document.getElementById('gateways').textContent")) as? String ?? ""
        #expect(table.contains("quiet-gw") && table.contains("≈ 52.09") && table.contains("(estimated)"), "\(table)")
        let label = try Self.json(try await browser.evaluate("Array.from(document.querySelectorAll('.leaflet-tooltip')).map(function (t) { return t.textContent; }).join('|')")) as? String ?? ""
        #expect(label.contains("quiet-gw (estimated position)"), "\(label)")
    }

    /// Cells per colour, as the server gives them.
    static func colours(_ cells: [[String: Any]]) -> [String: Int] {
        var colours: [String: Int] = [:]
        for cell in cells { colours[(cell["properties"] as? [String: Any])?["color"] as? String ?? "", default: 0] += 1 }
        return colours
    }

    /// Cells per colour, as the page drew them.
    static func drawnColours(_ browser: HeadlessBrowser) async throws -> [String: Int] {
        try json(try await drawn(browser, "cellColours")) as? [String: Int] ?? [:]
    }

    /// The pixel count of `colour` in `pngcolours.py`'s lines, give or take one in each channel
    /// (the browser's rounding of a blend).
    static func pixels(_ colour: String, _ lines: String) -> Int {
        let want = rgb(colour)
        return lines.split(separator: "\n").reduce(0) { sum, line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, zip(rgb(String(parts[0])), want).allSatisfy({ abs($0 - $1) <= 1 }) else { return sum }
            return sum + (Int(parts[1]) ?? 0)
        }
    }

    static func rgb(_ hex: String) -> [Int] {
        let digits = Array(hex.dropFirst())
        guard digits.count == 6 else { return [-9, -9, -9] }
        return (0..<3).map { Int(String(digits[2 * $0...2 * $0 + 1]), radix: 16) ?? -9 }
    }

    /// How a cell of `colour` shows on the page: drawn at 70 % (a reach's fill at 12 %) over the
    /// map's plain background (`#e9ecef`, no tiles in the tests).
    static func cell(_ colour: String, opacity: Double = 0.7) -> String {
        let blend = zip(rgb(colour), rgb("#e9ecef")).map { Int((opacity * Double($0) + (1 - opacity) * Double($1)).rounded()) }
        return "#" + blend.map { String(format: "%02x", $0) }.joined()
    }
}
