import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// `GET /records?month=YYYY-MM`: the signed-in member's month of runs.
    func recordCalendar(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        return try renderCalendar(runner: user, context, path: "/records")
    }

    /// `GET /u/:username/records`: the same calendar of someone, with what they let you see.
    func profileRecords(_ context: RequestContext) throws -> HTTPResponse {
        let runner = try profileUser(context)
        return try renderCalendar(runner: runner, context, path: Paths.profile(runner.username) + "/records")
    }

    private func renderCalendar(runner: User, _ context: RequestContext, path: String) throws -> HTTPResponse {
        let language = context.language
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = localizer.timeZone
        calendar.firstWeekday = 2  // weeks start on Monday
        let month: Date
        if let text = context.form["month"] {
            guard let parsed = Checked.localDateTime(text + "-01T00:00", in: localizer.timeZone), text.count == 7 else { throw HTTPError(.badRequest) }
            month = parsed
        } else {
            month = calendar.date(from: calendar.dateComponents([.year, .month], from: Date()))!
        }
        guard let next = calendar.date(byAdding: .month, value: 1, to: month), let previous = calendar.date(byAdding: .month, value: -1, to: month) else {
            throw HTTPError(.badRequest)
        }
        let units = context.user?.units ?? runner.units
        let records = try database.records.records(userID: runner.storedID, from: month, to: next, viewerID: context.user?.id)
        let byDay = Dictionary(grouping: records) { calendar.component(.day, from: $0.startedAt) }
        let leading = (calendar.component(.weekday, from: month) + 5) % 7
        let days = calendar.range(of: .day, in: .month, for: month)?.count ?? 30
        var weeks: [CalendarWeekView] = []
        var cells = Array(repeating: CalendarDayView.blank, count: leading)
        var weekMeters = 0
        for day in 1...days {
            let runs = byDay[day] ?? []
            weekMeters += runs.reduce(0) { $0 + $1.distanceMeters }
            cells.append(CalendarDayView(day: day, runs: runs.map { runView($0, units: units, language) }))
            if cells.count == 7 || day == days {
                while cells.count < 7 { cells.append(.blank) }
                weeks.append(CalendarWeekView(days: cells, total: weekMeters > 0 ? distanceText(weekMeters, units: units, language) : nil))
                cells = []
                weekMeters = 0
            }
        }
        let monthFormat = { (date: Date) in String(InternetDate.format(date.addingTimeInterval(Double(self.localizer.timeZone.secondsFromGMT(for: date)))).prefix(7)) }
        let totalMeters = records.reduce(0) { $0 + $1.distanceMeters }
        let totalSeconds = records.reduce(0) { $0 + $1.durationSeconds }
        let view = RecordsView(
            runner: UserView(runner),
            isSelf: context.user?.id == runner.id,
            month: localizer.monthYear(month, language),
            previousURL: path + "?month=" + monthFormat(previous),
            nextURL: path + "?month=" + monthFormat(next),
            weekdays: (0..<7).map { localizer.weekday($0, language) },
            weeks: weeks,
            totalDistance: distanceText(totalMeters, units: units, language),
            totalTime: durationText(totalSeconds),
            runCount: records.count,
            runsLabel: localizer.text(localizer.counted(.records.runs, records.count, language), language))
        return page(view, context, title: localizer.monthYear(month, language), section: .records)
    }
}

/// A member's month of runs.
struct RecordsView: PageView {
    static let template = "records"
    let runner: UserView
    let isSelf: Bool
    let month: String
    let previousURL: String
    let nextURL: String
    let weekdays: [String]
    let weeks: [CalendarWeekView]
    let totalDistance: String
    let totalTime: String
    let runCount: Int
    /// "run" or "runs", under the count.
    let runsLabel: String
}

struct CalendarWeekView {
    let days: [CalendarDayView]
    /// The week's distance, if they ran.
    let total: String?
}

struct CalendarDayView {
    static let blank = CalendarDayView(day: 0, runs: [], blank: true)
    let day: Int
    let runs: [RunView]
    var blank: Bool = false
    var hasRuns: Bool { !runs.isEmpty }
}
