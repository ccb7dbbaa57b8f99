import FoundationEssentials
import Glibc
import MTTCore
import Synchronization

/// `mtt serve` and `mtt collect --web`: the map page, its JSON API, live events and metrics; and
/// `mtt serve --db postgresql://…`: a community's coverage map, without anybody's drive.
/// Read-only: no request changes anything in the database.
public final class MapServer: Sendable {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    private enum Source: Sendable {
        /// This machine's database: drives, coverage, live status.
        case local(Store, LiveFeed)
        /// A community's database: coverage and what each mapper gave.
        case community(any CommunityCoverageReader)
    }

    private let source: Source
    private let coverage: any CoverageReader
    private let assets: MapAssets
    private let access: WebAccess
    private let listen: HostPort
    private let metrics = MapMetrics()
    private let heavy = HeavyRequests()
    private let predictions = PredictionCache()
    private let silence = SilentGatewayWatch()
    private let listener = Mutex<HTTPListener?>(nil)

    /// - Parameter run: the collection running in this process, for the status block.
    /// `clock`: what the live feed's second and its uplinks' grace run on.
    public init(store: Store, listen: HostPort, access: WebAccess, assets: MapAssets, run: RunView? = nil, clock: any TimeSource = SystemClock()) {
        source = .local(store, LiveFeed(store: store, run: run, clock: clock))
        coverage = store.coverage
        self.assets = assets
        self.access = access
        self.listen = listen
    }

    /// A community's map: the page in its community form, and only the coverage routes.
    public init(community: any CommunityCoverageReader, listen: HostPort, access: WebAccess, assets: MapAssets) {
        source = .community(community)
        coverage = community
        var assets = assets
        assets.community = true
        self.assets = assets
        self.access = access
        self.listen = listen
    }

    /// Starts listening; returns the address, with the port the system chose for port 0.
    public func start() throws(Problem) -> HostPort {
        let listener = try HTTPListener(listen: listen) { [weak self] request in
            self?.respond(to: request) ?? .text(503, "the map is stopping\n")
        }
        self.listener.withLock { $0 = listener }
        return HostPort(host: listen.host, port: listener.port)
    }

    public func stop() {
        listener.withLock { $0?.stop() }
        if case .local(_, let live) = source { live.stop() }
    }

    /// Routes from the fixed table; everything else is 404.
    func respond(to request: MapRequest) -> MapResponse {
        if let file = assets.file(request.path) {
            return .whole(status: 200, type: file.type, body: Array(file.body.utf8))
        }
        let known = [
            "/", "/api/status", "/api/sessions", "/api/samples.geojson", "/api/track.geojson", "/api/gateways", "/api/cells", "/api/cell", "/api/reach",
            "/api/predicted", "/api/diff", "/api/events", "/metrics",
        ]
        let tile: VectorTileRequest?
        do {
            tile = try VectorTileRequest(path: request.path)
        } catch {
            return .text(400, error.description + "\n")
        }
        guard tile != nil || known.contains(request.path) else { return .text(404, "no such page: \(request.path)\n") }
        if request.query.count(where: { $0.name == "token" }) > 1 { return .text(400, "token is given twice\n") }
        guard access.allows(authorization: request.headers["authorization"], queryToken: request.query("token")) else {
            return .whole(
                status: 401, type: "text/plain; charset=utf-8",
                body: Array("this map needs its token: open the link mtt printed when it started (…?token=…)\n".utf8),
                headers: ["WWW-Authenticate": "Bearer"])
        }
        let items = request.query.filter { $0.name != "token" }
        do {
            if let tile { return try vectorTile(tile, ifNoneMatch: request.headers["if-none-match"]) }
            switch request.path {
            case "/":
                return .whole(
                    status: 200, type: "text/html; charset=utf-8", body: Array(assets.servedPage.utf8),
                    headers: ["Content-Security-Policy": MapPage.servedPolicy])
            // Coverage is read before the first byte goes out (a database that fails mid-answer
            // must not look like a 200 with an empty body), and written feature by feature. At most
            // `HeavyRequests.limit` at once, each holding its turn until it is written.
            // Without the gateways silent for days, unless asked for; then their cells are marked
            // `silent` (the page fades them).
            case "/api/cells":
                let query = try coverageQuery(items, .cells)
                let turn = heavy.turn()
                let silent = try silence.silent(coverage, days: query.silentDays)
                let zoom = query.range?.zoom ?? MapTile.cellZoom
                var current = query.filter
                current.hiddenGateways = silent.ids
                let cells = try coverage.coverageCells(current, zoom: zoom, within: query.range)
                guard query.showSilent, !silent.ids.isEmpty else { return Self.geoJSON(cells, holding: turn) { [CoverageLayer.feature($0)] } }
                let heardLately = Set(cells.lazy.filter { $0.receptions > 0 }.map(\.tile))
                return Self.geoJSON(try coverage.coverageCells(query.filter, zoom: zoom, within: query.range), holding: turn) { cell in
                    var feature = CoverageLayer.feature(cell)
                    if cell.receptions > 0, !heardLately.contains(cell.tile) { feature.properties["silent"] = .bool(true) }
                    return [feature]
                }
            case "/api/cell":
                let query = try coverageQuery(items, .cell)
                let turn = heavy.turn()
                let silent = try silence.silent(coverage, days: query.silentDays)
                var filter = query.filter
                if !query.showSilent { filter.hiddenGateways = silent.ids }
                var cells: [GatewayCell] = []
                try coverage.forEachGatewayCell(filter, zoom: query.range?.zoom ?? MapTile.cellZoom, within: query.range, perSpreadingFactor: false) {
                    cells.append($0)
                }
                // Who heard you best first: what a click on a cell wants to know.
                cells.sort { ($1.receptions, $0.gateway) < ($0.receptions, $1.gateway) }
                return Self.geoJSON(cells, holding: turn) { cell in
                    var feature = CoverageLayer.feature(cell)
                    if let days = silent.silentDays(cell.gateway) { feature.properties["silent_days"] = .number(days) }
                    return [feature]
                }
            // The tiles nobody measured in the view, predicted at zoom 17 (`z` is ignored but for a
            // view too wide: under 12 the answer is empty, as the layer would be a smear).
            case "/api/predicted":
                let query = try coverageQuery(items, .cells)
                guard let range = query.range, range.zoom >= 12 else { return Self.geoJSON([PredictedTile](), holding: heavy.turn()) { [CoverageLayer.feature($0)] } }
                let turn = heavy.turn()
                let tiles = try predictedTiles(
                    from: MapTile(zoom: range.zoom, x: range.minX, y: range.minY).northWest, to: MapTile(zoom: range.zoom, x: range.maxX, y: range.maxY).southEast,
                    query.filter)
                return Self.geoJSON(tiles, holding: turn) { [CoverageLayer.feature($0)] }
            case "/api/reach":
                let query = try coverageQuery(items, .reach)
                let turn = heavy.turn()
                let reaches = try coverage.reach(gateway: query.filter.gateway)
                return Self.geoJSON(reaches, holding: turn, CoverageLayer.features)
            default:
                switch source {
                case .local(let store, let live): return try respond(to: request.path, items, store, live)
                case .community(let community): return try respond(to: request.path, items, community)
                }
            }
        } catch let invalid as MapQuery.Invalid {
            return .text(400, invalid.description + "\n")
        } catch {
            // The database is away or refused: said as JSON the page shows, and a status that
            // says to try again.
            return .whole(status: 503, type: "application/json", body: Array("{\"error\":\(JSONString.quoted("\(error)"))}\n".utf8))
        }
    }

