/// The fixed options of profile fields that meetup eligibility and search filter on.
enum Choices {
    static let genders = ["female", "male", "other"]
    static let jobs = [
        "developer", "design", "product", "marketing", "sales", "office", "finance", "education",
        "healthcare", "public", "research", "media", "service", "manufacturing", "student", "other",
    ]
    static let regions = [
        "seoul", "busan", "daegu", "incheon", "gwangju", "daejeon", "ulsan", "sejong", "gyeonggi",
        "gangwon", "chungbuk", "chungnam", "jeonbuk", "jeonnam", "gyeongbuk", "gyeongnam", "jeju", "abroad",
    ]
}

extension App {
    /// `<option>` rows for a `<select>`: value, localized label, selected flag.
    /// The options of a `<select>`, labelled from the catalog keys `prefix.value`.
    func choices(_ values: [String], labels prefix: String, selected: String?, _ language: Language) -> [Choice] {
        values.map { Choice(value: $0, label: localizer.text("\(prefix).\($0)", language), selected: $0 == selected) }
    }

}

/// One option of a `<select>`.
struct Choice {
    let value: String
    let label: String
    let selected: Bool
}
