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
    /// The options of a `<select>`, each labelled by the text `labels` names for its value
    /// (`TextKey.choices.job.named`), or by the value itself.
    func choices(_ values: [String], labels: (String) -> TextKey?, selected: String?, _ language: Language) -> [Choice] {
        values.map { Choice(value: $0, label: localizer.text(labels($0), language, otherwise: $0), selected: $0 == selected) }
    }

}

/// One option of a `<select>`.
struct Choice {
    let value: String
    let label: String
    let selected: Bool
}
