import FoundationEssentials
import Glibc
import MTTCore

/// Leaflet, as Debian's libjs-leaflet installs it, found when the map starts; and the map's own
/// page, script and style. Served from this fixed table only: no path in a URL ever names a file.
public struct MapAssets: Sendable {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// Where Debian (and a local install) put Leaflet.
    public static let leafletFolders = ["/usr/share/javascript/leaflet", "/usr/local/share/javascript/leaflet"]
    /// OpenStreetMap's tiles, used when the browser is online.
    public static let openStreetMap = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    public static let openStreetMapAttribution = "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"

    let leafletScript: String
    let leafletStyle: String
    /// A tile URL template (`{z}/{x}/{y}`), or nil for no tiles at all.
    public var tiles: String?
    public var attribution: String
    /// The page of a community's map (`mtt serve --db postgresql://…`): coverage only.
    public var community = false

    public static func load(tiles: String? = openStreetMap, attribution: String? = nil) throws(Missing) -> MapAssets {
        for folder in leafletFolders {
            if let script = try? String(contentsOfFile: folder + "/leaflet.js", encoding: .utf8),
               let style = try? String(contentsOfFile: folder + "/leaflet.css", encoding: .utf8) {
                return MapAssets(
                    leafletScript: script, leafletStyle: style, tiles: tiles,
                    attribution: attribution ?? (tiles == openStreetMap ? openStreetMapAttribution : ""))
            }
        }
        throw Missing(description: "Leaflet is not installed (the map draws with Debian's copy): sudo apt install libjs-leaflet")
    }

    /// The page's settings, as JSON for a data block (`MapPage.dataBlock`).
    var configuration: String {
        let tiles = self.tiles.map(JSONString.quoted) ?? "null"
        // The bands come from MTTCore, as every export's colours do: the page has no copy of its own.
        let bands = SignalBand.allCases.map { "[\(JSONString.quoted($0.hexColor)), \(JSONString.quoted($0.label))]" }.joined(separator: ", ")
        // A cell's buckets by index (as a report's rows count them): name, colour, range.
        let buckets = SignalBucket.allCases.map {
            "[\(JSONString.quoted($0.name)), \(JSONString.quoted($0.band.hexColor)), \(JSONString.quoted($0.label))]"
        }.joined(separator: ", ")
        let unheard = "{\"not-heard\": \(JSONString.quoted(CoverageLayer.notHeardColor)), \"unknown\": \(JSONString.quoted(CoverageLayer.unknownColor)), "
            + "\"not-heard-estimated\": \(JSONString.quoted(CoverageLayer.estimatedColor)), \"heard-linkcheck\": \(JSONString.quoted(CoverageLayer.linkCheckColor))}"
        return "{\"tiles\": \(tiles), \"attribution\": \(JSONString.quoted(attribution)), \"bands\": [\(bands)], \"buckets\": [\(buckets)], \"unheard\": \(unheard), \"community\": \(community)}"
    }

    /// The page as the server sends it: Leaflet, the script and the style by their fixed paths,
    /// the settings as data; it goes out with `MapPage.servedPolicy`.
    var servedPage: String {
        MapPage.html(title: community ? "mtt community coverage" : "mtt coverage", .init(
            head: #"<link rel="stylesheet" href="leaflet/leaflet.css"><link rel="stylesheet" href="app.css">"#,
            scripts: MapPage.dataBlock("mtt-config", configuration) + #"<script src="leaflet/leaflet.js"></script><script src="app.js"></script>"#))
    }

    /// A static file of the page by its path, or nil: the whole table.
    func file(_ path: String) -> (type: String, body: String)? {
        switch path {
        case "/leaflet/leaflet.js": ("text/javascript; charset=utf-8", leafletScript)
        case "/leaflet/leaflet.css": ("text/css; charset=utf-8", leafletStyle)
        case "/app.js": ("text/javascript; charset=utf-8", MapScript.text)
        case "/app.css": ("text/css; charset=utf-8", MapStyle.text)
        default: nil
        }
    }
}
