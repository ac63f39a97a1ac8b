import Foundation
import HTTP
import Storage
import Testing
@testable import Web

@Suite struct MeetupFormTests {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    let now = Date(timeIntervalSince1970: 1_795_809_600)  // 2026-11-28 05:00 in Seoul
    var host: User {
        var user = User(username: "mina", email: "mina@example.com", passwordHash: "", displayName: "Mina", gender: "female")
        user.id = 1
        return user
    }

    /// A valid form with `changes` over it.
    func form(_ changes: [(String, String)] = []) -> MeetupForm {
        var fields: [String: String] = [
            "title": "Saturday long run", "starts_at": "2026-11-29T07:00", "duration": "90", "place_name": "Yeouido Park",
            "time_slot": "weekend", "pace": "average", "style": "run", "capacity": "12", "signup_mode": "firstCome",
            "gender_rule": "any",
        ]
        for (name, value) in changes { fields[name] = value }
        return MeetupForm(URLEncodedForm(fields.map { ($0.key, $0.value) }))
    }

    func problems(_ changes: [(String, String)], crewID: Int64? = nil) -> Set<String> {
        form(changes).validate(host: host, crewID: crewID, timeZone: seoul, now: now).1.fields
    }

    /// The slot comes from the start on the site's clock: a 7:00 run on a weekday is a morning
    /// one, whatever the form says.
    @Test func theTimeSlotIsTheStartsNeverAContradictingChoice() throws {
        func slot(_ start: String) throws -> Meetup.TimeSlot {
            try #require(form([("starts_at", start), ("time_slot", "afterWork")]).validate(host: host, crewID: nil, timeZone: seoul, now: now).0).timeSlot
        }
        #expect(try slot("2026-12-01T07:00") == .beforeWork)  // a Tuesday
        #expect(try slot("2026-12-01T11:59") == .beforeWork)
        #expect(try slot("2026-12-01T12:00") == .afterWork)
        #expect(try slot("2026-12-01T19:30") == .afterWork)
        #expect(try slot("2026-12-05T07:00") == .weekend)  // a Saturday
        #expect(try slot("2026-12-06T23:30") == .weekend)  // a Sunday, late: Seoul's, not UTC's Sunday
        #expect(try slot("2026-12-07T00:30") == .beforeWork)  // Monday just after midnight in Seoul (Sunday in UTC)
    }

