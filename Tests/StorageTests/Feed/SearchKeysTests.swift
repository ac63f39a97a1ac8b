import Foundation
import Testing
import TestSupport
@testable import Storage

/// The tables search reads instead of every post or member (`postGrams`, `nameKeys`,
/// `tagCounts`) follow each write: a post written, edited and deleted, a member renamed and
/// gone, a crew renamed, a meetup made. On both engines.
@Suite struct SearchKeysTests {
    private func content(_ body: String, tags: [String] = []) -> PostContent {
        PostContent(body: body, bodyHTML: "<p>\(body)</p>", tags: tags, mentionedUserIDs: [])
    }

    @Test func hangulPairsAreAdjacentSyllablesOnly() {
        #expect(SearchText.hangulPairs(in: "오늘 한강 러닝!") == ["오늘", "한강", "러닝"])
        #expect(SearchText.hangulPairs(in: "한강러닝") == ["한강", "강러", "러닝"])
        // Jamo, a syllable beside Latin letters or digits, and one syllable alone make none.
        #expect(SearchText.hangulPairs(in: "ㅎㅎ 한a강 5k 강").isEmpty)
        #expect(SearchText("러닝").isHangulPair)
        #expect(!SearchText("러닝머신").isHangulPair)
        #expect(!SearchText("5k").isHangulPair)
        #expect(SearchText("RUNNER Ωmega").asciiLowercased == "runner Ωmega")
    }

    @Test func excerptsMarkTheFirstMatchIgnoringCase() {
        let marked = { (body: String, query: String) in
            AppDatabase.excerpt(of: body, around: query).replacingOccurrences(of: SearchMarker.start, with: "[").replacingOccurrences(of: SearchMarker.end, with: "]")
        }
        #expect(marked("A MORNING run, then morning coffee", "morning") == "A [MORNING] run, then morning coffee")
        #expect(marked("오늘 한강에서 러닝", "러닝") == "오늘 한강에서 [러닝]")
        #expect(marked("Café e\u{301} run", "run") == "Café e\u{301} [run]")
        #expect(marked("ΣΟΦΙΑ runs", "σοφια") == "[ΣΟΦΙΑ] runs")
        #expect(marked("no match here", "xyz") == "no match here")
        #expect(marked("aaaaaaaaab", "aab") == "aaaaaaa[aab]")
        #expect(marked(String(repeating: "a", count: 200) + " tail", "tail").hasPrefix("…"))
    }

    @Test func twoSyllablesFindEveryPostThroughItsPairs() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        let old = try database.posts.createPost(authorID: mina, content: content("오늘 한강에서 러닝"), photos: []).storedID
        for number in 0..<30 { _ = try database.posts.createPost(authorID: mina, content: content("Run \(number)"), photos: []) }
        #expect(try database.feed.searchPosts("러닝", viewerID: nil).map { $0.item.post.id } == [old])
        #expect(try database.feed.searchPosts("러닝", viewerID: nil).first?.excerpt.contains(SearchMarker.start + "러닝" + SearchMarker.end) == true)

        _ = try database.posts.updatePost(id: old, authorID: mina, content: content("저녁 산책"))
        #expect(try database.feed.searchPosts("러닝", viewerID: nil).isEmpty)
        #expect(try database.feed.searchPosts("산책", viewerID: nil).map { $0.item.post.id } == [old])

