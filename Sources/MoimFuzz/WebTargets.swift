import Formats
import Foundation
import Geo
import GRDB
import HTTP
import Imaging
import Markdown
import Storage
@testable import Web

enum WebTargets {
    /// A browser's `User-Agent`, any text: a name from the known ones, or none; never a trap.
    static func userAgent(_ bytes: UnsafeBufferPointer<UInt8>) {
        let name = BrowserName(userAgent: String(decoding: bytes, as: UTF8.self))
        if let browser = name.browser, browser.isEmpty { violated("an empty browser name") }
        if let system = name.system, system.isEmpty { violated("an empty system name") }
    }

    /// The record form's numbers, durations and dates, stored splits and typed pace groups:
    /// nothing outside the asked range.
    static func recordNumbers(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let value = Checked.integer(text, in: 1...1_000_000), !(1...1_000_000).contains(value) { violated("integer range") }
        if let value = Checked.decimal(text, in: 0...1e7) {
            guard value.isFinite, (0...1e7).contains(value) else { violated("decimal range") }
            _ = Checked.rounded(value * 1609.344, in: App.distances)
        }
        if let seconds = Checked.duration(text, maximum: 360_000), !(0...360_000).contains(seconds) { violated("duration range") }
        if let date = Checked.localDateTime(text, in: TimeZone(identifier: "Asia/Seoul") ?? .current) {
            let year = Calendar(identifier: .gregorian).component(.year, from: date)
            guard (Checked.years.lowerBound - 1...Checked.years.upperBound + 1).contains(year) else { violated("date range") }
        }
        let bits = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        _ = Checked.pixel(Double(bitPattern: bits))
        _ = Checked.rounded(Double(bitPattern: bits), in: Int.min...Int.max)
        _ = Checked.id(text)
        // A run's stored splits, "301,598,…".
        guard SplitView.list(text).allSatisfy({ (30...100).contains($0.barPercent) }) else { violated("split bar out of range") }
        // A meetup's pace groups as typed: at most eight, each within its range.
        if let groups = MeetupForm.paceGroups(text) {
            guard groups.count <= 8, groups.allSatisfy({ (1...1000).contains($0.capacity) && !$0.label.isEmpty }) else { violated("pace groups") }
        }
    }

    /// The whole upload path (sniffing, libvips' header, decoding, scaling, encoding): what is
    /// taken is within the limits and no wider than the largest kept, every variant narrower
    /// than it, and the stored original reads back as the same image.
    static func image(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let image = try? imageProcessor.process(Array(bytes)) else { return }
        guard image.width > 0, image.height > 0, image.width <= 2048, image.width * image.height <= ImageProcessor.maximumPixels else {
            violated("image size")
        }
        guard image.variants.allSatisfy({ $0.width <= image.width && !$0.data.isEmpty }) else { violated("a variant wider than the image") }
        guard let again = try? imageProcessor.process(image.original), again.width == image.width, again.height == image.height else {
            violated("the stored original no longer reads as itself")
        }
    }

    static let imageProcessor = ImageProcessor(concurrency: 1)

    /// Markdown with the tag and mention pass: never a script or a `javascript:` link.
    static func markdown(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        let document = MarkdownRenderer.render(text) { names in names.filter { $0.hasPrefix("a") } }
        let html = document.html.lowercased()
        if html.contains("<script") || html.contains("href=\"javascript:") || html.contains(" onerror=") { violated("unsafe HTML out of Markdown") }
        guard document.tags.allSatisfy(References.isTag) else { violated("an invalid tag extracted") }
        // A page's title from it: one line of words, no markup a browser would read.
        let title = MarkdownRenderer.plainText(text)
        if title.contains("\n") || title.hasPrefix(" ") || title.hasSuffix(" ") { violated("a plain-text title that is not one trimmed line") }
    }

    /// A chat message as a form sends it, with a place picked on the map, and its text rendered
    /// in the chat style: an accepted text and place fit the schema, and what the text becomes
    /// holds no heading, image or script.
    static func message(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let form = try? URLEncodedForm(parsing: Array(bytes)) else { return }
        let place = PlaceForm(form, picked: MapPicker.action(in: form)?.action)
        if let (name, point) = place.validate() {
            guard name.fits(1, PlaceForm.maximumName), !name.hasControlCharacters, point.latitude.isFinite, point.longitude.isFinite,
                  abs(point.latitude) <= 90, abs(point.longitude) <= 180 else { violated("an unfit place accepted: \(name) \(point)") }
        }
        let message = MessageForm(form)
        if let id = message.replyToID, id <= 0 { violated("a reply to a message that cannot exist") }
        guard case .success(let body) = message.validate() else { return }
        guard !body.isEmpty, body.unicodeScalars.count <= Message.maximumLength, !body.hasControlCharacters else { violated("an unfit message accepted") }
        let html = MarkdownRenderer.render(body, style: .message) { $0 }.html.lowercased()
        if html.contains("<h1") || html.contains("<h2") || html.contains("<img") || html.contains("<script") || html.contains("href=\"javascript:") {
            violated("a heading, an image or a script in a chat message")
        }
    }

