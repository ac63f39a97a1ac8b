import HTTP
import Storage

extension App {
    /// `POST /settings/running`: units and the crew leaderboard.
    func settingsRunningUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let units = context.form["units"] == "mi" ? "mi" : "km"
        try database.profiles.setRunPreferences(userID: user.storedID, units: units, onLeaderboard: context.form["leaderboard"] == "on")
        return redirect(to: Paths.settings, flash: \.prefs_saved)
    }
}
