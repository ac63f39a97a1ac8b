/// A small line chart drawn as SVG on the server: one polyline per series over shared days.
struct ActivityChart {
    let series: [[Int]]
    let labels: [String]
    static let width = 600.0, height = 160.0, margin = 24.0

    var view: [String: Any] {
        let peak = max(1, series.flatMap { $0 }.max() ?? 1)
        let count = max(2, labels.count)
        let lines: [[String: Any]] = series.enumerated().map { index, values in
            let points = values.enumerated().map { day, value -> String in
                let x = Self.margin + Double(day) * (Self.width - 2 * Self.margin) / Double(count - 1)
                let y = Self.height - Self.margin - Double(value) * (Self.height - 2 * Self.margin) / Double(peak)
                return "\(Checked.pixel(x)),\(Checked.pixel(y))"
            }
            return ["points": points.joined(separator: " "), "class": "series-\(index)", "total": values.reduce(0, +)]
        }
        return [
            "width": Int(Self.width), "height": Int(Self.height), "lines": lines, "peak": peak,
            "first": labels.first ?? "", "last": labels.last ?? "",
            "baseline": Int(Self.height - Self.margin), "right": Int(Self.width - Self.margin), "margin": Int(Self.margin),
        ]
    }
}
