import ArgumentParser
import Foundation
import MTTCore
import MTTPostgres
import MTTSystem
import MTTWeb

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the coverage map, its JSON API and metrics from the database.",
        discussion: """
            Open the link it prints. The page draws every sample in TTN Mapper's colours, attempts \
            nobody heard in black, the track and the gateways; a click on a dot shows its details and \
            lines to its gateways. The status block follows what a collection writes to the same \
            database, live. On a phone: run it on the Pi with --listen 0.0.0.0:8080 and open the \
            printed link (it carries a token) on the phone on the Pi's Wi-Fi. Nothing on the server \
            changes data.

            API: /api/status (as mtt status --json), /api/sessions, /api/samples.geojson and \
            /api/track.geojson (?session=N&since=TIME&until=TIME), /api/gateways, /api/cells \
            (?z=ZOOM&bbox=W,S,E,N, coverage tiles), /api/cell (?z=&x=&y=, its gateways), /api/reach \
            (?gateway=ID), /api/predicted (?z=&bbox=, from zoom 12), /api/diff (?since=TIME), \
            /api/events (Server-Sent Events), /metrics (Prometheus). Vector tiles for QGIS and caches: \
            /tiles/LAYER/Z/X/Y.mvt, LAYER one of cells, unheard, reach, gateways, predicted.

            A community's map: --db postgresql://USER@HOST/DATABASE serves the coverage of a \
            community database (mtt community) as a role made by mtt community grant-map, whose \
            password comes from ~/.pgpass or PGPASSWORD. The page draws everybody's cells at every \
            zoom, the gateways and their reach, the predicted layer and each mapper's totals; \
            nobody's drive. A hot standby of the database serves it as well (a host list with \
            ?target_session_attrs=prefer-standby takes whichever answers, the standby first).
            """)

    @Option(help: ArgumentHelp("\(ConfigKey.serveListen.help) (default \(ConfigKey.serveListen.defaultText))", valueName: "host:port"))
    var listen: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp(
        "Off loopback: the token, from a file only you can read (default: a new one each start, printed in the link).", valueName: "file"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("Map tiles when the browser is online: a URL with {z}/{x}/{y}, or none (default OpenStreetMap).", valueName: "url"))
    var tiles: String?

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        var flags: [ConfigKey: ConfigValue] = [:]
        flags[.serveListen] = listen.map { .text($0) }
        flags[.serveTokenFile] = tokenFile.map { .text($0) }
        flags[.serveTiles] = tiles.map { .text($0) }
        let settings = try database.settings(flags)
        let serving = try MapServing.served(by: settings)
        let server: MapServer, links: [String]
        if let url = database.path, DatabaseOptions.isCommunityURL(url) {
            let community: CommunityMapReader
            do {
                community = try CommunityMapReader(url: url, timeout: settings.amount(.serveQueryTimeout))
            } catch {
                throw RuntimeFailure("cannot serve the community map: \(error)")
            }
            (server, links) = try await serving.start(community: community)
        } else {
            (server, links) = try await serving.start(store: try database.openStore(.readOnly, in: settings))
        }
        // Watched before the links are printed: a supervisor that stops mtt as soon as it says
        // where the map is gets a clean stop, not a death by signal.
        let stop = StopSignal()
        let interrupts = InterruptWatch { stop.fire() }
        defer { interrupts.cancel() }
        for link in links { Console.out("mtt: the map is at \(link)") }
        // Serving for hours on a Pi: the start-up's pages go back to the system.
        StartUpPages.release()
        while !stop.fired { try? await Task.sleep(for: .milliseconds(200)) }
        server.stop()
    }
}
