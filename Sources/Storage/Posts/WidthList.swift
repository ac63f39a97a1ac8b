/// A list of image widths as a column holds it: `828 1280`. Read leniently, since the column is
/// only ever written by `text(_:)`: anything that is not a width in range is skipped.
enum WidthList {
    static let range = 1...12_000

    static func text(_ widths: [Int]) -> String {
        widths.filter { range.contains($0) }.map(String.init).joined(separator: " ")
    }

    static func widths(_ text: String) -> [Int] {
        text.split(separator: " ", maxSplits: 20).compactMap { Int($0) }.filter { range.contains($0) }
    }
}
