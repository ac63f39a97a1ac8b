import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Storage

private let now = Date(timeIntervalSince1970: 1_800_000_000)

private func meetup(host: Int64, capacity: Int = 3, mode: Meetup.SignupMode = .firstCome, gender: Meetup.GenderRule = .any,
                    ages: (Int?, Int?) = (nil, nil), jobs: String = "") -> Meetup {
    Meetup(id: nil, hostID: host, crewID: nil, crewOnly: false, title: "Evening 5K", description: "", descriptionHTML: "",
           startsAt: now.addingTimeInterval(86_400), durationMinutes: 60, placeName: "Yeouido", address: "", latitude: nil,
           longitude: nil, placeNote: "", region: "seoul", timeSlot: .afterWork, distanceKm: 5, pace: .average, style: .run,
           capacity: capacity, signupMode: mode, deadline: now.addingTimeInterval(80_000), afterParty: false, genderRule: gender,
           minAge: ages.0, maxAge: ages.1, jobs: jobs, acceptedCount: 0, closedAt: nil, sequence: 0, createdAt: now, updatedAt: now)
}

private func makeUsers(_ database: AppDatabase, _ count: Int, gender: String? = "female", birthYear: Int? = 1995, job: String? = "developer") throws -> [Int64] {
    try (0..<count).map { index in
        var user = User(username: "user\(index)", email: "user\(index)@example.com", passwordHash: "x", displayName: "User \(index)")
        user.gender = gender
        user.birthYear = birthYear
        user.job = job
        return try database.accounts.createUser(user).storedID
    }
}

@Suite struct MeetupQueriesTests {
    @Test func eligibilityFollowsGenderAgeAndJob() throws {
        let database = try TestDatabase.fresh()
        let users = try makeUsers(database, 2)
        var man = User(username: "man", email: "man@example.com", passwordHash: "x", displayName: "Man")
        man.gender = "male"; man.birthYear = 1960; man.job = "sales"
        let manID = try database.accounts.createUser(man).storedID
        let unknown = try database.accounts.createUser(User(username: "blank", email: "blank@example.com", passwordHash: "x", displayName: "Blank")).storedID
        let id = try database.meetups.createMeetup(meetup(host: users[0], gender: .female, ages: (20, 40), jobs: "developer,design")).storedID
        #expect(try database.meetups.apply(meetupID: id, userID: users[1], now: now) == .accepted)
        #expect(try database.meetups.apply(meetupID: id, userID: manID, now: now) == .notEligible([.gender, .age, .job]))
        #expect(try database.meetups.apply(meetupID: id, userID: unknown, now: now) == .notEligible([.missingGender, .missingBirthYear, .missingJob]))
    }

    @Test func cancellingPromotesTheFirstOnTheWaitlist() throws {
        let database = try TestDatabase.fresh()
        let users = try makeUsers(database, 5)
        let id = try database.meetups.createMeetup(meetup(host: users[0], capacity: 2)).storedID
        #expect(try database.meetups.apply(meetupID: id, userID: users[1], now: now) == .accepted)
        #expect(try database.meetups.apply(meetupID: id, userID: users[2], now: now) == .accepted)
        #expect(try database.meetups.apply(meetupID: id, userID: users[3], now: now) == .waitlisted)
        #expect(try database.meetups.apply(meetupID: id, userID: users[4], now: now.addingTimeInterval(1)) == .waitlisted)
        #expect(try database.meetups.application(meetupID: id, userID: users[4])?.waitlistPlace == 2)
        try database.meetups.cancelApplication(meetupID: id, userID: users[1], now: now)
        #expect(try database.meetups.application(meetupID: id, userID: users[3])?.status == .accepted)
        #expect(try database.meetups.application(meetupID: id, userID: users[4])?.waitlistPlace == 1)
        #expect(try database.feed.notifications(userID: users[3]).items.first?.notification.kind == .meetupPromoted)
        #expect(try database.meetups.meetup(id: id)?.acceptedCount == 2)
    }

    @Test func approvalModeWaitsForTheHostWhoCannotExceedCapacity() throws {
        let database = try TestDatabase.fresh()
        let users = try makeUsers(database, 4)
        let id = try database.meetups.createMeetup(meetup(host: users[0], capacity: 1, mode: .approval)).storedID
        #expect(try database.meetups.apply(meetupID: id, userID: users[1], now: now) == .pending)
        #expect(try database.meetups.apply(meetupID: id, userID: users[2], now: now) == .pending)
        #expect(throws: StorageError.forbidden) { try database.meetups.decideApplication(meetupID: id, userID: users[1], by: users[3], accept: true) }
        try database.meetups.decideApplication(meetupID: id, userID: users[1], by: users[0], accept: true)
        #expect(throws: StorageError.full) { try database.meetups.decideApplication(meetupID: id, userID: users[2], by: users[0], accept: true) }
        try database.meetups.decideApplication(meetupID: id, userID: users[2], by: users[0], accept: false)
        #expect(try database.feed.notifications(userID: users[2]).items.first?.notification.kind == .meetupRejected)
    }

