import Foundation

/// A run's track written back as GPX 1.1, for a member's data export: one track, one segment,
/// its points with their elevations (the times of points are not kept).
public enum GPXDocument {
    public static func text(_ track: Track, name: String, startedAt: Date) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Moim" xmlns="http://www.topografix.com/GPX/1/1">
            <metadata><time>\(startedAt.formatted(.iso8601))</time></metadata>
            <trk><name>\(escaped(name))</name><trkseg>

            """
        for point in track.points {
            text += "<trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\">"
            if let elevation = point.elevation { text += "<ele>\(elevation)</ele>" }
            text += "</trkpt>\n"
        }
        return text + "</trkseg></trk>\n</gpx>\n"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" }.map(String.init).joined()
    }
}
