import Foundation
import Geo
import Testing

/// The tile arithmetic against the OpenStreetMap wiki's formulas ("Slippy map tilenames"),
/// worked out independently, and distances against GeographicLib (Karney's geodesics on WGS 84).
struct MapFrameTests {
    static let yeouido = Coordinate(latitude: 37.5283, longitude: 126.9327)!
    static let cityHall = Coordinate(latitude: 37.5665, longitude: 126.9780)!

    @Test(arguments: [
        (yeouido, 12, 3492, 1586), (yeouido, 15, 27937, 12693), (yeouido, 17, 111750, 50775),
        (cityHall, 15, 27941, 12689), (cityHall, 17, 111767, 50757),
    ])
    func aKnownPointIsOnItsKnownTile(point: Coordinate, zoom: Int, x: Int, y: Int) throws {
        let frame = MapFrame(center: point, zoom: Double(zoom), width: 256, height: 256)
        // The tile under the centre of the frame is the point's own.
        let under = try #require(frame.tiles.first { tile in
            (tile.left...(tile.left + tile.size)).contains(128) && (tile.top...(tile.top + tile.size)).contains(128)
        })
        #expect((under.z, under.x, under.y) == (zoom, x, y))
        // And the point sits in the middle of the frame.
        let at = frame.position(of: point)
        #expect(abs(at.x - 128) < 1e-6 && abs(at.y - 128) < 1e-6)
    }

    @Test func tilesCoverTheFrameEdgeToEdgeWithoutGapsOrOverlap() {
        let frame = MapFrame(center: Self.yeouido, zoom: 15, width: 600, height: 400)
        let tiles = frame.tiles
        #expect(tiles.allSatisfy { $0.size == 256 && $0.z == 15 })
        #expect(tiles.map(\.left).min()! <= 0 && tiles.map { $0.left + $0.size }.max()! >= 600)
        #expect(tiles.map(\.top).min()! <= 0 && tiles.map { $0.top + $0.size }.max()! >= 400)
        // Neighbouring columns are one tile apart, in order.
        let row = tiles.filter { $0.y == tiles[0].y }.sorted { $0.left < $1.left }
        for (a, b) in zip(row, row.dropFirst()) {
            #expect(b.x == a.x + 1 && b.left == a.left + 256)
        }
        #expect(tiles.count == row.count * Set(tiles.map(\.y)).count)
    }

    @Test func atTheAntimeridianColumnsWrapAroundTheWorld() throws {
        let fiji = try #require(Coordinate(latitude: -17.7, longitude: 179.99))
        let frame = MapFrame(center: fiji, zoom: 4, width: 600, height: 300)
        let columns = Set(frame.tiles.map(\.x))
        // The last column of the world (15) sits beside the first (0), not across the map.
        #expect(columns.contains(15) && columns.contains(0))
        let last = try #require(frame.tiles.first { $0.x == 15 }), first = try #require(frame.tiles.first { $0.x == 0 && $0.y == last.y })
        #expect(first.left == last.left + 256)
        // A point just past the line is drawn just east of the centre, not a world away.
        let east = try #require(Coordinate(latitude: -17.7, longitude: -179.99))
        let at = frame.position(of: east)
        #expect(at.x > 300 && at.x < 302)
        #expect(frame.tiles.allSatisfy { (0..<16).contains($0.x) })
    }

    @Test func nearAPoleTheMapStopsAtTheWorldsEdge() throws {
        let north = try #require(Coordinate(latitude: 89.9, longitude: 10))
        let frame = MapFrame(center: north, zoom: 3, width: 600, height: 400)
        // Web Mercator ends at 85.05°: no tile rows above the first, the background shows there.
        #expect(!frame.tiles.isEmpty)
        #expect(frame.tiles.allSatisfy { $0.y >= 0 && $0.y < 8 })
        #expect(frame.tiles.map(\.top).min()! >= 200 - 1e-6)
        // A tap above the edge is the edge, never a latitude that is not a number.
        let tapped = frame.coordinate(x: 300, y: 0)
        #expect(tapped.latitude.isFinite && tapped.latitude <= WebMercator.maximumLatitude + 1e-9)
    }

    @Test func aTapAtAKnownPixelIsTheKnownPointWithinAMetre() {
        // A 288-pixel picker at zoom 17 on Yeouido, tapped at (200, 100): the inverse of the
        // wiki's formula gives 37.52867437, 126.93330081.
        let frame = MapFrame(center: Self.yeouido, zoom: 17, width: 288, height: 288)
        let tapped = frame.coordinate(x: 200, y: 100)
        let expected = Coordinate(latitude: 37.528_674_374_4, longitude: 126.933_300_814_8)!
        #expect(tapped.distance(to: expected) < 1)
        // And the point drawn back lands on the same pixel.
        let back = frame.position(of: tapped)
        #expect(abs(back.x - 200) < 0.01 && abs(back.y - 100) < 0.01)
    }

    @Test func aRouteIsFittedInsideTheMarginAtTheLargestZoom() throws {
        let points = [Self.yeouido, Self.cityHall]
        let frame = try #require(MapFrame(fitting: points, width: 600, height: 400, padding: 24, maximumZoom: 18))
        let at = points.map(frame.position)
        #expect(at.allSatisfy { (24 - 1e-6...576 + 1e-6).contains($0.x) && (24 - 1e-6...376 + 1e-6).contains($0.y) })
        // Fitted: one side touches the margin.
        #expect(at.contains { abs($0.x - 24) < 1e-6 || abs($0.y - 24) < 1e-6 })
        let whole = try #require(MapFrame(fitting: points, width: 600, height: 400, padding: 24, maximumZoom: 18, integral: true))
        #expect(whole.zoom == whole.zoom.rounded() && whole.zoom <= frame.zoom)
        #expect(MapFrame(fitting: [], width: 600, height: 400, padding: 24, maximumZoom: 18) == nil)
    }

    @Test(arguments: [
        // GeographicLib's Geodesic.WGS84.Inverse, in metres.
        (37.5283, 126.9327, 37.5665, 126.9780, 5_830.995),
        (37.5283, 126.9327, 35.1796, 129.0756, 323_893.069),
        (40.639_722_22, -73.778_888_89, 51.4775, -0.461_388_89, 5_554_344.261),
    ])
    func distancesAreWithinHalfAPercentOfTheGeodesic(lat1: Double, lon1: Double, lat2: Double, lon2: Double, geodesic: Double) throws {
        let a = try #require(Coordinate(latitude: lat1, longitude: lon1)), b = try #require(Coordinate(latitude: lat2, longitude: lon2))
        #expect(abs(a.distance(to: b) - geodesic) / geodesic < 0.005)
        #expect(a.distance(to: b) == b.distance(to: a))
        // On the ellipsoid, to the millimetre.
        #expect(abs(a.geodesicDistance(to: b) - geodesic) < 0.002)
        #expect(abs(b.geodesicDistance(to: a) - geodesic) < 0.002)
    }

    @Test func theEllipsoidMatchesVincentysOwnExampleAndEdgeCases() throws {
        // Flinders Peak to Buninyong, Vincenty's worked example (1975): 54,972.271 m.
        let flinders = try #require(Coordinate(latitude: -(37 + 57 / 60.0 + 3.7203 / 3600), longitude: 144 + 25 / 60.0 + 29.5244 / 3600))
        let buninyong = try #require(Coordinate(latitude: -(37 + 39 / 60.0 + 10.1561 / 3600), longitude: 143 + 55 / 60.0 + 35.3839 / 3600))
        #expect(abs(flinders.geodesicDistance(to: buninyong) - 54_972.271) < 0.001)
        // The same point, a step on the equator, and points nearly opposite (where the
        // iteration does not settle) give finite answers.
        #expect(flinders.geodesicDistance(to: flinders) == 0)
        let equator = try #require(Coordinate(latitude: 0, longitude: 0)), east = try #require(Coordinate(latitude: 0, longitude: 0.001))
        #expect(abs(equator.geodesicDistance(to: east) - 111.319_491) < 0.001)
        let opposite = try #require(Coordinate(latitude: 0.5, longitude: 179.7))
        let far = equator.geodesicDistance(to: opposite)
        #expect(far.isFinite && far > 19_900_000 && far < 20_040_000)
    }

    @Test func haversineMatchesRosettaCodesPublishedValue() throws {
        // Nashville to Los Angeles on a 6372.8 km sphere: 2887.2599506071106 km.
        let bna = try #require(Coordinate(latitude: 36.12, longitude: -86.67)), lax = try #require(Coordinate(latitude: 33.94, longitude: -118.40))
        let scaled = bna.distance(to: lax) / Coordinate.earthRadius * 6_372_800
        #expect(abs(scaled - 2_887_259.950_607_1) < 0.01)
    }

    @Test(arguments: [1_000.0, 3_000, 30_000])
    func theBoundingBoxHoldsEveryPointWithinTheRadius(meters: Double) throws {
        for center in [Self.yeouido, Coordinate(latitude: 69.6, longitude: 18.9)!] {
            let box = center.boundingBox(meters: meters)
            for bearing in stride(from: 0.0, to: 360, by: 15) {
                // A point `meters` away on `bearing` (the spherical destination formula).
                let d = meters / Coordinate.earthRadius, theta = bearing * .pi / 180
                let lat1 = center.latitude * .pi / 180, lon1 = center.longitude * .pi / 180
                let lat2 = asin(sin(lat1) * cos(d) + cos(lat1) * sin(d) * cos(theta))
                let lon2 = lon1 + atan2(sin(theta) * sin(d) * cos(lat1), cos(d) - sin(lat1) * sin(lat2))
                let point = try #require(Coordinate(latitude: lat2 * 180 / .pi, longitude: lon2 * 180 / .pi))
                #expect(abs(center.distance(to: point) - meters) < 0.01)
                #expect(box.latitudes.contains(point.latitude) && box.longitudes.contains(point.longitude))
            }
        }
    }

    @Test(arguments: ["nan,1", "1,inf", "91,0", "0,181", "1e400,0", "37.5", "37.5,126.9,1", "", "abc,def", " 37.5 , 126.9 "])
    func onlyTwoNumbersInRangeAreACoordinate(text: String) {
        let parsed = Coordinate(text)
        #expect((parsed != nil) == (text == " 37.5 , 126.9 "))
    }

    @Test func framesNeverTrapOnAbsurdNumbers() {
        for zoom in [Double.nan, .infinity, -5, 99] {
            let frame = MapFrame(center: Self.yeouido, zoom: zoom, width: Int.max, height: Int.min)
            #expect(frame.tiles.count < 1_000)
            _ = frame.coordinate(x: .infinity, y: .nan)
            _ = frame.zoomed(1000).panned(east: .infinity, south: -.infinity)
        }
    }
}
