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
        let grid = try MonthGrid(context.form["month"], timeZone: localizer.timeZone)
        let (month, next, previous) = (grid.start, grid.next, grid.previous)
        let units = context.user?.units ?? runner.units
        let records = try database.records.records(userID: runner.storedID, from: month, to: next, viewerID: context.user?.id)
        let byDay = Dictionary(grouping: records) { grid.day(of: $0.startedAt) }
        let weeks = grid.weeks.map { days in
            let runs = days.flatMap { byDay[$0] ?? [] }
            let weekMeters = runs.reduce(0) { $0 + $1.distanceMeters }
            return CalendarWeekView(days: days.map { $0 == 0 ? .blank : CalendarDayView(day: $0, runs: (byDay[$0] ?? []).map { runView($0, units: units, language) }) },
                                    total: weekMeters > 0 ? distanceText(weekMeters, units: units, language) : nil)
        }
        let monthFormat = grid.query
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
