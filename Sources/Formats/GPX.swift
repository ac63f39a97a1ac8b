import Foundation
import Geo
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A GPS track read from a GPX file: points with optional elevation and time.
public struct GPXTrack: Equatable {
    public struct Point: Equatable {
        public var latitude: Double
        public var longitude: Double
        public var elevation: Double?
        public var time: Date?
    }

    public enum Problem: Error, Equatable {
        case tooLarge, tooManyPoints, notGPX, unsafe, noPoints
    }

    public static let maximumBytes = 5 * 1024 * 1024
    public static let maximumPoints = 50_000

    public var points: [Point]

    /// Parses `data`. Only UTF-8 is read: another encoding (UTF-16, EBCDIC) would hide a
    /// DOCTYPE from the byte check below. Documents with a DOCTYPE (and so any entity,
    /// internal or external) are refused before parsing: a GPX file never needs one, and
    /// entity expansion is the classic way to make an XML parser eat all memory.
    public init(_ data: Data) throws(Problem) {
        guard data.count <= Self.maximumBytes else { throw .tooLarge }
        let bytes = [UInt8](data)
        guard Self.isUTF8XML(bytes) else { throw .notGPX }
        let lowered = bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard !Self.contains(lowered, "<!doctype"), !Self.contains(lowered, "<!entity") else { throw .unsafe }
        // Processing instructions other than the XML declaration: GPX has no use for them, and
        // one without data makes Foundation's XMLParser read a null pointer.
        guard !Self.contains(Array(lowered.dropFirst(Self.declarationEnd(lowered))), "<?") else { throw .notGPX }
        let delegate = Reader()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        guard parser.parse(), delegate.sawGPX else { throw delegate.problem ?? .notGPX }
        if let problem = delegate.problem { throw problem }
        guard delegate.points.count >= 2 else { throw .noPoints }
        points = delegate.points
    }