    /// `items` written as GeoJSON, each made into its features only as it is written: made all at
    /// once, 200,000 cells' features held 270 MB. (Not `items.lazy.map` passed as a Sendable
    /// sequence: that compiled to the eager `map`, which is what held them.)
    private static func geoJSON<Item: Sendable>(
        _ items: [Item], holding turn: HeavyRequests.Turn, _ features: @escaping @Sendable (Item) -> [CoverageLayer.Feature]
    ) -> MapResponse {
        .written(type: "application/geo+json") { sink in
            try withExtendedLifetime(turn) { _ = try CoverageLayer.write(items.lazy.flatMap(features), to: sink) }
        }
    }

    /// A vector tile of the coverage everybody sees by default (the gateways silent for days left
    /// out, as `/api/cells` leaves them); its ETag is its bytes' hash, so a cache asks again and
    /// is told 304 while nothing in it changed.
    private func vectorTile(_ request: VectorTileRequest, ifNoneMatch: String?) throws -> MapResponse {
        let turn = heavy.turn()
        var layer = VectorTileLayer(name: request.layer.rawValue, tile: request.tile)
        switch request.layer {
        case .cells, .unheard:
            var filter = CoverageFilter()
            filter.hiddenGateways = try silence.silent(coverage, days: SilentGateways.defaultDays).ids
            for cell in try coverage.coverageCells(filter, zoom: request.cells.zoom, within: request.cells)
            where request.layer == .cells || cell.state == .notHeard || cell.state == .estimated {
                layer.add(CoverageLayer.feature(cell))
            }
        case .reach:
            for feature in try coverage.reach(gateway: nil).flatMap(CoverageLayer.features) where request.meets(feature.geometry) { layer.add(feature) }
        case .gateways:
            for gateway in try coverage.coverageGateways(CoverageFilter()) {
                if let feature = CoverageLayer.feature(gateway), request.meets(feature.geometry) { layer.add(feature) }
            }
        case .predicted:
            guard request.tile.zoom >= 12 else { break }
            for predicted in try predictedTiles(from: request.tile.northWest, to: request.tile.southEast, CoverageFilter()) {
                layer.add(CoverageLayer.feature(predicted))
            }
        }
        let body = try [layer].encoded()
        withExtendedLifetime(turn) {}
        let etag = "\"" + String(FNV1a.of(body), radix: 16) + "\""
        let headers = ["ETag": etag, "Cache-Control": "public, max-age=\(Self.tileMaxAge)"]
        if ifNoneMatch == etag { return .whole(status: 304, type: "application/vnd.mapbox-vector-tile", body: [], headers: headers) }
        return .whole(status: 200, type: "application/vnd.mapbox-vector-tile", body: body, headers: headers)
    }

