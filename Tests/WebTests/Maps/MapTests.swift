import Foundation
import Geo
import Synchronization
import HTTP
import Testing
import TestSupport
@testable import Web

/// Maps on real tiles from a tile server on loopback (nginx serving generated tiles), through
/// the site: which tiles a page shows and where, the cache, a tile server that never answers,
/// a meeting point set by tapping, and meetups and crews near a point.
@Suite(.serialized) struct MapTests {
    static let yeouido = (latitude: "37.5283", longitude: "126.9327")

    final class Site: @unchecked Sendable {  // immutable once made
        let tiles: TileServer
        let site: TestSite
        let host: Browser
        let tileFolder = NSTemporaryDirectory() + "moim-tile-cache-\(UUID().uuidString)"

        init(source: String? = nil, timeout: Int = 3) throws {
            tiles = try TileServer()
            var configuration = TestSite.configuration()
            configuration.tiles = TileSource(template: source ?? tiles.template, attribution: "© Test tiles")
            configuration.tiles?.timeout = timeout
            configuration.tileDirectory = tileFolder
            site = try TestSite(configuration: configuration)
            host = site.browser()
            host.signUp(username: "hostess", extra: [("region", "seoul")])
        }

        /// A meetup at `latitude`, `longitude`; its page's address.
        @discardableResult
        func meetup(_ title: String, _ latitude: String, _ longitude: String, by browser: Browser? = nil) throws -> String {
            let response = (browser ?? host).post("/meetups", MapTests.fields(title: title, latitude: latitude, longitude: longitude), from: "/meetups/new")
            return try #require(response.headers["Location"], "\(response.status) \(response.bodyText.prefix(300))")
        }
    }

    static func fields(title: String, latitude: String, longitude: String) -> [(String, String)] {
        let start = LocalDateTime.text(Date().addingTimeInterval(3 * 86_400), .current)
        return [
            ("title", title), ("description", "Easy."), ("starts_at", start), ("duration", "60"), ("place_name", title + " gate"),
            ("address", ""), ("latitude", latitude), ("longitude", longitude), ("place_note", ""), ("region", "seoul"),
            ("time_slot", "weekend"), ("distance", "10"), ("pace", "average"), ("style", "run"), ("capacity", "10"),
            ("signup_mode", "firstCome"), ("deadline", ""), ("gender_rule", "any"),
        ]
    }

