import Formats
import Foundation
import Testing
import TestSupport

/// The data export's zip, checked by Python's own `zipfile` (another implementation), and its
/// GPX read back by Moim's reader.
@Suite struct ZipArchiveTests {
    /// What Python's `zipfile` reads from `bytes`: each name and its content's length, after
    /// checking every CRC (`testzip`).
    private func pythonReads(_ bytes: [UInt8]) throws -> String {
        String(decoding: try pythonReadsZip(bytes, """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None, "a bad CRC"
                for info in z.infolist():
                    print(info.filename, len(z.read(info)), info.date_time[0])
            """), as: UTF8.self)
    }

    @Test func anotherReaderOpensItWithEveryNameAndByte() throws {
        var zip = ZipArchive(modified: Date(timeIntervalSince1970: 1_795_000_000))
        try zip.add("README.txt", Array("모임 — your data\n".utf8))
        try zip.add("photos/a.jpg", [UInt8](repeating: 0xFF, count: 70_000))
        try zip.add("empty.json", [])
        let read = try pythonReads(zip.finished())
        #expect(read == "README.txt 21 2026\nphotos/a.jpg 70000 2026\nempty.json 0 2026\n")
    }

    @Test func pathsThatClimbOutAreRefused() {
        var zip = ZipArchive()
        for path in ["", "/etc/passwd", "../up", "photos/../../up"] {
            #expect(throws: ZipArchive.Failure.badPath(path)) { try zip.add(path, [1]) }
        }
    }

    @Test func aRunsTrackReadsBackFromItsGPX() throws {
        let track = Track(points: [Track.Point(latitude: 37.5, longitude: 127.0, elevation: 12),
                                   Track.Point(latitude: 37.501, longitude: 127.001, elevation: nil)])
        let text = GPXDocument.text(track, name: "Dawn <10K> & \u{7}", startedAt: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(text.contains("<name>Dawn &lt;10K&gt; &amp; </name>"))
        let read = try GPXTrack(Data(text.utf8))
        #expect(read.points.map(\.latitude) == [37.5, 37.501] && read.points.map(\.elevation) == [12, nil])
    }
}