    @Test func fiftyApplicantsForThreePlacesYieldExactlyThree() throws {
        let directory = NSTemporaryDirectory() + "moim-meetup-\(UUID().uuidString)"
        let database = try AppDatabase.open(directory: directory)
        let users = try makeUsers(database, 51)
        let id = try database.meetups.createMeetup(meetup(host: users[0], capacity: 3)).storedID
        let results = Mutex<[ApplyResult]>([])
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            let result = (try? database.meetups.apply(meetupID: id, userID: users[index + 1], now: now)) ?? .closed
            results.withLock { $0.append(result) }
        }
        let all = results.withLock { $0 }
        #expect(all.filter { $0 == .accepted }.count == 3)
        #expect(all.filter { $0 == .waitlisted }.count == 47)
        #expect(try database.meetups.meetup(id: id)?.acceptedCount == 3)
        #expect(try database.meetups.participants(meetupID: id).count == 50)
        try database.close()
    }

    @Test func signupsCloseAtTheDeadlineOrWhenTheHostSays() throws {
        let database = try TestDatabase.fresh()
        let users = try makeUsers(database, 3)
        let id = try database.meetups.createMeetup(meetup(host: users[0])).storedID
        #expect(try database.meetups.apply(meetupID: id, userID: users[1], now: now.addingTimeInterval(80_001)) == .closed)
        try database.meetups.closeMeetup(id: id, by: users[0], now: now)
        #expect(try database.meetups.apply(meetupID: id, userID: users[2], now: now) == .closed)
    }

    @Test func attendanceRatesCountOnlyRecordedMeetups() throws {
        let database = try TestDatabase.fresh()
        let users = try makeUsers(database, 2)
        let runner = users[1]
        for index in 0..<4 {
            let id = try database.meetups.createMeetup(meetup(host: users[0])).storedID
            _ = try database.meetups.apply(meetupID: id, userID: runner, now: now)
            if index < 3 {
                try database.meetups.recordAttendance(meetupID: id, by: users[0], present: index == 0 ? [] : [runner], now: now.addingTimeInterval(90_000))
            }
        }
        let rate = try database.meetups.attendance(userID: runner)
        #expect(rate.attended == 2 && rate.recorded == 3)
        let early = try database.meetups.createMeetup(meetup(host: users[0])).storedID
        #expect(throws: StorageError.forbidden) { try database.meetups.recordAttendance(meetupID: early, by: users[0], present: [], now: now) }
    }

    @Test func onlyGoersMayTalk() throws {
        let database = try TestDatabase.fresh()
        let users = try makeUsers(database, 3)
        let id = try database.meetups.createMeetup(meetup(host: users[0])).storedID
        _ = try database.meetups.apply(meetupID: id, userID: users[1], now: now)
        try database.meetups.addTalk(meetupID: id, authorID: users[1], body: "See you!", bodyHTML: "<p>See you!</p>")
        #expect(throws: StorageError.forbidden) { try database.meetups.addTalk(meetupID: id, authorID: users[2], body: "hi", bodyHTML: "hi") }
        #expect(throws: StorageError.forbidden) { try database.meetups.talk(meetupID: id, viewerID: users[2]) }
        #expect(try database.meetups.talk(meetupID: id, viewerID: users[0]).count == 1)
    }

    @Test func filtersMatchTheRules() throws {
        let database = try TestDatabase.fresh()
        let users = try makeUsers(database, 1)
        _ = try database.meetups.createMeetup(meetup(host: users[0], gender: .female, ages: (20, 30), jobs: "developer"))
        _ = try database.meetups.createMeetup(meetup(host: users[0]))
        var filter = MeetupFilter()
        filter.age = 35
        #expect(try database.meetups.meetups(filter, viewerID: nil, after: nil, now: now).meetups.count == 1)
        filter = MeetupFilter()
        filter.job = "design"
        #expect(try database.meetups.meetups(filter, viewerID: nil, after: nil, now: now).meetups.count == 1)
        filter = MeetupFilter()
        filter.keyword = "5K"
        #expect(try database.meetups.meetups(filter, viewerID: nil, after: nil, now: now).meetups.count == 2)
        #expect(try database.meetups.meetups(MeetupFilter(), viewerID: nil, after: nil, limit: 1, now: now).next != nil)
    }
}