        _ = try database.posts.deletePost(id: old, authorID: mina)
        #expect(try database.feed.searchPosts("산책", viewerID: nil).isEmpty)
        #expect(try database.readRows { try $0.value("SELECT count(*) FROM postGrams", [], as: Int.self) } == 0)
    }

    @Test func newestMatchesComeFirst() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        let ids = try (1...3).map { try database.posts.createPost(authorID: mina, content: content("Morning run \($0) 러닝"), photos: []).storedID }
        #expect(try database.feed.searchPosts("morning", viewerID: nil).map { $0.item.post.id } == ids.reversed())
        #expect(try database.feed.searchPosts("러닝", viewerID: nil, limit: 2).map { $0.item.post.id } == [ids[2], ids[1]])
    }

    /// The search indexes' merge ends, and search finds the same after it (nothing on PostgreSQL).
    @Test func mergingTheSearchIndexesEndsAndFindsTheSame() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        for number in 0..<300 {
            _ = try database.posts.createPost(authorID: mina, content: content("Morning run \(number) along the river"), photos: [])
        }
        let before = try database.feed.searchPosts("morning", viewerID: nil).map { $0.item.post.id }
        var steps = 0
        while try database.feed.mergeSearchIndexes(pages: 4) {
            steps += 1
            try #require(steps < 1_000)
        }
        #expect(try database.feed.searchPosts("morning", viewerID: nil).map { $0.item.post.id } == before)
        #expect(before.count == 20)
        #expect(try !database.feed.mergeSearchIndexes())
    }

    @Test func tagCountsFollowPosts() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        let first = try database.posts.createPost(authorID: mina, content: content("a #run", tags: ["run", "runday"]), photos: []).storedID
        _ = try database.posts.createPost(authorID: mina, content: content("b #run", tags: ["run"]), photos: [])
        #expect(try database.feed.searchTags("ru").map(\.tag) == ["run", "runday"])
        #expect(try database.feed.searchTags("ru").map(\.posts) == [2, 1])
        _ = try database.posts.updatePost(id: first, authorID: mina, content: content("a", tags: []))
        #expect(try database.feed.searchTags("ru").map(\.posts) == [1])
        #expect(try database.feed.searchTags("RU").isEmpty)
    }

    @Test func namesAreFoundAnywhereAndFollowRenames() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.accounts.createUser(User(username: "mina", email: "mina@example.com", passwordHash: "x", displayName: "김민아 Kim")).storedID
        #expect(try database.feed.searchUsers("민아").map(\.username) == ["mina"])
        #expect(try database.feed.searchUsers("KIM").map(\.username) == ["mina"])
        _ = try database.profiles.updateProfile(userID: mina, ProfileChanges(displayName: "Sunrise Mina", bio: "", gender: nil, birthYear: nil,
                                                                                job: nil, region: nil, language: nil))
        #expect(try database.feed.searchUsers("민아").isEmpty)
        #expect(try database.feed.searchUsers("rise").map(\.username) == ["mina"])

        let crew = try database.crews.createCrew(ownerID: mina, fields: CrewFields(
            slug: "river", name: "한강 River Runners", sport: .running, region: "seoul", description: "", descriptionHTML: "", meetingTime: "",
            meetingPlace: "", feeAmount: 0, feeCurrency: "KRW", feePeriod: .month, joinPolicy: .open, memberCap: nil), inviteCode: nil)
        #expect(try database.crews.crewsNamed("river").map(\.id) == [crew.id])
        #expect(try database.crews.crewsNamed("한강").map(\.id) == [crew.id])
        #expect(try database.crews.crewsNamed("%").isEmpty)
    }

    @Test func meetupsAreNamedUpcomingAndVisible() throws {
        let database = try TestDatabase.fresh()
        let host = try database.members("host")[0]
        let now = Date()
        func meetup(_ title: String, in seconds: TimeInterval, crewOnly: Bool = false) -> Meetup {
            Meetup(id: nil, hostID: host, crewID: nil, crewOnly: crewOnly, title: title, description: "", descriptionHTML: "",
                   startsAt: now.addingTimeInterval(seconds), durationMinutes: 60, placeName: "Yeouido", address: "", latitude: nil,
                   longitude: nil, placeNote: "", region: "seoul", timeSlot: .afterWork, distanceKm: 5, pace: .average, style: .run,
                   capacity: 5, signupMode: .firstCome, deadline: now.addingTimeInterval(seconds - 60), afterParty: false, genderRule: .any,
                   minAge: nil, maxAge: nil, jobs: "", acceptedCount: 0, closedAt: nil, sequence: 0, createdAt: now, updatedAt: now)
        }
        try database.demo.insertMeetups([meetup("한강 야간 러닝", in: 7_200), meetup("한강 새벽 러닝", in: 3_600), meetup("한강 지난 러닝", in: -3_600)])
        var filter = MeetupFilter()
        filter.named = "러닝"
        #expect(try database.meetups.meetups(filter, viewerID: nil, after: nil, limit: 5).meetups.map(\.title) == ["한강 새벽 러닝", "한강 야간 러닝"])
        filter.named = "야간"
        #expect(try database.meetups.meetups(filter, viewerID: nil, after: nil, limit: 5).meetups.map(\.title) == ["한강 야간 러닝"])
    }
}
