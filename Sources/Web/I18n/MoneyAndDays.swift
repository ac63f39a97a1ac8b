import Foundation

/// Amounts of money and calendar days as people read them, in the site's time zone.
extension App {
    /// "₩10,000", "$20", "€15", "¥2,000".
    func money(_ amount: Int, _ currency: String, _ language: Language) -> String {
        let symbols = ["KRW": "₩", "USD": "$", "EUR": "€", "JPY": "¥"]
        let number = localizer.number(amount, language)
        return symbols[currency].map { $0 + number } ?? "\(number) \(currency)"
    }

    /// Today in the site's time zone, as the ledger dates its lines.
    func today(_ now: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = localizer.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
