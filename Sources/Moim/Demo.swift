import ArgumentParser
import Foundation
import Markdown
import Storage
import Web

/// `moim demo`: fills the database with generated members, follows and posts, for trying the
/// site out and for benchmarks. Every generated member's password is `demo password`.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Generate demo members and posts (password: \"demo password\").")

    @Option(help: "Members to create, named runner1…runnerN.") var users = 1_000
    @Option(help: "Posts to create, spread over the members.") var posts = 10_000
    @Option(help: "People each member follows.") var follows = 50
    @Option(help: "Comments on the newest post.") var comments = 50
    @Option(help: "Upcoming meetups, at points around Korea's cities.") var meetups = 2_000
    @Option(help: "Crews of about 20 members each.") var crews = 0
    @Option(help: "Runs recorded over the past year, spread over the members.") var records = 0
    @Option(help: "Comments spread over the newest posts.") var postComments = 0
    @Option(help: "Notifications (follows and mentions), spread over the members.") var notifications = 0
    @OptionGroup var dataOptions: DataOptions

    func run() throws {
        guard users > 0, [posts, follows, meetups, crews, records, postComments, notifications].allSatisfy({ $0 >= 0 }) else {
            throw ValidationError("Counts must not be negative.")
        }
        let database = try dataOptions.open()
        defer { try? database.close() }
        let started = Date()
        var generator = SystemRandomNumberGenerator()
        let ids = try database.demo.insertUsers(count: users, prefix: "runner", passwordHash: PasswordHashing.hash("demo password"))
        var pairs: [(follower: Int64, followee: Int64)] = []
        for follower in ids {
            for _ in 0..<min(follows, ids.count - 1) { pairs.append((follower, ids.randomElement(using: &generator)!)) }
        }
        try database.demo.insertFollows(pairs)

        let places = ["한강", "남산", "Olympic Park", "Seoul Forest", "Haeundae", "Gwanggyo Lake", "the track"]
        let tags = ["run", "한강러닝", "morningrun", "10k", "halfmarathon", "trail", "interval", "recovery"]
        let batch = 20_000
        var written = 0
        var last: Int64? = nil
        while written < posts {
            let count = min(batch, posts - written)
            let start = Date().addingTimeInterval(-Double(posts - written) * 60)
            let drafts: [DemoPost] = (0..<count).map { offset in
                let number = written + offset + 1
                let km = Double(Int.random(in: 30...215, using: &generator)) / 10
                let tag = tags.randomElement(using: &generator)!
                let body = "Run #\(number): \(km) km around \(places.randomElement(using: &generator)!), "
                    + "pace \(Int.random(in: 4...7, using: &generator)):\(String(format: "%02d", Int.random(in: 0...59, using: &generator)))/km. **Felt good.** #\(tag)"
                    // A rarer sentence in one post of 400, for searches of rare words: a full page
                    // of them (20) on a site of 10,000 posts as on bigger ones.
                    + (number % 400 == 0 ? " 반포대교 야경이 멋졌어요." : "")
                let document = MarkdownRenderer.render(body) { _ in [] }
                return DemoPost(authorID: ids.randomElement(using: &generator)!, body: body, bodyHTML: document.html,
                                            tags: document.tags, createdAt: start.addingTimeInterval(Double(offset) * 60))
            }
            last = try database.demo.insertPosts(drafts).last ?? last
            written += count
            print("posts: \(written)/\(posts)")
        }
        if let last, comments > 0 { try database.demo.insertComments(postID: last, authors: ids, count: comments) }
        try database.demo.insertMeetups(Self.meetups(meetups, hosts: ids, using: &generator))
        try insertCrews(database, members: ids, using: &generator)
        try inBatches(records) { count in
            try database.demo.insertRecords((0..<count).compactMap { _ in Self.record(by: ids.randomElement(using: &generator), using: &generator) })
        }
        if let last, postComments > 0 {
            // On the newest posts, a hundred times as many as the comments asked for.
            let spread = postComments > posts / 100 ? posts : postComments * 100
            let recent = max(1, last - Int64(spread) + 1)...max(1, last)
            try inBatches(postComments) { count in
                try database.demo.insertComments(postIDs: (0..<count).map { _ in Int64.random(in: recent, using: &generator) }, authors: ids)
            }
        }
        try inBatches(notifications) { count in
            try database.demo.insertNotifications((0..<count).compactMap { number in
                guard let user = ids.randomElement(using: &generator), let actor = ids.randomElement(using: &generator) else { return nil }
                let post = last.flatMap { number % 2 == 0 ? Int64.random(in: 1...$0, using: &generator) : nil }
                return (user, actor, post, started.addingTimeInterval(-Double.random(in: 0...(30 * 86_400), using: &generator)))
            })
        }
        // As a server leaves them after its sweeps: the search indexes merged (`sweep`).
        while try database.feed.mergeSearchIndexes(pages: 2_000) {}
        print(String(format: "Demo data ready in %.1f s: %d members, %d posts, %d meetups, %d crews, %d runs. Log in as runner1 with the password \"demo password\".",
                     Date().timeIntervalSince(started), users, posts, meetups, crews, records))
        if let last { print("Newest post: /posts/\(last)") }
    }

    /// Writes `total` rows in transactions of at most 50,000, each made by `write(count)`.
    private func inBatches(_ total: Int, _ write: (Int) throws -> Void) throws {
        var written = 0
        while written < total {
            let count = min(50_000, total - written)
            try write(count)
            written += count
        }
    }

    /// Crews of 10 to 30 members drawn from `members`, in the regions and sports of the site.
    private func insertCrews(_ database: AppDatabase, members: [Int64], using generator: inout SystemRandomNumberGenerator) throws {
        let names = ["Hangang", "Namsan", "Dawn", "Night", "Trail", "Track", "Weekend", "Office", "River", "Forest", "한강", "새벽", "퇴근길"]
        let kinds = [("Runners", Crew.Sport.running), ("Hikers", .hiking), ("Hoops", .basketball), ("러닝 크루", .running)]
        let regions = ["seoul", "busan", "gyeonggi", "incheon", "daegu"]
        let now = Date()
        var made = 0
        while made < crews {
            let count = min(2_000, crews - made)
            var batch: [(crew: CrewFields, members: [Int64])] = []
            for offset in 0..<count {
                let number = made + offset + 1
                let (kind, sport) = kinds[number % kinds.count]
                let name = "\(names[number % names.count]) \(kind) \(number)"
                let crew = CrewFields(slug: "crew-\(number)", name: name, sport: sport, region: regions[number % regions.count],
                                      description: "We meet every week. All paces welcome.",
                                      descriptionHTML: "<p>We meet every week. All paces welcome.</p>\n", meetingTime: "Sat 7:00",
                                      meetingPlace: "The usual gate", feeAmount: 0, feeCurrency: "KRW", feePeriod: .month, joinPolicy: .open,
                                      memberCap: nil)
                let size = Int.random(in: 10...30, using: &generator)
                batch.append((crew, (0..<size).compactMap { _ in members.randomElement(using: &generator) }))
            }
            try database.demo.insertCrews(batch, now: now)
            made += batch.count
        }
    }

    /// A run of 3 to 21 km at 4:30 to 7:00 a kilometre, some day in the past year.
    static func record(by runner: Int64?, using generator: inout SystemRandomNumberGenerator) -> RunRecord? {
        guard let runner else { return nil }
        let meters = Int.random(in: 3_000...21_000, using: &generator)
        let started = Date().addingTimeInterval(-Double.random(in: 3_600...(365 * 86_400), using: &generator))
        return RunRecord(userID: runner, startedAt: started, distanceMeters: meters, durationSeconds: meters * Int.random(in: 270...420, using: &generator) / 1_000,
                         elevationGain: Int.random(in: 0...200, using: &generator), note: "", noteHTML: "", visibility: .public, meetupID: nil,
                         track: nil, createdAt: started)
    }

    /// Meetups in the next 60 days, a third of them around Seoul, the rest around other cities,
    /// each within about 15 km of its city's centre.
    static func meetups(_ count: Int, hosts: [Int64], using generator: inout SystemRandomNumberGenerator) -> [Meetup] {
        let cities: [(name: String, region: String, latitude: Double, longitude: Double)] = [
            ("Seoul", "seoul", 37.5665, 126.9780), ("Seoul", "seoul", 37.5283, 126.9327), ("Busan", "busan", 35.1796, 129.0756),
            ("Incheon", "incheon", 37.4563, 126.7052), ("Daegu", "daegu", 35.8714, 128.6014), ("Daejeon", "daejeon", 36.3504, 127.3845),
        ]
        let now = Date()
        return (0..<count).compactMap { number in
            guard let city = cities.randomElement(using: &generator), let host = hosts.randomElement(using: &generator) else { return nil }
            let latitude = city.latitude + Double.random(in: -0.13...0.13, using: &generator)
            let longitude = city.longitude + Double.random(in: -0.16...0.16, using: &generator)
            let startsAt = now.addingTimeInterval(Double.random(in: 3_600...(60 * 86_400), using: &generator)).rounded(to: 900)
            let km = Double(Int.random(in: 3...21, using: &generator))
            return Meetup(
                id: nil, hostID: host, crewID: nil, crewOnly: false, title: "\(city.name) \(Int(km))K #\(number + 1)",
                description: "An easy run, all paces welcome.", descriptionHTML: "<p>An easy run, all paces welcome.</p>\n",
                startsAt: startsAt, durationMinutes: 60, placeName: "\(city.name) meeting point", address: "", latitude: latitude,
                longitude: longitude, placeNote: "", region: city.region, timeSlot: Meetup.TimeSlot(startingAt: startsAt, in: TimeZone(identifier: "Asia/Seoul") ?? .current), distanceKm: km, pace: .average,
                style: .run, capacity: 10, signupMode: .firstCome, deadline: startsAt.addingTimeInterval(-3_600), afterParty: false,
                genderRule: .any, minAge: nil, maxAge: nil, jobs: "", acceptedCount: 0, closedAt: nil, sequence: 0, createdAt: now,
                updatedAt: now)
        }
    }
}

extension Date {
    /// Rounded down to a multiple of `seconds` since 1970.
    fileprivate func rounded(to seconds: Double) -> Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 / seconds).rounded(.down) * seconds)
    }
}
