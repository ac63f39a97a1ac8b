import HTTP
import Storage

extension App {
    /// `GET /u/:username/feedback`: every keyword received, private to its owner.
    func feedbackArchive(_ context: RequestContext) throws -> HTTPResponse {
        let owner = try profileUser(context)
        guard context.user?.id == owner.id else { throw HTTPError(.notFound) }
        let language = context.language
        let archive = try database.retros.feedbackArchive(userID: owner.storedID)
        let view = FeedbackArchiveView(
            counts: archive.counts.map { KeywordCountView(keyword: $0.keyword, count: $0.count) },
            items: archive.items.map { item in
                ReceivedFeedbackView(
                    keyword: item.feedback.keyword, description: item.feedback.description, crew: item.crew, retro: item.retro.name,
                    kind: localizer.text(item.feedback.kind.textKey, language), isContinue: item.feedback.kind == .continue,
                    date: localizer.date(item.retro.startsAt, language))
            })
        return page(view, context, title: localizer.text(.retros.archive, language))
    }
}
