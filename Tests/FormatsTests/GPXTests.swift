import Formats
import Foundation
import Testing
import TestSupport

/// Reading a GPX file into a track: distance, time and climb, what a watch gets wrong, and what
/// no run can be.
@Suite struct GPXTests {
    @Test func readsDistanceTimeAndClimbWithinHalfAPercent() throws {
        let track = try GPXTrack(Data(gpxFixture(steps: 90)))
        // 110.99 m every 30 s (0.001° of latitude at 37.5° on the WGS 84 ellipsoid): a
        // kilometre is reached after 270.3 s.
        #expect(track.splits().prefix(3) == [270, 541, 811])
        #expect(GPXTrack(points: track.points.map { var point = $0; point.time = nil; return point }).splits().isEmpty)
        // Reference: 0.001° of latitude on a sphere of the same radius is 2πR/360000.
        let reference = 90 * 2 * Double.pi * 6_371_008.8 / 360_000
        #expect(abs(track.distance - reference) / reference < 0.005)
        #expect(track.duration == 2700.0)
        #expect(track.elevationGain == 180)
    }

    @Test func refusesHostileOrBrokenXML() {
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <gpx><trk><trkseg><trkpt lat="1" lon="1"><name>&lol2;</name></trkpt></trkseg></trk></gpx>
            """
        #expect(throws: GPXTrack.Problem.unsafe) { try GPXTrack(Data(laughs.utf8)) }
        #expect(throws: GPXTrack.Problem.self) { try GPXTrack(Data("<gpx><trk>".utf8)) }
        #expect(throws: GPXTrack.Problem.notGPX) { try GPXTrack(Data("<kml><Placemark/></kml>".utf8)) }
        #expect(throws: GPXTrack.Problem.tooLarge) { try GPXTrack(Data(count: GPXTrack.maximumBytes + 1)) }
    }

    /// Points as a phone might record them: `(north, east)` in steps of 0.0001° (about 11 m)
    /// from Yeouido, one every `seconds`, in the segments given.
    private func track(_ segments: [[(north: Double, east: Double)]], seconds: Double = 4, start: Date = Date(timeIntervalSince1970: 1_795_000_000)) -> GPXTrack {
        var points: [GPXTrack.Point] = []
        for (segment, steps) in segments.enumerated() {
            for step in steps {
                points.append(GPXTrack.Point(latitude: 37.52 + step.north * 0.0001, longitude: 126.93 + step.east * 0.0001, elevation: nil,
                                             time: start.addingTimeInterval(Double(points.count) * seconds), segment: segment))
            }
        }
        return GPXTrack(points: points)
    }

    @Test func aGPSSpikeIsDroppedAndAJumpIsNotRun() throws {
        let straight = (0..<50).map { (north: Double($0), east: 0.0) }
        let plain = try track([straight]).checked()
        // A lone fix 2 km east (a teleport) between two good ones: dropped.
        var spiked = straight
        spiked.insert((north: 25, east: 200), at: 25)
        let withoutSpike = try track([spiked]).checked()
        #expect(withoutSpike.points.count == 50)
        #expect(abs(withoutSpike.distance - plain.distance) < 12)
        // The track goes on 2 km away (a ride on the subway between two runs): a new segment,
        // and the way between is neither distance nor time run.
        let moved = straight + (0..<50).map { (north: Double($0), east: 200.0) }
        let split = try track([moved]).checked()
        #expect(split.points.count == 100 && Set(split.points.map(\.segment)) == [0, 1])
        #expect(abs(split.distance - 2 * plain.distance) < 1)
        #expect(abs((split.duration ?? 0) - 2 * 49 * 4) < 0.01)
    }

    @Test func aPausedRunCountsOnlyItsMovingParts() throws {
        let first = (0..<30).map { (north: Double($0), east: 0.0) }, second = (0..<30).map { (north: 30 + Double($0), east: 5.0) }
        let paused = track([first, second])
        #expect(abs(paused.distance - track([first]).distance * 2) < 1)
        #expect(abs((paused.duration ?? 0) - 2 * 29 * 4) < 0.01)
        // Splits count moving time: the pause between the segments is not in them.
        let long = track([(0..<600).map { (north: Double($0), east: 0.0) }, (0..<600).map { (north: 600 + Double($0), east: 0.0) }])
        let splits = long.splits()
        #expect(splits.count == 13 && zip(splits, splits.dropFirst()).allSatisfy { $0.1 - $0.0 < 400 })
    }

    @Test func timesThatCannotBeAreRefused() {
        let now = Date(timeIntervalSince1970: 1_795_100_000)
        let steps = (0..<10).map { (north: Double($0), east: 0.0) }
        var backwards = track([steps])
        backwards.points.swapAt(3, 4)
        #expect(throws: GPXTrack.Problem.outOfOrder) { try backwards.checked(now: now) }
        #expect(throws: GPXTrack.Problem.future) { try track([steps], start: now.addingTimeInterval(3600)).checked(now: now) }
        #expect(throws: GPXTrack.Problem.tooLong) { try track([steps], seconds: 3 * 3600, start: now.addingTimeInterval(-40 * 3600)).checked(now: now) }
        #expect(throws: Never.self) { try track([steps], start: now.addingTimeInterval(-600)).checked(now: now) }
    }

    @Test func trimmingHidesTheEnds() throws {
        let track = try GPXTrack(Data(gpxFixture(steps: 20)))
        let trimmed = track.trimmed(200)
        #expect(trimmed.points.first?.latitude ?? 0 > track.points[1].latitude)
        #expect(trimmed.points.last?.latitude ?? 99 < track.points[19].latitude)
        #expect(GPXTrack(encoded: track.encoded).points.count == track.points.count)
    }
}
