import Formats
import Foundation
import HTTP
import Storage

/// The profile fields shared by signup and settings, as typed.
struct ProfileFields {
    var displayName: String
    var bio: String
    var gender: String
    var birthYear: String
    var job: String
    var region: String
    var language: String

    init(_ form: URLEncodedForm) {
        displayName = (form["display_name"] ?? "").trimmed
        bio = (form["bio"] ?? "").trimmed.replacingOccurrences(of: "\r\n", with: "\n")
        gender = form["gender"] ?? ""
        birthYear = (form["birth_year"] ?? "").trimmed
        job = form["job"] ?? ""
        region = form["region"] ?? ""
        language = form["language"] ?? ""
    }

    init(_ user: User) {
        displayName = user.displayName
        bio = user.bio
        gender = user.gender ?? ""
        birthYear = user.birthYear.map(String.init) ?? ""
        job = user.job ?? ""
        region = user.region ?? ""
        language = user.language ?? ""
    }

    /// The birth years a member may give: 14 (the age of consent to signing up alone) to 120
    /// years ago.
    static func birthYears(now: Date = Date()) -> ClosedRange<Int> {
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: now)
        return (thisYear - 120)...(thisYear - 14)
    }

    func validate(into errors: inout FieldErrors, now: Date = Date()) {
        if !displayName.isName(1, 50) {
            errors.add("display_name", .errors.display_name)
        }
        if !bio.fits(0, 500) { errors.add("bio", .errors.bio) }
        if !gender.isEmpty, !Choices.genders.contains(gender) { errors.add("gender", .errors.choice) }
        if !job.isEmpty, !Choices.jobs.contains(job) { errors.add("job", .errors.choice) }
        if !region.isEmpty, !Choices.regions.contains(region) { errors.add("region", .errors.choice) }
        if !language.isEmpty, Language(rawValue: language) == nil { errors.add("language", .errors.choice) }
        if !birthYear.isEmpty {
            let years = Self.birthYears(now: now)
            if Checked.integer(birthYear, in: years) == nil {
                errors.add("birth_year", .errors.birth_year, ["first": String(years.lowerBound), "last": String(years.upperBound)])
            }
        }
    }

    var changes: ProfileChanges {
        ProfileChanges(
            displayName: displayName, bio: bio, gender: gender.nilIfEmpty, birthYear: Checked.integer(birthYear, in: Checked.years),
            job: job.nilIfEmpty, region: region.nilIfEmpty, language: language.nilIfEmpty
        )
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension App {
    /// What the profile part of a form template shows: values, option lists, errors.
    func profileForm(_ fields: ProfileFields, _ language: Language) -> ProfileFormView {
        ProfileFormView(
            displayName: fields.displayName,
            bio: fields.bio,
            birthYear: fields.birthYear,
            birthYears: ProfileFields.birthYears(),
            genders: choices(Choices.genders, labels: TextKey.choices.gender.named, selected: fields.gender, language),
            jobs: choices(Choices.jobs, labels: TextKey.choices.job.named, selected: fields.job, language),
            regions: choices(Choices.regions, labels: TextKey.choices.region.named, selected: fields.region, language),
            languageOptions: Language.allCases.map { option in
                Choice(value: option.rawValue, label: localizer.text(option.textKey, option), selected: option.rawValue == fields.language)
            })
    }
}

/// The profile fields of the signup and settings forms, as typed.
struct ProfileFormView {
    let displayName: String
    let bio: String
    let birthYear: String
    let birthYears: ClosedRange<Int>
    var minBirthYear: Int { birthYears.lowerBound }
    var maxBirthYear: Int { birthYears.upperBound }
    let genders: [Choice]
    let jobs: [Choice]
    let regions: [Choice]
    let languageOptions: [Choice]
}
