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
    @OptionGroup var dataOptions: DataOptions

    func run() throws {
        guard users > 0, posts >= 0, follows >= 0, meetups >= 0 else { throw ValidationError("Counts must not be negative.") }
        let database = try dataOptions.open()
        defer { try? database.close() }
        let started = Date()
        var generator = SystemRandomNumberGenerator()
        let ids = try database.insertDemoUsers(count: users, prefix: "runner", passwordHash: PasswordHashing.hash("demo password"))
        var pairs: [(follower: Int64, followee: Int64)] = []
        for follower in ids {
            for _ in 0..<min(follows, ids.count - 1) { pairs.append((follower, ids.randomElement(using: &generator)!)) }
        }
        try database.insertDemoFollows(pairs)

        let places = ["한강", "남산", "Olympic Park", "Seoul Forest", "Haeundae", "Gwanggyo Lake", "the track"]
        let tags = ["run", "한강러닝", "morningrun", "10k", "halfmarathon", "trail", "interval", "recovery"]
        let batch = 20_000
        var written = 0
        var last: Int64? = nil
        while written < posts {
            let count = min(batch, posts - written)
            let start = Date().addingTimeInterval(-Double(posts - written) * 60)
            let drafts: [AppDatabase.DemoPost] = (0..<count).map { offset in
                let number = written + offset + 1
                let km = Double(Int.random(in: 30...215, using: &generator)) / 10
                let tag = tags.randomElement(using: &generator)!
                let body = "Run #\(number): \(km) km around \(places.randomElement(using: &generator)!), "
                    + "pace \(Int.random(in: 4...7, using: &generator)):\(String(format: "%02d", Int.random(in: 0...59, using: &generator)))/km. **Felt good.** #\(tag)"
                let document = MarkdownRenderer.render(body) { _ in [] }
                return AppDatabase.DemoPost(authorID: ids.randomElement(using: &generator)!, body: body, bodyHTML: document.html,
                                            tags: document.tags, createdAt: start.addingTimeInterval(Double(offset) * 60))
            }
            last = try database.insertDemoPosts(drafts).last ?? last
            written += count
            print("posts: \(written)/\(posts)")
        }
        if let last, comments > 0 { try database.insertDemoComments(postID: last, authors: ids, count: comments) }
        try database.insertDemoMeetups(Self.meetups(meetups, hosts: ids, using: &generator))
        print(String(format: "Demo data ready in %.1f s: %d members, %d posts, %d meetups. Log in as runner1 with the password \"demo password\".",
                     Date().timeIntervalSince(started), users, posts, meetups))
        if let last { print("Newest post: /posts/\(last)") }
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
                longitude: longitude, placeNote: "", region: city.region, timeSlot: .weekend, distanceKm: km, pace: .average,
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