    /// The tiles nobody measured between `northWest` and `southEast`, predicted at zoom 17 from
    /// the mapped tiles near them (those whose margin reaches in): the map's layer and the tiles'.
    private func predictedTiles(from northWest: GeoPoint, to southEast: GeoPoint, _ filter: CoverageFilter) throws -> [PredictedTile] {
        let view = TileRange(zoom: PredictedTile.zoom, west: northWest.longitude, south: southEast.latitude, east: southEast.longitude, north: northWest.latitude)
        let near = TileRange(zoom: PredictedTile.zoom, minX: view.minX - 16, minY: view.minY - 16, maxX: view.maxX + 16, maxY: view.maxY + 16)
        let mapped = Set(try coverage.coverageCells(filter, zoom: PredictedTile.zoom, within: near).map(\.tile))
        return try predictions.model(coverage, filter, version: try recordsVersion()).predictedTiles(around: mapped, within: view)
    }

    /// Seconds a cache may serve a tile without asking: a live run adds cells every few seconds,
    /// a community's mappers after their drives.
    private static let tileMaxAge = 60

    /// What the prediction models were fitted to, as far as it can be known: a local store's newest
    /// records; nil for a community's database, whose models are fitted again after a while.
    private func recordsVersion() throws -> [Int64]? {
        guard case .local(let store, _) = source else { return nil }
        let newest = try store.records.newestRecordIDs()
        return [newest.sample, newest.attempt]
    }

    /// A coverage route's query; a community's has no sessions and no time window to choose.
    private func coverageQuery(_ items: [(name: String, value: String)], _ kind: CoverageQuery.Kind) throws(MapQuery.Invalid) -> CoverageQuery {
        let query = try CoverageQuery(items, kind)
        if case .community = source, query.filter.window != ExportFilter() {
            throw MapQuery.Invalid(description: "a community map has no sessions and no time window: it shows everybody's coverage (gateway and sf choose)")
        }
        return query
    }

    private func respond(to path: String, _ items: [(name: String, value: String)], _ store: Store, _ live: LiveFeed) throws -> MapResponse {
        switch path {
        case "/api/status":
            _ = try MapQuery(items)
            return try Self.json(try store.status())
        case "/api/sessions":
            _ = try MapQuery(items)
            return try Self.json(try store.sessions.sessions(since: Timestamp(nanosecondsSinceEpoch: 0)))
        case "/api/gateways":
            var gateways = try store.coverage.gatewaySummaries(try MapQuery(items).filter)
            let suspect = try predictions.suspectPositions(coverage, version: try recordsVersion())
            let silent = try silence.silent(store.coverage, days: SilentGateways.defaultDays)
            for i in gateways.indices {
                gateways[i].positionCheck = suspect[gateways[i].gateway]
                gateways[i].silentDays = silent.silentDays(gateways[i].gateway)
            }
            return try Self.json(gateways)
        case "/api/samples.geojson":
            let filter = try MapQuery(items).filter
            return .written(type: "application/geo+json") { sink in try Exporter.export(store, as: .geojson, filter: filter, to: sink) }
        case "/api/track.geojson":
            let filter = try MapQuery(items).filter
            return .written(type: "application/geo+json") { sink in try TrackGeoJSONWriter.write(store, filter: filter, to: sink) }
        case "/api/events":
            _ = try MapQuery(items)
            return .events(live.subscribe())
        // What changed since a time (`mtt coverage diff`): the zoom-19 cells newly heard and those
        // heard before and mapped again since without being heard.
        case "/api/diff":
            let query = try MapQuery(items, allowing: ["gateway"])
            guard let since = query.filter.since else { throw MapQuery.Invalid(description: "since is missing: the time the changes are counted from") }
            let turn = heavy.turn()
            let diff = try store.coverage.coverageDiff(since: since, until: query.filter.until, gateway: items.first { $0.name == "gateway" }?.value)
            return Self.geoJSON([diff], holding: turn, CoverageLayer.features)
        default:
            _ = try MapQuery(items)
            return .whole(status: 200, type: "text/plain; version=0.0.4; charset=utf-8", body: Array(metrics.text(for: try live.status()).utf8))
        }
    }

    private func respond(to path: String, _ items: [(name: String, value: String)], _ community: any CommunityCoverageReader) throws -> MapResponse {
        guard items.isEmpty else { throw MapQuery.Invalid(description: "\(path) of a community map takes no parameters") }
        switch path {
        case "/api/status":
            return try Self.json(try community.communityStatus())
        case "/api/gateways":
            return try Self.json(try community.coverageGateways(CoverageFilter()))
        default:
            return .text(404, "a community map shows coverage, not anybody's drive: no \(path) (/api/status, /api/gateways, /api/cells, /api/cell, /api/reach)\n")
        }
    }

    private static func json(_ value: some Encodable) throws -> MapResponse {
        var data = try JSONEncoder.stable().encode(value)
        data.append(UInt8(ascii: "\n"))
        return .whole(status: 200, type: "application/json", body: [UInt8](data))
    }
}
