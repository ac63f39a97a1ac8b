import Formats
/// A small line chart drawn as SVG on the server: one polyline per series over shared days.
struct ActivityChart {
    let series: [[Int]]
    let labels: [String]
    static let width = 600.0, height = 160.0, margin = 24.0

    var view: ChartView {
        let peak = max(1, series.flatMap { $0 }.max() ?? 1)
        let count = max(2, labels.count)
        let lines = series.enumerated().map { index, values in
            let points = values.enumerated().map { day, value -> String in
                let x = Self.margin + Double(day) * (Self.width - 2 * Self.margin) / Double(count - 1)
                let y = Self.height - Self.margin - Double(value) * (Self.height - 2 * Self.margin) / Double(peak)
                return "\(Checked.pixel(x)),\(Checked.pixel(y))"
            }
            return ChartView.Line(points: points.joined(separator: " "), seriesClass: "series-\(index)")
        }
        return ChartView(
            width: Int(Self.width), height: Int(Self.height), margin: Int(Self.margin),
            baseline: Int(Self.height - Self.margin), right: Int(Self.width - Self.margin),
            lines: lines, peak: peak, first: labels.first ?? "", last: labels.last ?? "")
    }
}

/// What the chart's SVG template draws.
struct ChartView {
    struct Line {
        let points: String
        let seriesClass: String
    }

    let width: Int
    let height: Int
    let margin: Int
    let baseline: Int
    let right: Int
    let lines: [Line]
    let peak: Int
    let first: String
    let last: String
}