    /// Valid UTF-8 text that starts with `<` (after an optional byte-order mark and white
    /// space), holds no NUL (which UTF-16 and UTF-32 are full of) and declares no encoding
    /// but UTF-8. Invalid UTF-8 in an attribute makes Foundation's XMLParser trap.
    public static func isUTF8XML(_ bytes: [UInt8]) -> Bool {
        guard String(validating: bytes, as: UTF8.self) != nil else { return false }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        body = body.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard body.first == UInt8(ascii: "<"), !body.contains(0) else { return false }
        guard body.starts(with: Array("<?xml".utf8)), let end = body.firstIndex(of: UInt8(ascii: ">")) else { return true }
        let declaration = String(decoding: body[..<end], as: UTF8.self).lowercased().replacingOccurrences(of: " ", with: "")
        guard let range = declaration.range(of: "encoding=") else { return true }
        let name = declaration[range.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
        return ["utf-8", "utf8", "us-ascii", "ascii"].contains(String(name))
    }

    /// Where an XML declaration at the start (after a byte-order mark or white space) ends.
    private static func declarationEnd(_ bytes: [UInt8]) -> Int {
        guard let open = bytes.firstIndex(of: UInt8(ascii: "<")), bytes[open...].starts(with: Array("<?xml ".utf8)),
              let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { return 0 }
        return close + 1
    }

    private static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in
            bytes[start] == needle[0] && bytes[start..<start + needle.count].elementsEqual(needle)
        }
    }

    public init(points: [Point]) {
        self.points = points
    }

    /// Great-circle distance along the track, in metres (haversine, mean Earth radius).
    public var distance: Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + Self.distance($1.0, $1.1) }
    }

    /// Seconds from the first to the last timestamp, if the track has times.
    public var duration: TimeInterval? {
        guard let start = points.first(where: { $0.time != nil })?.time, let end = points.last(where: { $0.time != nil })?.time, end > start else { return nil }
        return end.timeIntervalSince(start)
    }

    public var startTime: Date? { points.first(where: { $0.time != nil })?.time }

    /// Total climb in metres, ignoring changes under 1 m to damp GPS noise.
    public var elevationGain: Double {
        var gain = 0.0
        var reference: Double? = nil
        for elevation in points.compactMap(\.elevation) {
            guard let last = reference else { reference = elevation; continue }
            if elevation - last >= 1 { gain += elevation - last; reference = elevation } else if last - elevation >= 1 { reference = elevation }
        }
        return gain
    }

    public static func distance(_ a: Point, _ b: Point) -> Double {
        let radius = 6_371_008.8
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = (b.latitude - a.latitude) * .pi / 180, Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * radius * asin(min(1, sqrt(h)))
    }

    /// Seconds from the first timed point to where each whole `meters` is reached, from the
    /// points' times (interpolated between two points); empty if the points have no times.
    public func splits(every meters: Double = 1000) -> [Int] {
        guard meters > 0, let first = points.first?.time else { return [] }
        var elapsed: [Int] = []
        var covered = 0.0
        var next = meters
        for (a, b) in zip(points, points.dropFirst()) {
            guard let timeA = a.time, let timeB = b.time, timeB >= timeA else { return [] }
            let step = Self.distance(a, b)
            while step > 0, covered + step >= next, elapsed.count < 1_000 {
                let fraction = (next - covered) / step
                let at = timeA.timeIntervalSince(first) + fraction * timeB.timeIntervalSince(timeA)
                guard let seconds = Checked.rounded(at, in: 0...360_000) else { return [] }
                elapsed.append(seconds)
                next += meters
            }
            covered += step
        }
        return elapsed
    }

    /// The track without its first and last `meters`, so that others cannot see where a
    /// runner's home is.
    public func trimmed(_ meters: Double) -> GPXTrack {
        let total = distance
        guard total > 2 * meters else { return GPXTrack(points: []) }
        var kept: [Point] = []
        var covered = 0.0
        for (index, point) in points.enumerated() {
            if index > 0 { covered += Self.distance(points[index - 1], point) }
            if covered >= meters && covered <= total - meters { kept.append(point) }
        }
        return GPXTrack(points: kept)
    }

    /// The track as `records.track` stores it (times are not kept).
    public var encoded: Data {
        Track(points: points.map { Track.Point(latitude: $0.latitude, longitude: $0.longitude, elevation: $0.elevation) }).encoded
    }

    public init(encoded data: Data) {
        points = Track(encoded: data).points.map { Point(latitude: $0.latitude, longitude: $0.longitude, elevation: $0.elevation, time: nil) }
    }

    /// Collects `trkpt` (and `rtept`) points.
    private final class Reader: NSObject, XMLParserDelegate {
        var points: [Point] = []
        var sawGPX = false
        var problem: Problem?
        private var text = ""
        private var current: Point?
        private let iso = ISO8601DateFormatter()
        private let isoFraction: ISO8601DateFormatter = {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter
        }()

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            text = ""
            switch name {
            case "gpx": sawGPX = true
            case "trkpt", "rtept":
                // A point that is not a place on Earth is skipped, as GPS devices skip fixes.
                guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                      Track.Point(latitude: lat, longitude: lon, elevation: nil).checked() != nil else { return }
                current = Point(latitude: lat, longitude: lon, elevation: nil, time: nil)
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if text.count < 64 { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "ele":
                // An elevation that is not a believable number counts as missing.
                current?.elevation = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
                    .flatMap { Track.Point(latitude: 0, longitude: 0, elevation: $0).checked()?.elevation }
            case "time":
                let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                current?.time = iso.date(from: value) ?? isoFraction.date(from: value)
            case "trkpt", "rtept":
                if let point = current { points.append(point) }
                current = nil
                if points.count > GPXTrack.maximumPoints {
                    problem = .tooManyPoints
                    parser.abortParsing()
                }
            default: break
            }
        }
    }
}
