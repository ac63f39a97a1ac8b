import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A GPS track read from a GPX file: points with optional elevation and time.
struct GPXTrack: Equatable {
    struct Point: Equatable {
        var latitude: Double
        var longitude: Double
        var elevation: Double?
        var time: Date?
    }

    enum Problem: Error, Equatable {
        case tooLarge, tooManyPoints, notGPX, unsafe, noPoints
    }

    static let maximumBytes = 5 * 1024 * 1024
    static let maximumPoints = 50_000

    var points: [Point]

    /// Parses `data`. Documents with a DOCTYPE (and so any entity, internal or external) are
    /// refused before parsing: a GPX file never needs one, and entity expansion is the classic
    /// way to make an XML parser eat all memory.
    init(_ data: Data) throws(Problem) {
        guard data.count <= Self.maximumBytes else { throw .tooLarge }
        guard data.range(of: Data("<!DOCTYPE".utf8)) == nil, data.range(of: Data("<!ENTITY".utf8)) == nil,
              data.range(of: Data("<!doctype".utf8)) == nil else { throw .unsafe }
        let delegate = Reader()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        guard parser.parse(), delegate.sawGPX else { throw delegate.problem ?? .notGPX }
        if let problem = delegate.problem { throw problem }
        guard delegate.points.count >= 2 else { throw .noPoints }
        points = delegate.points
    }

    init(points: [Point]) {
        self.points = points
    }

    /// Great-circle distance along the track, in metres (haversine, mean Earth radius).
    var distance: Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + Self.distance($1.0, $1.1) }
    }

    /// Seconds from the first to the last timestamp, if the track has times.
    var duration: TimeInterval? {
        guard let start = points.first(where: { $0.time != nil })?.time, let end = points.last(where: { $0.time != nil })?.time, end > start else { return nil }
        return end.timeIntervalSince(start)
    }

    var startTime: Date? { points.first(where: { $0.time != nil })?.time }

    /// Total climb in metres, ignoring changes under 1 m to damp GPS noise.
    var elevationGain: Double {
        var gain = 0.0
        var reference: Double? = nil
        for elevation in points.compactMap(\.elevation) {
            guard let last = reference else { reference = elevation; continue }
            if elevation - last >= 1 { gain += elevation - last; reference = elevation } else if last - elevation >= 1 { reference = elevation }
        }
        return gain
    }

    static func distance(_ a: Point, _ b: Point) -> Double {
        let radius = 6_371_008.8
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = (b.latitude - a.latitude) * .pi / 180, Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * radius * asin(min(1, sqrt(h)))
    }

    /// The track without its first and last `meters`, so that others cannot see where a
    /// runner's home is.
    func trimmed(_ meters: Double) -> GPXTrack {
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

    /// Points as little-endian Float32 triples (NaN for a missing elevation), for storage.
    var encoded: Data {
        var data = Data(capacity: points.count * 12)
        for point in points {
            for value in [Float(point.latitude), Float(point.longitude), Float(point.elevation ?? .nan)] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            }
        }
        return data
    }

    init(encoded data: Data) {
        var points: [Point] = []
        let bytes = [UInt8](data)
        var offset = 0
        func float() -> Float {
            let bits = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            offset += 4
            return Float(bitPattern: bits)
        }
        while offset + 12 <= bytes.count {
            let latitude = float(), longitude = float(), elevation = float()
            points.append(Point(latitude: Double(latitude), longitude: Double(longitude), elevation: elevation.isNaN ? nil : Double(elevation), time: nil))
        }
        self.points = points
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
                guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                      (-90...90).contains(lat), (-180...180).contains(lon) else { return }
                current = Point(latitude: lat, longitude: lon, elevation: nil, time: nil)
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if text.count < 64 { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "ele": current?.elevation = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
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
