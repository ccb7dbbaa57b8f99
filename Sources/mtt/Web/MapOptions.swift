import ArgumentParser
import Foundation
import MTTCore
import MTTSystem
import MTTWeb

/// Where and for whom the map is served: `mtt serve`, and `mtt collect --web`.
struct MapServing {
    var listen: String
    var tokenFile: String?
    var tiles: String?

    /// The tiles option as the page takes it: OpenStreetMap's (nil), none, or a template; a
    /// thrown reason reads after the setting's name.
    static func tileTemplate(_ option: String?) throws(MapServingProblem) -> String? {
        guard let option else { return MapAssets.openStreetMap }
        if option == "none" { return nil }
        guard option.hasPrefix("https://") || option.hasPrefix("http://"), option.contains("{z}") else {
            throw MapServingProblem("takes a tile URL with {z}, {x} and {y} (e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png), or none")
        }
        return option
    }

    static func address(_ text: String) throws(MapServingProblem) -> HostPort {
        let address: HostPort
        do {
            address = try HostPort(parsing: text, defaultPort: 8080)
        } catch {
            throw MapServingProblem("takes HOST:PORT, such as 127.0.0.1:8080 or 0.0.0.0:8080, not \(text)")
        }
        guard NetworkAddresses.resolves(address.host) else {
            throw MapServingProblem("takes HOST:PORT, such as 127.0.0.1:8080 or 0.0.0.0:8080: \(address.host) is no address this machine knows")
        }
        return address
    }

    /// A token to read the map with: long enough not to be guessed, short enough to fit a request.
    static let tokenLengths = 16...1024

    /// `mtt serve`'s map as the `[serve]` settings say, checked.
    static func served(by settings: Config) throws -> MapServing {
        let serving = MapServing(
            listen: settings.text(.serveListen) ?? ConfigKey.serveListen.defaultText, tokenFile: settings.text(.serveTokenFile),
            tiles: settings.text(.serveTiles))
        try serving.check(settings, listen: .serveListen, tiles: .serveTiles)
        return serving
    }

    /// `listen` and `tiles` checked, a problem named by the setting that has it.
    func check(_ settings: Config, listen listenKey: ConfigKey, tiles tilesKey: ConfigKey?) throws {
        do { _ = try Self.address(listen) } catch { throw settings.refuse(listenKey, error.reason) }
        if let tilesKey {
            do { _ = try Self.tileTemplate(tiles) } catch { throw settings.refuse(tilesKey, error.reason) }
        }
    }

    /// Starts the map over `store`; returns the server and the links to open (with the token,
    /// off loopback: printed once, never logged elsewhere).
    func start(store: Store, run: RunView? = nil) async throws -> (server: MapServer, links: [String]) {
        try await start { MapServer(store: store, listen: $0, access: $1, assets: $2, run: run) }
    }

    /// Starts a community's map, read through `community`.
    func start(community: any CommunityCoverageReader) async throws -> (server: MapServer, links: [String]) {
        try await start { MapServer(community: community, listen: $0, access: $1, assets: $2) }
    }

    private func start(_ make: (HostPort, WebAccess, MapAssets) -> MapServer) async throws -> (server: MapServer, links: [String]) {
        let address = try Self.address(listen)
        var token: String?
        if !WebAccess.isLoopback(address.host) {
            token = try tokenFile.map { try SecretInput.read(file: $0, environment: "", what: "the map's token") } ?? WebAccess.generateToken()
        }
        if let token, let tokenFile, !Self.tokenLengths.contains(token.count) {
            throw RuntimeFailure("the map's token in \(tokenFile) has \(token.count) characters; it takes \(Self.tokenLengths.lowerBound) to \(Self.tokenLengths.upperBound)")
        }
        let assets: MapAssets
        do {
            assets = try MapAssets.load(tiles: try Self.tileTemplate(tiles))
        } catch let problem as MapServingProblem {
            throw RuntimeFailure("tiles \(problem.reason)")
        } catch {
            throw RuntimeFailure("\(error)")
        }
        let server: MapServer
        let bound: HostPort
        do {
            server = make(address, WebAccess(token: token), assets)
            bound = try server.start()
        } catch {
            throw RuntimeFailure("\(error)")
        }
        let hosts = address.host == "0.0.0.0" || address.host == "::" ? NetworkAddresses.ofThisMachine() : [bound.host]
        let links = hosts.map { host in
            // The token as a query value: `+`, `/`, `=`, `&` and `#` in it must not change the link.
            "http://\(HostPort(host: host, port: bound.port).description)/" + (token.map { "?token=" + Self.queryValue($0) } ?? "")
        }
        return (server, links)
    }
}

extension MapServing {
    static func queryValue(_ text: String) -> String {
        // RFC 3986's unreserved characters, ASCII only.
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

struct MapServingProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