    /// Each sport has its own details, and only those: a basketball game states no pace, a
    /// hike its ascent and difficulty, a ride its speed group.
    @Test func eachSportKeepsItsOwnDetails() throws {
        func made(_ changes: [(String, String)]) -> (Meetup?, Set<String>) {
            let (meetup, errors) = form(changes).validate(host: host, crewID: nil, timeZone: seoul, now: now)
            return (meetup, errors.fields)
        }
        let game = try #require(made([("sport", "basketball"), ("level", "advanced"), ("game_format", "threeOnThree"), ("distance", "10"),
                                      ("pace", "nonsense")]).0)
        #expect(game.sport == .basketball && game.level == .advanced && game.gameFormat == .threeOnThree)
        #expect(game.distanceKm == nil && game.difficulty == nil && game.speedGroup == nil, "nothing of other sports")
        #expect(made([("sport", "basketball"), ("level", ""), ("game_format", "fiveOnFive")]).1 == ["level"])
        let hike = try #require(made([("sport", "hiking"), ("difficulty", "hard"), ("ascent", "850"), ("distance", "12.5")]).0)
        #expect(hike.sport == .hiking && hike.ascentMeters == 850 && hike.difficulty == .hard && hike.distanceKm == 12.5 && hike.level == nil)
        for ascent in ["-1", "9001", "1e400", "nan", "abc", "99999999999999999999"] {
            #expect(made([("sport", "hiking"), ("difficulty", "easy"), ("ascent", ascent)]).1 == ["ascent"], "ascent \(ascent)")
        }
        let ride = try #require(made([("sport", "cycling"), ("speed_group", "fast"), ("distance", "60")]).0)
        #expect(ride.speedGroup == .fast && ride.distanceKm == 60)
        #expect(made([("sport", "cycling"), ("speed_group", "warp")]).1 == ["speed_group"])
        #expect(made([("sport", "curling")]).1.contains("sport"))
        // A run still needs its pace and style; an old form without a sport is a run's
        #expect(made([("sport", "running"), ("pace", "")]).1 == ["pace"])
        #expect(made([]).0?.sport == .running)
    }

    @Test func aValidFormMakesTheMeetupAtTheSitesWallClock() throws {
        let (meetup, errors) = form().validate(host: host, crewID: nil, timeZone: seoul, now: now)
        #expect(errors.isEmpty)
        let made = try #require(meetup)
        #expect(made.title == "Saturday long run")
        #expect(made.startsAt == Date(timeIntervalSince1970: 1_795_903_200))  // 2026-11-28 22:00 UTC
        #expect(made.durationMinutes == 90 && made.capacity == 12 && made.hostID == 1)
        // Without a deadline, signing up closes at the start
        #expect(made.deadline == made.startsAt)
    }

    @Test func eachBadFieldIsNamedAndNoMeetupIsMade() {
        #expect(problems([("starts_at", "2026-11-27T07:00")]) == ["starts_at"])  // past
        #expect(problems([("starts_at", "tomorrow")]).contains("starts_at"))
        #expect(problems([("duration", "5")]) == ["duration"])
        #expect(problems([("title", "")]) == ["title"])
        #expect(problems([("title", "Run\u{202E}nuR")]) == ["title"])  // a right-to-left override
        #expect(problems([("latitude", "37.5")]) == ["latitude"])  // one coordinate alone
        #expect(problems([("latitude", "91"), ("longitude", "127")]) == ["latitude"])
        #expect(problems([("deadline", "2026-11-29T08:00")]) == ["deadline"])  // after the start
        #expect(problems([("signup_mode", "lottery")]) == ["deadline"])  // a lottery needs one
        #expect(problems([("min_age", "40"), ("max_age", "30")]) == ["min_age"])
        #expect(problems([("gender_rule", "male")]) == ["gender_rule"])  // not the host's own
        #expect(problems([("crew_only", "on")]) == ["crew_only"])  // outside a crew
        #expect(problems([("jobs", "astronaut")]) == ["jobs"])
        #expect(form([("title", "")]).validate(host: host, crewID: nil, timeZone: seoul, now: now).0 == nil)
    }

    @Test func hostileNumbersAreErrorsNotTraps() {
        for number in ["nan", "inf", "-inf", "1e400", "99999999999999999999", "0x10", "١٢", ""] {
            #expect(problems([("duration", number)]).contains("duration"))
            #expect(problems([("capacity", number)]).contains("capacity"))
            #expect(problems([("latitude", number), ("longitude", "127")]) .contains("latitude") || number.isEmpty)
        }
        #expect(problems([("distance", "nan")]) == ["distance"])
        #expect(problems([("starts_at", "2026-02-30T07:00")]).contains("starts_at"))
    }

    @Test func paceGroupsAreReadLineByLine() throws {
        let groups = try #require(MeetupForm.paceGroups("5:00 /km, 10, @mina\n\n6:00 /km, 8\n"))
        #expect(groups.count == 2)
        #expect(groups[0].label == "5:00 /km" && groups[0].capacity == 10 && groups[0].leader == "mina")
        #expect(groups[1].label == "6:00 /km" && groups[1].capacity == 8 && groups[1].leader == nil)
        #expect(MeetupForm.paceGroups("")?.isEmpty == true)
        #expect(MeetupForm.paceGroups("5:00, ten") == nil)
        #expect(MeetupForm.paceGroups("5:00") == nil)
        #expect(MeetupForm.paceGroups(String(repeating: "a, 1\n", count: 9)) == nil)  // at most eight
    }

    @Test func withGroupsTheMeetupHoldsWhatTheyHoldTogether() throws {
        let (meetup, errors) = form([("groups", "fast, 6\nslow, 9"), ("capacity", "")]).validate(host: host, crewID: nil, timeZone: seoul, now: now)
        #expect(errors.isEmpty)
        #expect(meetup?.capacity == 15)
        #expect(problems([("groups", "fast, 600\nslow, 600")]) == ["capacity"])
    }

    @Test func aStoredMeetupFillsTheFormItWasMadeFrom() throws {
        let made = try #require(form([("deadline", "2026-11-28T21:00"), ("min_age", "20")]).validate(host: host, crewID: nil, timeZone: seoul, now: now).0)
        let again = MeetupForm(made, timeZone: seoul)
        #expect(again.startsAt == "2026-11-29T07:00" && again.deadline == "2026-11-28T21:00")
        #expect(again.duration == "90" && again.minAge == "20" && again.title == "Saturday long run")
        let remade = try #require(again.validate(host: host, crewID: nil, timeZone: seoul, now: now).0)
        #expect(remade.startsAt == made.startsAt && remade.deadline == made.deadline && remade.capacity == made.capacity)
    }
}
