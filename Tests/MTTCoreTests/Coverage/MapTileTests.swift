import Foundation
import MTTCore
import Testing

@Suite("Coverage cells: Web Mercator tiles")
struct MapTileTests {
    /// The tile by another road: Web Mercator metres (x = R·λ, y = R·ln tan(π/4 + φ/2), as PROJ's
    /// EPSG:3857), then the share of the world's width from the west and the north edge.
    static func independentTile(_ p: GeoPoint, zoom: Int) -> (x: Int, y: Int) {
        let r = 6_378_137.0, half = Double.pi * r
        let mx = r * p.longitude * .pi / 180
        let my = r * log(tan(.pi / 4 + p.latitude * .pi / 360))
        let n = Double(1 << zoom)
        return (Int(((mx + half) / (2 * half) * n).rounded(.down)), Int(((half - my) / (2 * half) * n).rounded(.down)))
    }

    @Test(arguments: [
        GeoPoint(latitude: 52.0907, longitude: 5.1214), GeoPoint(latitude: 40.6782, longitude: -73.9442),
        GeoPoint(latitude: -33.8568, longitude: 151.2153), GeoPoint(latitude: 64.1466, longitude: -21.9426),
        GeoPoint(latitude: -0.0001, longitude: -179.9999), GeoPoint(latitude: 1.2903, longitude: 103.8519),
    ])
    func cellsAreTheTilesAnotherComputationFinds(place: GeoPoint) {
        for zoom in [0, 13, 19] {
            let tile = MapTile(containing: place, zoom: zoom)
            let other = Self.independentTile(place, zoom: zoom)
            #expect(tile.x == other.x && tile.y == other.y, "\(place) at \(zoom): \(tile) against \(other)")
        }
    }

    /// Landmarks' zoom-19 tiles as PROJ puts them (gdaltransform to EPSG:3857, then the tile of those
    /// metres): the Eiffel Tower and Big Ben.
    @Test func landmarksFallInTheirOSMTiles() {
        #expect(MapTile(containing: GeoPoint(latitude: 48.85826, longitude: 2.2945)) == MapTile(zoom: 19, x: 265_485, y: 180_366))
        #expect(MapTile(containing: GeoPoint(latitude: 51.50070, longitude: -0.12755)) == MapTile(zoom: 19, x: 261_958, y: 174_354))
    }

    @Test func coarserTilesAreMadeFromCells() {
        let place = GeoPoint(latitude: 52.0907, longitude: 5.1214)
        let cell = MapTile(containing: place)
        for zoom in [0, 5, 13, 18] {
            #expect(cell.parent(atZoom: zoom) == MapTile(containing: place, zoom: zoom))
        }
    }

    @Test func aCellsOutlineHoldsItsPlace() {
        let place = GeoPoint(latitude: 52.0907, longitude: 5.1214)
        let cell = MapTile(containing: place)
        let nw = cell.northWest, se = cell.southEast
        #expect(nw.latitude > place.latitude && place.latitude > se.latitude)
        #expect(nw.longitude < place.longitude && place.longitude < se.longitude)
        // About 76 m × cos(lat) a side.
        let side = GeoPoint(latitude: nw.latitude, longitude: nw.longitude).distance(to: GeoPoint(latitude: nw.latitude, longitude: se.longitude))
        #expect(abs(side - 76.4 * cos(place.latitude * .pi / 180)) < 1, "\(side) m")
        #expect(cell.ring.count == 5 && cell.ring.first == cell.ring.last)
    }

    @Test func theEdgesOfTheWorldStayOnTheGrid() {
        #expect(MapTile(containing: GeoPoint(latitude: 89.9, longitude: 180)) == MapTile(zoom: 19, x: (1 << 19) - 1, y: 0))
        #expect(MapTile(containing: GeoPoint(latitude: -89.9, longitude: -180)) == MapTile(zoom: 19, x: 0, y: (1 << 19) - 1))
    }
}
