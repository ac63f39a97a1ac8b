import Foundation

/// A GPX file of `steps` points going north along a meridian, 0.001° apart, climbing 2 m and
/// taking 30 s per step, like a watch would write it.
public func gpxFixture(steps: Int, start: Date = Date(timeIntervalSince1970: 1_795_000_000)) -> [UInt8] {
    let iso = ISO8601DateFormatter()
    let points = (0...steps).map { index in
        """
              <trkpt lat="\(37.5 + Double(index) * 0.001)" lon="126.93"><ele>\(10 + index * 2)</ele><time>\(iso.string(from: start.addingTimeInterval(Double(index) * 30)))</time></trkpt>
        """
    }.joined(separator: "\n")
    return Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Moim tests" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><name>Morning run</name><trkseg>
        \(points)
          </trkseg></trk>
        </gpx>
        """.utf8)
}
