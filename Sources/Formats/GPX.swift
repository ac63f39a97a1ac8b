import Foundation
import Geo
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A GPS track read from a GPX file: points with optional elevation and time, in segments
/// (a pause in the recording starts a new one; the way between two segments is not run).
public struct GPXTrack: Equatable {
    public struct Point: Equatable {
        public var latitude: Double
        public var longitude: Double
        public var elevation: Double?
        public var time: Date?
        /// Which `trkseg` (counted over every `trk`) the point is in.
        public var segment = 0

        public init(latitude: Double, longitude: Double, elevation: Double?, time: Date?, segment: Int = 0) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
            self.time = time
            self.segment = segment
        }
    }

    public enum Problem: Error, Equatable {
        case tooLarge, tooManyPoints, notGPX, unsafe, noPoints
        /// A point timed before the one it follows.
        case outOfOrder
        /// A point timed later than now (a phone's clock set wrong).
        case future
        /// First to last point longer than `maximumDuration`.
        case tooLong
    }

    public static let maximumBytes = 5 * 1024 * 1024
    public static let maximumPoints = 50_000
    /// A record is one run: a track spanning more (a watch never stopped, a race of days) is
    /// refused rather than guessed at.
    public static let maximumDuration: TimeInterval = 24 * 3600
    /// Faster than this between two points (43 km/h) is GPS noise, not running.
    public static let maximumSpeed = 12.0

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

    /// Each step from one point to the next within a segment.
    private var steps: some Sequence<(Point, Point)> {
        zip(points, points.dropFirst()).lazy.filter { $0.0.segment == $0.1.segment }
    }

    /// Distance along the track, in metres, on the WGS 84 ellipsoid; the way between segments
    /// does not count.
    public var distance: Double {
        steps.reduce(0) { $0 + Self.distance($1.0, $1.1) }
    }

    /// Seconds moving: from first to last timestamp of each segment, added up; nil if the
    /// track has no times.
    public var duration: TimeInterval? {
        var total = 0.0
        var sawTimes = false
        for (a, b) in steps {
            guard let timeA = a.time, let timeB = b.time else { continue }
            sawTimes = true
            total += max(0, timeB.timeIntervalSince(timeA))
        }
        return sawTimes && total > 0 ? total : nil
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

    /// The distance between two points on the WGS 84 ellipsoid, in metres (0 for a point
    /// that is not a place on Earth, which parsing never lets through).
    public static func distance(_ a: Point, _ b: Point) -> Double {
        guard let from = Coordinate(latitude: a.latitude, longitude: a.longitude),
              let to = Coordinate(latitude: b.latitude, longitude: b.longitude) else { return 0 }
        return from.geodesicDistance(to: to)
    }

    /// Seconds moving from the first timed point to where each whole `meters` is reached, from
    /// the points' times (interpolated between two points; pauses between segments do not
    /// count); empty if the points have no times.
    public func splits(every meters: Double = 1000) -> [Int] {
        guard meters > 0 else { return [] }
        var elapsed: [Int] = []
        var covered = 0.0, moving = 0.0
        var next = meters
        for (a, b) in steps {
            guard let timeA = a.time, let timeB = b.time, timeB >= timeA else { return [] }
            let step = Self.distance(a, b), seconds = timeB.timeIntervalSince(timeA)
            while step > 0, covered + step >= next, elapsed.count < 1_000 {
                let fraction = (next - covered) / step
                guard let at = Checked.rounded(moving + fraction * seconds, in: 0...360_000) else { return [] }
                elapsed.append(at)
                next += meters
            }
            covered += step
            moving += seconds
        }
        return elapsed
    }

    /// The track as a record takes it, imported or recorded: refused when its times run
    /// backwards, lie in the future (beyond ten minutes of clock skew) or span more than
    /// `maximumDuration`; a lone point further than `maximumSpeed` allows from both its
    /// neighbours (a GPS spike) dropped, and a jump after which the track goes on from the new
    /// place started as a new segment, so that neither counts as distance run.
    public func checked(now: Date = Date()) throws(Problem) -> GPXTrack {
        let times = points.compactMap(\.time)
        guard zip(times, times.dropFirst()).allSatisfy({ $0.0 <= $0.1 }) else { throw .outOfOrder }
        if let last = times.last, last > now.addingTimeInterval(600) { throw .future }
        if let first = times.first, let last = times.last, last.timeIntervalSince(first) > Self.maximumDuration { throw .tooLong }
        var kept: [Point] = []
        kept.reserveCapacity(points.count)
        var segmentShift = 0
        for (index, original) in points.enumerated() {
            var point = original
            point.segment += segmentShift
            if let previous = kept.last, previous.segment == point.segment, Self.tooFast(previous, point) {
                let next = index + 1 < points.count ? points[index + 1] : nil
                if let next, next.segment == original.segment, !Self.tooFast(previous, next) { continue }  // a spike
                if next == nil { continue }  // a last fix far off
                segmentShift += 1
                point.segment += 1
            }
            kept.append(point)
        }
        guard kept.count >= 2 else { throw .noPoints }
        return GPXTrack(points: kept)
    }

    /// Whether going from `a` to `b` took a speed no runner has; false without both times.
    private static func tooFast(_ a: Point, _ b: Point) -> Bool {
        guard let timeA = a.time, let timeB = b.time else { return false }
        let meters = distance(a, b), seconds = timeB.timeIntervalSince(timeA)
        return seconds > 0 ? meters / seconds > maximumSpeed : meters > maximumSpeed
    }

    /// The track without its first and last `meters`, so that others cannot see where a
    /// runner's home is.
    public func trimmed(_ meters: Double) -> GPXTrack {
        let total = distance
        guard total > 2 * meters else { return GPXTrack(points: []) }
        var kept: [Point] = []
        var covered = 0.0
        for (index, point) in points.enumerated() {
            if index > 0, points[index - 1].segment == point.segment { covered += Self.distance(points[index - 1], point) }
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
        /// The segment points are in now; -1 before the first `trkseg`.
        private var segment = -1
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
            case "trkseg", "rte": segment += 1
            case "trkpt", "rtept":
                // A point that is not a place on Earth is skipped, as GPS devices skip fixes.
                guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                      Track.Point(latitude: lat, longitude: lon, elevation: nil).checked() != nil else { return }
                current = Point(latitude: lat, longitude: lon, elevation: nil, time: nil, segment: max(0, segment))
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
