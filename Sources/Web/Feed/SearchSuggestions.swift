import CompiledHTML
import Foundation
import HTTP
import Markdown
import Storage

/// The search box's suggestions: an HTML fragment of WAI-ARIA options (`app.js` shows it under
/// the box as a combobox's list). People, crews, tags and upcoming meetups whose names hold
/// the text, then "search posts for …". Each kind is read through an index of names
/// (`nameKeys`, `tagCounts`), so the fragment costs the same on any size of site.
struct SuggestionsView {
    static let template = "search-suggest"
    let groups: [SuggestionGroup]
    let searchURL: String
    let searchFor: String
    /// What a screen reader says when the list changes.
    let announcement: String
}

struct SuggestionGroup {
    let name: String
    let options: [SuggestionOption]
}

struct SuggestionOption {
    let url: String
    /// An initial, `#` or a pin, beside the name.
    let mark: String
    let label: String
    let detail: String
}

extension App {
    /// Suggestions start from two characters: one matches too much to help.
    static let suggestionMinimum = 2

    /// `GET /search/suggest?q=`
    func searchSuggest(_ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        let query = SearchText(context.form["q"] ?? "").text
        var groups: [SuggestionGroup] = []
        if query.unicodeScalars.count >= Self.suggestionMinimum {
            let name = query.hasPrefix("@") || query.hasPrefix("#") ? String(query.dropFirst()) : query
            func group(_ title: TextKey, _ options: [SuggestionOption]) {
                if !options.isEmpty { groups.append(SuggestionGroup(name: localizer.text(title, language), options: options)) }
            }
            group(.search.people, try database.feed.searchUsers(name, viewerID: context.user?.id, limit: 4).map { user in
                SuggestionOption(url: Paths.profile(user.username), mark: UserView(user).initial, label: user.displayName, detail: "@" + user.username)
            })
            group(.search.crews, try database.crews.crewsNamed(name, limit: 3).map { crew in
                SuggestionOption(url: Paths.crew(crew.slug), mark: String(crew.name.first ?? "?"), label: crew.name,
                                 detail: localizer.count(.crews.member, crew.memberCount, language))
            })
            group(.search.tags, try database.feed.searchTags(References.normalise(name), limit: 3).map { tag in
                SuggestionOption(url: Paths.tag(tag.tag), mark: "#", label: tag.tag, detail: localizer.count(.search.post_count, tag.posts, language))
            })
            var upcoming = MeetupFilter()
            upcoming.named = name
            group(.search.meetups, try database.meetups.meetups(upcoming, viewerID: context.user?.id, after: nil, limit: 3).meetups.map { meetup in
                SuggestionOption(url: Paths.meetup(meetup.id ?? 0), mark: "📍", label: meetup.title,
                                 detail: localizer.dateTime(meetup.startsAt, language))
            })
        }
        let count = groups.reduce(1) { $0 + $1.options.count }
        let view = SuggestionsView(
            groups: groups, searchURL: Paths.search + "?q=" + PercentEncoding.encode(query),
            searchFor: localizer.text(.search.search_for, language, ["query": query]),
            announcement: localizer.count(.search.suggested, count, language))
        var writer = HTMLWriter(language)
        view.render(into: &writer)
        var response = HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]), body: writer.bytes)
        // The same text gives the same list for a minute: typing back and forth asks once.
        response.headers.add("Cache-Control", "private, max-age=60")
        return response
    }
}
