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
    func options(_ values: [String], labels prefix: String, selected: String?, _ language: Language) -> [[String: Any]] {
        values.map { value in
            ["value": value, "label": localizer.text("\(prefix).\(value)", language), "selected": value == selected]
        }
    }
}
