import Formats
import Foundation
import HTTP
import Imaging
import Storage

/// The create/edit crew form, as typed.
struct CrewForm {
    static let currencies = ["KRW", "USD", "EUR", "JPY"]

    var name: String
    var slug: String
    var sport: String
    var region: String
    var description: String
    var meetingTime: String
    var meetingPlace: String
    var feeAmount: String
    var feeCurrency: String
    var feePeriod: String
    var joinPolicy: String
    var memberCap: String
    /// Days after joining within which leaving gives the join fee back.
    var refundDays: String
    var cover: MultipartForm.File?

    init(_ context: RequestContext) {
        self.init(context.form, cover: context.files.first { $0.field == "cover" })
    }

    init(_ form: URLEncodedForm, cover: MultipartForm.File? = nil) {
        name = (form["name"] ?? "").trimmed
        slug = (form["slug"] ?? "").trimmed.lowercased()
        sport = form["sport"] ?? ""
        region = form["region"] ?? ""
        description = (form["description"] ?? "").trimmed
        meetingTime = (form["meeting_time"] ?? "").trimmed
        meetingPlace = (form["meeting_place"] ?? "").trimmed
        feeAmount = (form["fee_amount"] ?? "0").trimmed
        feeCurrency = form["fee_currency"] ?? "KRW"
        feePeriod = form["fee_period"] ?? "month"
        joinPolicy = form["join_policy"] ?? "open"
        memberCap = (form["member_cap"] ?? "").trimmed
        refundDays = (form["refund_days"] ?? "0").trimmed
        self.cover = cover
    }

    init(_ crew: Crew) {
        name = crew.name
        slug = crew.slug
        sport = crew.sport.rawValue
        region = crew.region ?? ""
        description = crew.description
        meetingTime = crew.meetingTime
        meetingPlace = crew.meetingPlace
        feeAmount = String(crew.feeAmount)
        feeCurrency = crew.feeCurrency
        feePeriod = crew.feePeriod.rawValue
        joinPolicy = crew.joinPolicy.rawValue
        memberCap = crew.memberCap.map(String.init) ?? ""
        refundDays = String(crew.refundDays)
        cover = nil
    }

    /// A URL slug for a name: transliterated to Latin letters (Korean too), lower-case,
    /// words joined by hyphens.
    static func slug(from name: String) -> String {
        let latin = name.applyingTransform(StringTransform("Any-Latin; Latin-ASCII; Lower"), reverse: false) ?? name.lowercased()
        var slug = ""
        for character in latin {
            if character.isASCII, character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        slug = String(slug.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(40))
        return slug.count >= 2 ? slug.trimmingCharacters(in: CharacterSet(charactersIn: "-")) : "crew"
    }

    static func isValidSlug(_ slug: String) -> Bool {
        (2...40).contains(slug.utf8.count) && !slug.hasPrefix("-") && !slug.hasSuffix("-")
            && slug.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
            && !["new"].contains(slug)
    }

    /// The fields to save (with `descriptionHTML` left for the caller to render), or errors.
    func validate(images processor: ImageProcessor) throws -> (CrewFields?, ProcessedImage?, FieldErrors) {
        var errors = FieldErrors()
        if !name.isName(2, 60) { errors.add("name", .errors.crew_name) }
        let slug = slug.isEmpty ? Self.slug(from: name) : slug
        if !Self.isValidSlug(slug) { errors.add("slug", .errors.crew_slug) }
        let sport = Crew.Sport(rawValue: sport)
        if sport == nil { errors.add("sport", .errors.choice) }
        if !region.isEmpty, !Choices.regions.contains(region) { errors.add("region", .errors.choice) }
        if !description.fits(0, 5000) { errors.add("description", .errors.crew_description) }
        if !meetingTime.fits(0, 100) { errors.add("meeting_time", .errors.too_long_100) }
        if !meetingPlace.fits(0, 100) { errors.add("meeting_place", .errors.too_long_100) }
        let fee = Checked.integer(feeAmount, in: 0...100_000_000)
        if fee == nil { errors.add("fee_amount", .errors.crew_fee) }
        if !Self.currencies.contains(feeCurrency) { errors.add("fee_amount", .errors.choice) }
        let period = Crew.FeePeriod(rawValue: feePeriod)
        if period == nil { errors.add("fee_period", .errors.choice) }
        let policy = Crew.JoinPolicy(rawValue: joinPolicy)
        if policy == nil { errors.add("join_policy", .errors.choice) }
        let cap = Checked.integer(memberCap, in: 1...100_000)
        if !memberCap.isEmpty, cap == nil { errors.add("member_cap", .errors.crew_cap) }
        let refundWindow = refundDays.isEmpty ? 0 : Checked.integer(refundDays, in: 0...365)
        if refundWindow == nil { errors.add("refund_days", .errors.crew_refund_days) }
        var image: ProcessedImage? = nil
        if let cover {
            if cover.data.count > PhotoUploads.maximumBytes {
                errors.add("cover", .errors.photo_too_large)
            } else {
                do {
                    image = try processor.process(cover.data)
                } catch .busy {
                    throw App.imagesBusy
                } catch {
                    errors.add("cover", error == .tooManyPixels ? .errors.photo_pixels : .errors.photo_not_image)
                }
            }
        }
        guard errors.isEmpty, let sport, let period, let policy, let fee, let refundWindow else { return (nil, nil, errors) }
        let fields = CrewFields(slug: slug, name: name, sport: sport, region: region.nilIfEmpty, description: description,
                                descriptionHTML: "", meetingTime: meetingTime, meetingPlace: meetingPlace, feeAmount: fee,
                                feeCurrency: feeCurrency, feePeriod: period, joinPolicy: policy, memberCap: cap,
                                refundDays: refundWindow)
        return (fields, image, errors)
    }
}