    /// The tiles of a page's wide map: address and top-left corner.
    static func tiles(in html: String) -> [(path: String, x: Double, y: Double)] {
        let wide = html.components(separatedBy: #"class="map-view wide""#).dropFirst().first ?? ""
        return wide.matches(of: /<foreignObject x="([-0-9.]+)" y="([-0-9.]+)"[^>]*><img class="map-tile" src="(\/tiles\/[0-9\/]+)"/).compactMap { match in
            guard let x = Double(match.1), let y = Double(match.2) else { return nil }
            return (String(match.3), x, y)
        }
    }

    @Test func aMeetupsPointIsDrawnOnItsTileAndTheTileComesFromTheCacheTheSecondTime() throws {
        let site = try Site()
        let url = try site.meetup("Dawn 10K", Self.yeouido.latitude, Self.yeouido.longitude)
        let html = site.host.get(url).bodyText
        // Zoom 16 on Yeouido: the point is on tile 16/55875/25387 (the OSM wiki's formula),
        // drawn in the middle of the 600 × 320 map (and of the phone's 320 × 220), and that tile lies under it.
        #expect(html.contains(#"<path d="M300 160"#) && html.contains(#"<path d="M160 110"#))
        let under = try #require(Self.tiles(in: html).first { $0.path == "/tiles/16/55875/25387" })
        #expect((under.x...(under.x + 256)).contains(300) && (under.y...(under.y + 256)).contains(160))
        #expect(html.contains("© Test tiles"))

        try site.tiles.add(z: 16, x: 55875, y: 25387)
        let first = site.host.get("/tiles/16/55875/25387")
        #expect(first.status == .ok)
        #expect(first.headers["Content-Type"] == "image/png")
        #expect(first.body == TestTiles.png(z: 16, x: 55875, y: 25387))
        #expect(String(decoding: first.body, as: UTF8.self).contains("16/55875/25387"))
        #expect(site.tiles.requests == ["/16/55875/25387.png"])
        // Asked again, even by a restarted site: from the folder, not the tile server.
        #expect(site.host.get("/tiles/16/55875/25387").body == first.body)
        var configuration = TestSite.configuration()
        configuration.tiles = TileSource(template: site.tiles.template, attribution: "© Test tiles")
        configuration.tileDirectory = site.tileFolder
        let restarted = try TestSite(configuration: configuration, database: site.site.database)
        #expect(restarted.browser().get("/tiles/16/55875/25387").body == first.body)
        #expect(site.tiles.requests.count == 1)
        // The browser's request never reaches the tile server with the member's cookies or address.
        let log = try String(contentsOfFile: site.tiles.folder + "/access.log", encoding: .utf8)
        #expect(log.contains("Moim/1.0") && !log.contains("hostess"))
    }

    @Test func aTileServerThatNeverAnswersDelaysNoPage() throws {
        let silent = try SilentServer()
        let site = try Site(source: "http://127.0.0.1:\(silent.port)/{z}/{x}/{y}.png", timeout: 1)
        let url = try site.meetup("Dawn 10K", Self.yeouido.latitude, Self.yeouido.longitude)
        // Six tiles wait on the silent server at once, as a browser's connections would.
        let waiting = DispatchGroup()
        let started = Date()
        let statuses = Mutex<[HTTPStatus]>([])
        // Threads of their own: the global queue runs only a few blocking tasks at a time.
        for column in 0..<6 {
            waiting.enter()
            Thread.detachNewThread {
                let status = site.site.browser().get("/tiles/16/\(55875 + column)/25387").status
                statuses.withLock { $0.append(status) }
                waiting.leave()
            }
        }
        Thread.sleep(forTimeInterval: 0.1)
        let page = Date()
        #expect(site.host.get(url).status == .ok)
        #expect(Date().timeIntervalSince(page) < 1, "well within the tile limit")
        waiting.wait()
        // Each tile gave up within the limit (1 s, plus a wait for a slot of at most as long).
        #expect(Date().timeIntervalSince(started) < 2.6)
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == .serviceUnavailable })
        // Then the tile server is left alone for a while: an answer at once.
        let next = Date()
        #expect(site.host.get("/tiles/16/55880/25387").status == .serviceUnavailable)
        #expect(Date().timeIntervalSince(next) < 0.5)
    }

    @Test func oneNetworkCannotWalkTheTileServersWorldThroughMoim() throws {
        let server = try TileServer()
        for x in 0..<4 { try server.add(z: 2, x: x, y: 1) }
        let source = try #require(TileSource(template: server.template, attribution: "© Test tiles"))
        let tiles = try MapTiles(source: source, directory: NSTemporaryDirectory() + "moim-tile-cache-\(UUID().uuidString)",
                                 userAgent: "Moim/1.0 test", missesPerClient: 3)
        let answers = (0..<4).map { tiles.tile(z: 2, x: $0, y: 1, for: "192.0.2.0") }
        #expect(answers.prefix(3).allSatisfy { if case .tile = $0 { true } else { false } })
        #expect(answers[3] == .unavailable)
        // What is cached is still served to it, and another network is not held back.
        #expect(tiles.tile(z: 2, x: 0, y: 1, for: "192.0.2.0") == .tile(TestTiles.png(z: 2, x: 0, y: 1), type: "image/png"))
        #expect(tiles.tile(z: 2, x: 3, y: 1, for: "198.51.100.0") == .tile(TestTiles.png(z: 2, x: 3, y: 1), type: "image/png"))
        #expect(server.requests.count == 4)
    }

    @Test func theCacheStaysWithinItsSizeDroppingTheLeastRecentlyShown() throws {
        let server = try TileServer()
        for x in 0..<6 { try server.add(z: 3, x: x, y: 2) }
        var source = try #require(TileSource(template: server.template, attribution: "© Test tiles"))
        let size = TestTiles.png(z: 3, x: 0, y: 2).count
        source.cacheSize = size * 5 / 2  // room for two tiles
        let folder = NSTemporaryDirectory() + "moim-tile-cache-\(UUID().uuidString)"
        let tiles = try MapTiles(source: source, directory: folder, userAgent: "Moim/1.0 test")
        for x in 0..<6 { _ = tiles.tile(z: 3, x: x, y: 2, for: "192.0.2.0") }
        let kept = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.split(separator: "/").count == 3 }
        #expect(tiles.storedBytes <= source.cacheSize)
        #expect(kept.count <= 2 && kept.contains("3/5/2"), "the newest stays: \(kept)")
        // A new process counts what the folder holds.
        #expect(try MapTiles(source: source, directory: folder, userAgent: "Moim/1.0 test").storedBytes == tiles.storedBytes)
    }

    @Test func twoTapsSetTheMeetingPointWithoutAScript() throws {
        let site = try Site()
        // The form opens on the host's region (Seoul City Hall) with a map to tap.
        let form = site.host.get("/meetups/new").bodyText
        #expect(form.contains(#"<input type="image" name="pick""#))
        #expect(form.contains(#"name="map" value="12/37.56650/126.97800""#))
        // First tap, anywhere near the park: the form comes back with the point and closer.
        var fields = Self.fields(title: "Dawn 10K", latitude: "", longitude: "")
        fields += [("map", "17/37.52830/126.93270"), ("pick.x", "200"), ("pick.y", "100")]
        let picked = site.host.post("/meetups", fields, from: "/meetups/new")
        #expect(picked.status == .ok)
        let html = picked.bodyText
        // The inverse of the wiki's formula: 37.52867437, 126.93330081.
        #expect(html.contains(#"name="latitude" inputmode="decimal" value="37.528674""#))
        #expect(html.contains(#"name="longitude" inputmode="decimal" value="126.933301""#))
        #expect(html.contains(#"name="map" value="18/37.52867/126.93330""#))
        #expect(html.contains(#"value="Dawn 10K""#), "what was typed is kept")
        #expect(!html.contains("field-error"), "a tap is not a submission")

        // Enter on the map (a keyboard's tap at 0, 0) moves nothing; zooming out keeps the point.
        let entered = site.host.post("/meetups", fields.filter { !$0.0.hasPrefix("pick") } + [("pick.x", "0"), ("pick.y", "0")], from: "/meetups/new")
        #expect(entered.status == .ok && entered.bodyText.contains(#"name="latitude" inputmode="decimal" value="""#))
        let zoomed = site.host.post("/meetups", Self.fields(title: "Dawn 10K", latitude: "37.528674", longitude: "126.933301")
            + [("map", "18/37.52867/126.93330"), ("map_move", "out")], from: "/meetups/new")
        #expect(zoomed.bodyText.contains(#"name="map" value="17/37.52867/126.93330""#))
        #expect(zoomed.bodyText.contains(#"value="37.528674""#))

        // Create: the meetup is where the tap was, within a metre.
        let created = site.host.post("/meetups", Self.fields(title: "Dawn 10K", latitude: "37.528674", longitude: "126.933301")
            + [("map", "17/37.52867/126.93330")], from: "/meetups/new")
        #expect(created.status == .seeOther)
        let id = try #require(created.headers["Location"].flatMap { Int64($0.split(separator: "/").last ?? "") })
        let meetup = try #require(try site.site.database.meetups.meetup(id: id))
        let stored = try #require(Coordinate(latitude: meetup.latitude ?? 0, longitude: meetup.longitude ?? 0))
        #expect(stored.distance(to: Coordinate(latitude: 37.528_674_374_4, longitude: 126.933_300_814_8)!) < 1)
    }

    @Test func aMemberFindsTheRunsWithinThreeKilometresOfYeouido() throws {
        let site = try Site()
        try site.meetup("Park gate", "37.5283", "126.9327")            // 0 m
        try site.meetup("Mapo bridge", "37.5380", "126.9440")          // 1.5 km
        try site.meetup("City Hall", "37.5665", "126.9780")            // 5.8 km
        try site.meetup("Haeundae", "35.1587", "129.1604")             // 320 km
        try site.meetup("Nowhere", "", "")
        let near = site.host.get("/meetups?near=37.5283,126.9327&radius=3").bodyText
        let titles = near.matches(of: /<strong class="meetup-title">([^<]+)</).map { String($0.1) }
        #expect(titles == ["Park gate", "Mapo bridge"])
        #expect(near.contains(">0 m away<") && near.contains(">1.5 km away<"))
        let wider = site.host.get("/meetups?near=37.5283,126.9327&radius=10").bodyText
        #expect(wider.matches(of: /<strong class="meetup-title">([^<]+)</).map { String($0.1) } == ["Park gate", "Mapo bridge", "City Hall"])
        // "My area" is the member's region: Seoul City Hall.
        let home = site.host.get("/meetups?near=home&radius=3").bodyText
        #expect(home.matches(of: /<strong class="meetup-title">([^<]+)</).map { String($0.1) } == ["City Hall"])

        // A tap on the near map becomes the point.
        let tapped = site.host.get("/meetups?to=meetups&radius=3&map=13/37.52830/126.93270&at.x=144&at.y=144")
        #expect(tapped.status == .seeOther)
        #expect(tapped.headers["Location"] == "/meetups?near=37.528300,126.932700&radius=3")
        #expect(site.host.get("/near?to=meetups").bodyText.contains(#"<input type="image" name="at""#))

        // The map view shows the two as pins, with their names, around the searched point.
        let map = site.host.get("/meetups?near=37.5283,126.9327&radius=3&view=map").bodyText
        #expect(map.contains("<title>Park gate</title>") && map.contains("<title>Mapo bridge</title>") && !map.contains("<title>City Hall</title>"))
        #expect(map.contains(#"class="map-center""#))
    }

    @Test func crewsAreNearWhereTheirMeetupsMeet() throws {
        let site = try Site()
        site.host.postMultipart("/crews", [("name", "Dawn Runners"), ("slug", "dawn"), ("sport", "running"), ("region", "seoul"), ("description", "Early."),
                                  ("meeting_time", ""), ("meeting_place", ""), ("fee_amount", "0"), ("fee_currency", "KRW"), ("fee_period", "month"),
                                  ("join_policy", "open"), ("member_cap", "")], files: [], from: "/crews/new")
        site.host.postMultipart("/crews", [("name", "Busan Beach"), ("slug", "beach"), ("sport", "running"), ("region", "busan"), ("description", "Sand."),
                                  ("meeting_time", ""), ("meeting_place", ""), ("fee_amount", "0"), ("fee_currency", "KRW"), ("fee_period", "month"),
                                  ("join_policy", "open"), ("member_cap", "")], files: [], from: "/crews/new")
        var fields = Self.fields(title: "Crew run", latitude: "37.5300", longitude: "126.9350")
        fields.append(("crew", "dawn"))
        #expect(site.host.post("/meetups", fields, from: "/meetups/new?crew=dawn").status == .seeOther)
        // Busan Beach meets in Busan.
        var busan = Self.fields(title: "Beach run", latitude: "35.1587", longitude: "129.1604")
        busan.append(("crew", "beach"))
        #expect(site.host.post("/meetups", busan, from: "/meetups/new?crew=beach").status == .seeOther)
        let near = site.host.get("/crews?near=37.5283,126.9327&radius=3").bodyText
        #expect(near.contains("Dawn Runners") && !near.contains("Busan Beach"))
        #expect(near.contains("m away<"))
    }

    @Test func withoutATileServerNothingIsFetchedAndRoutesAreDrawnAsBefore() throws {
        let site = try TestSite()
        let host = site.browser()
        host.signUp(username: "hostess")
        let url = try #require(host.post("/meetups", Self.fields(title: "Dawn", latitude: "37.5283", longitude: "126.9327"), from: "/meetups/new").headers["Location"])
        #expect(!host.get(url).bodyText.contains("map-tile"))
        #expect(!host.get("/meetups/new").bodyText.contains(#"type="image""#))
        #expect(host.get("/tiles/16/55875/25387").status == .notFound)
        #expect(host.get("/near?to=meetups").status == .notFound)
        // Near searches still work, by typed point or home area.
        #expect(host.get("/meetups?near=37.5283,126.9327&radius=1").bodyText.contains("Dawn"))
    }

    @Test(arguments: ["/tiles/20/0/0", "/tiles/2/4/0", "/tiles/2/0/4", "/tiles/abc/0/0", "/tiles/1/-1/0",
                      "/tiles/99999999999999999999/0/0", "/tiles/1/0/0.png", "/tiles/1/0"])
    func tilesThatCannotExistAreNotFound(target: String) throws {
        let site = try Site()
        #expect(site.host.get(target).status == .notFound)
        #expect(site.tiles.requests.isEmpty)
    }

    @Test(arguments: ["map=99/1e999/nan", "map=17/91/0", "map=-1/0/0", "map=17/37.5/126.9/x", "map=" + String(repeating: "9", count: 400),
                      "near=nan,nan", "near=1e999,0", "near=home", "near=37.5,126.9&radius=99999999999999999999", "at.x=1e9&at.y=-1&map=17/37.5/126.9"])
    func absurdMapQueriesShowTheDefaultView(query: String) throws {
        let site = try Site()
        let url = try site.meetup("Dawn", Self.yeouido.latitude, Self.yeouido.longitude)
        #expect(site.host.get(url + "?" + query).status == .ok)
        #expect(site.host.get("/meetups?" + query).status == .ok)
        #expect(site.host.get("/crews?" + query).status == .ok)
        #expect(site.host.get("/near?to=meetups&" + query).status == .ok)
    }
}
