import Foundation
import Testing
@testable import Web

/// The compiled templates write what swift-mustache writes from the same views, for the
/// pages compiled so far, in both languages; only the indentation of partials differs (the
/// compiled pages do not indent a partial's lines, nor the blank lines that leaves).
@Suite struct CompiledTemplateTests {
    static let localizer = try! Localizer(directory: TestSite.root + "/Templates/i18n")
    static let templates = try! Templates(directory: TestSite.root + "/Templates", localizer: localizer)

    static let hostile = #"<script>alert("x")</script> & 'quoted'"#

    static func layout(signedIn: Bool, language: Language) -> LayoutView {
        LayoutView(
            lang: language.rawValue, title: "Feed \(hostile)", csrf: "token&<>", signedIn: signedIn, path: "/?before=9&x=\"",
            searchQuery: hostile,
            languages: Language.allCases.map { LanguageChoice(code: $0.rawValue, name: $0.rawValue, current: $0 == language) },
            section: SectionMarks(current: .feed),
            currentUser: signedIn ? UserView(username: "mina", displayName: "Mina <b>", url: "/u/mina", isStaff: true) : nil,
            unreadCount: signedIn ? "3" : nil, warnings: signedIn ? ["Be kind \(hostile)"] : [], silenced: nil, flash: "Saved & done")
    }

    static func card(_ id: Int64, photos: Int) -> PostCardView {
        PostCardView(
            id: id, url: "/posts/\(id)", author: UserView(username: "jun", displayName: "Jun \(hostile)", url: "/u/jun", isStaff: false),
            bodyHTML: "<p>Ran <em>10 km</em></p>", excerptHTML: nil, date: "Nov 22", isoDate: "2026-11-22T06:00:00Z", edited: id % 2 == 0,
            photos: (0..<photos).map { PhotoView(url: "/media/\($0).jpg", width: 640, height: 480, alt: "Photo \($0) \(hostile)") },
            likeCount: "1,204", commentCount: "0", liked: id % 2 == 1, bookmarked: id % 3 == 0, isAuthor: false,
            hidden: id == 3, locked: false, returnTo: "/#post-\(id)")
    }

    @Test(arguments: Language.allCases, [true, false])
    func homeAndExploreMatchTheInterpreter(language: Language, signedIn: Bool) throws {
        for exploring in [true, false] {
            for posts in [[], [Self.card(1, photos: 0), Self.card(2, photos: 3), Self.card(3, photos: 5)]] {
                let view = HomeView(exploring: exploring, feed: FeedView(posts: posts, olderURL: posts.isEmpty ? nil : "/?before=1"),
                                    memberCount: exploring ? "10,000" : nil, welcome: signedIn ? "Hi \(Self.hostile)" : nil)
                let layout = Self.layout(signedIn: signedIn, language: language)
                var writer = HTMLWriter(language)
                view.render(into: &writer, layout)
                var data = layout.dictionary
                data.merge([
                    "exploring": exploring, "posts": posts.map(\.dictionary), "hasPosts": view.hasPosts,
                    "olderURL": view.olderURL as Any, "memberCount": view.memberCount as Any, "welcome": view.welcome as Any,
                ]) { _, new in new }
                let interpreted = try Self.templates.render("home", language, App.droppingNils(data))
                #expect(Self.unindented(String(decoding: writer.bytes, as: UTF8.self)) == Self.unindented(interpreted))
            }
        }
    }

    /// The lines without their indentation, blank ones left out.
    static func unindented(_ html: String) -> [Substring] {
        html.split(separator: "\n").map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }
    }
}
