import Foundation
import MTTCore
import TestSupport
import Testing

/// Gateway ids come from the network, that is from anyone who runs a gateway (issue 34, item 6):
/// one that is markup must show as text in the served map and the report, with the mouse over
/// its marker as a user's would be, and run nothing.
@Suite("The map shows data as text", .serialized)
struct MapInjectionTests {
    let mtt = MTTCommand()
    static let hostileID = #"<img src=x onerror="document.title='pwned';window.pwned=1">"#

    /// One heard sample 200 m south of the hostile gateway: the map centres on the sample.
    func fill() throws {
        let gateway = MapTestData.here.offset(metres: 200, bearing: 0)
        try MapTestData.oneHeardSample(
            try Store(path: mtt.database),
            receptions: [GatewayReception(gatewayID: Self.hostileID, rssi: -90, snr: 5, time: MapTestData.start, location: gateway)])
    }

    /// Moves the mouse up from the map's centre (the sample) until the gateway marker's tooltip
    /// shows, as a user looking for it would; its text, and whether any script ran.
    func hoverTheGateway(_ browser: HeadlessBrowser) async throws -> (tooltip: String?, ran: Bool) {
        #expect(try await browser.wait(until: "document.getElementById('drawn').dataset.count === '1'"), "the page drew nothing")
        // Asked until the page answers with a point (DevTools gives null while a page is busy).
        var point: [Double]?
        try await eventually(timeout: 10) {
            let centre = try await browser.evaluate(
                "(function () { var r = document.getElementById('map').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
            point = try JSONSerialization.jsonObject(with: Data(centre.utf8), options: .fragmentsAllowed) as? [Double]
            return point != nil
        }
        let centre = try #require(point, "the page never said where its map is")
        var tooltip: String?
        for up in stride(from: 40.0, through: 400, by: 6) where tooltip == nil {
            try await browser.hover(x: centre[0], y: centre[1] - up)
            let text = try await browser.evaluate("(function () { var t = document.querySelector('.leaflet-tooltip'); return t ? t.textContent : null; })()")
            tooltip = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? String
        }
        let ran = try await browser.evaluate("window.pwned === 1 || document.title === 'pwned' || document.querySelectorAll('img[src=x]').length > 0")
        return (tooltip, ran == "true")
    }

    @Test func aGatewayIdThatIsMarkupShowsAsTextInTheServedMap() async throws {
        try fill()
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "127.0.0.1:\(port)", "--tiles", "none", "--db", mtt.database])
        defer { server.kill() }
        #expect(await server.waitForOutput(timeout: 30) { $0.contains("the map is at") }, "\(server.stderr)")
        let page = try await PlainHTTP.get(port: port, "/")
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true, "\(page.headers)")
        let browser = try HeadlessBrowser(url: "http://127.0.0.1:\(port)/")
        let (tooltip, ran) = try await hoverTheGateway(browser)
        #expect(tooltip == Self.hostileID)
        #expect(!ran, "the gateway id ran as script")
        let table = try await browser.evaluate("document.getElementById('gateways').textContent")
        #expect(table.contains("onerror"), "\(table)")
    }

    @Test func aGatewayIdThatIsMarkupShowsAsTextInTheReport() async throws {
        try fill()
        let report = mtt.dir.file("report.html")
        let written = try await mtt.run(["report", "--db", mtt.database, "--out", report, "--tiles", "none"])
        #expect(written.status == 0, "\(written.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("http-equiv=\"Content-Security-Policy\"") && !html.contains("<img src=x"))
        let browser = try HeadlessBrowser(url: "file://" + report)
        let (tooltip, ran) = try await hoverTheGateway(browser)
        #expect(tooltip == Self.hostileID)
        #expect(!ran, "the gateway id ran as script")
    }
}
