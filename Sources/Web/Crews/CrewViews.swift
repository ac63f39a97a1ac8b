import Formats
import Foundation
import HTTP
import Storage

enum CrewTab: String {
    case about, members, meetups, posts, ledger, retros
}

extension App {
    /// A crew as cards and headers show it.
    func crewCard(_ crew: Crew, _ language: Language) -> CrewCardView {
        CrewCardView(
            slug: crew.slug,
            url: Paths.crew(crew.slug),
            name: crew.name,
            sport: localizer.text(crew.sport.textKey, language),
            region: crew.region.map { localizer.text(TextKey.choices.region.named($0), language, otherwise: $0) },
            memberCount: localizer.count(.crews.member, crew.memberCount, language),
            capText: crew.memberCap.map { localizer.text(.crews.cap, language, ["count": localizer.number($0, language)]) },
            policy: localizer.text(crew.joinPolicy.textKey, language),
            feeText: feeText(crew, language),
            full: crew.isFull,
            cover: crew.coverFileName.map { ImageView(fileName: $0, width: crew.coverWidth ?? 0, height: crew.coverHeight ?? 0, tone: crew.coverTone,
                                                    jpegWidths: crew.coverJPEGWidths) }
        )
    }

    func feeText(_ crew: Crew, _ language: Language) -> String? {
        guard crew.feeAmount > 0 else { return nil }
        return localizer.text(crew.feePeriod.feeKey, language,
                              ["amount": localizer.number(crew.feeAmount, language), "currency": crew.feeCurrency])
    }

    /// The crew named by `:slug`, or 404. A crew hidden by moderators shows only to its
    /// members and to staff.
    func crew(_ context: RequestContext) throws -> Crew {
        guard let slug = context.request.parameters["slug"], let crew = try database.crews.crew(slug: slug) else { throw HTTPError(.notFound) }
        if crew.hiddenAt != nil, context.user?.isStaff != true,
           try context.user.flatMap({ try database.crews.crewRole(crewID: crew.storedID, userID: $0.storedID) })?.isMember != true {
            throw HTTPError(.notFound)
        }
        return crew
    }

    /// What a refused crew write tells the user, beside the generic texts.
    static let crewRefusals: [StorageError: TextKey] = [
        .forbidden: .crews.errors.forbidden, .full: .crews.errors.full, .duplicate: .crews.errors.already_member,
    ]

    /// A random invite code of six characters that are hard to misread.
    static func newInviteCode() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        return String(Crypto.randomBytes(6).map { alphabet[Int($0) % alphabet.count] })
    }
}

/// A crew as its card (and its page's header) shows it.
struct CrewCardView {
    let slug: String
    let url: String
    let name: String
    var initial: String { String(name.first ?? "?").uppercased() }
    let sport: String
    let region: String?
    let memberCount: String
    let capText: String?
    let policy: String
    let feeText: String?
    let full: Bool
    let cover: ImageView?
    /// "1.2 km away": its nearest meeting point, in a near search.
    var away: String? = nil
}

/// A stored image with its size, so the page does not jump as it loads, and its variants.
struct ImageView {
    let url: String
    let width: Int
    let height: Int
    let sources: ImageSources
    let toneClass: String
    /// `sizes` as a crew card shows it (a grid's cell, the whole width on a phone) and as the
    /// crew page's banner does.
    var cardSizes: String { ImageSources.sizes(phoneShare: 100, below: 560, desktop: 340) }
    var bannerSizes: String { ImageSources.sizes(phoneShare: 100, below: 864, desktop: 832) }

    init(fileName: String, width: Int, height: Int, tone: Int?, jpegWidths: [Int]) {
        url = Paths.media(fileName)
        self.width = width
        self.height = height
        sources = ImageSources(fileName: fileName, width: width, jpegWidths: jpegWidths)
        toneClass = ImageSources.toneClass(tone)
    }
}