    /// Route drawing from any stored bytes (rows written before checks existed).
    static func route(_ bytes: UnsafeBufferPointer<UInt8>) {
        let track = GPXTrack(encoded: Data(bytes))
        _ = RouteDrawing(track)
        _ = RouteDrawing(track.trimmed(Double(bytes.first ?? 0)))
    }

    /// The query and form fields of maps (`map=`, `near=`, `radius=`, `pick.x`, `at.y`,
    /// `map_move`) and a tile template: every point is on Earth, every tile in the world.
    static func mapQuery(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = TileSource(template: text, attribution: "fuzz")
        func check(_ point: Coordinate?) {
            guard let point else { return }
            guard point.latitude.isFinite, point.longitude.isFinite, abs(point.latitude) <= 90, abs(point.longitude) <= 180 else {
                violated("a point off the Earth: \(point)")
            }
        }
        check(Coordinate(text))
        guard let form = try? URLEncodedForm(parsing: text) else { return }
        if let frame = MapFrame(query: form["map"], width: 640, height: 440) {
            check(frame.center)
            let tiles = frame.tiles
            guard tiles.count < 200, tiles.allSatisfy({ (0..<(1 << $0.z)).contains($0.x) && (0..<(1 << $0.z)).contains($0.y) }) else {
                violated("tiles outside the world")
            }
            _ = MapControls(frame) { $0.query }
        }
        if let moved = MapPicker.action(in: form) {
            if case .pick(let point) = moved.action { check(point) }
            check(moved.picker.frame.center)
        }
        check(NearSearch.tapped(form))
        if let near = NearSearch(form, user: nil) {
            check(near.point)
            guard NearSearch.radii.contains(near.radius) else { violated("a radius not offered") }
            let box = near.point.boundingBox(meters: near.meters)
            guard box.latitudes.lowerBound.isFinite, box.longitudes.upperBound.isFinite else { violated("a box without bounds") }
        }
    }

    /// Return addresses: whatever comes in, the result stays on this site as a browser reads
    /// it (tabs and line breaks removed, backslashes as slashes).
    static func localPath(_ bytes: UnsafeBufferPointer<UInt8>) {
        let path = Paths.local(String(decoding: bytes, as: UTF8.self))
        let browser = path.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }.replacingOccurrences(of: "\\", with: "/")
        guard browser.hasPrefix("/"), !browser.hasPrefix("//"), path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            violated("a return address off the site: \(path.debugDescription)")
        }
    }

    static func acceptLanguage(_ bytes: UnsafeBufferPointer<UInt8>) {
        _ = Language.preferred(by: String(decoding: bytes, as: UTF8.self))
    }

    /// The search-query builder against a real FTS5 trigram table: never a syntax error.
    static func search(_ bytes: UnsafeBufferPointer<UInt8>) {
        let search = SearchText(String(decoding: bytes, as: UTF8.self))
        guard search.unicodeLength <= SearchText.maximumLength else { violated("search text too long") }
        do {
            try SearchSandbox.database.inDatabase { db in
                if search.usesIndex {
                    _ = try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM t WHERE t MATCH ?"), arguments: [search.phrase])
                }
                _ = try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM t WHERE body LIKE ? ESCAPE '\\'"), arguments: [search.containsPattern])
            }
        } catch {
            violated("SQLite refused a built query: \(error)")
        }
    }
}

/// An in-memory FTS5 trigram table like the site's, made once per run.
enum SearchSandbox {
    static let database: DatabaseQueue = {
        do {
            let queue = try DatabaseQueue()
            try queue.write { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'trigram')")
                try db.execute(sql: "INSERT INTO t(body) VALUES ('한강 러닝 크루'), ('morning run \"quoted\" OR NEAR')")
            }
            return queue
        } catch {
            fatalError("cannot create the search sandbox: \(error)")
        }
    }()
}

extension SearchText {
    var unicodeLength: Int { text.unicodeScalars.count }
}

extension WebTargets {
    /// Work addresses: a domain read from one is the address's own ending, in lower-case
    /// ASCII letters, digits, hyphens and dots only, and never a free-mail service's.
    static func workAddress(_ bytes: UnsafeBufferPointer<UInt8>) {
        let address = String(decoding: bytes, as: UTF8.self)
        guard let domain = WorkAddress.domain(of: address) else { return }
        guard address.hasSuffix("@" + domain) else { violated("a domain that is not the address's") }
        guard domain.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E }) else {
            violated("a domain with other characters")
        }
        if WorkAddress.isFreeMail(domain), !FreeMail.domains.contains(where: { domain == $0 || domain.hasSuffix("." + $0) }) {
            violated("free mail that is not on the list")
        }
    }
}
