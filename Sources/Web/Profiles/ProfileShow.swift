import HTTP

extension App {
    /// `GET /u/:username`
    func profileShow(_ context: RequestContext) throws -> HTTPResponse {
        guard let name = context.request.parameters["username"],
              let user = try database.user(username: name)
        else { throw HTTPError(.notFound) }
        let language = context.language
        var profile = userView(user)
        // Sections treat an empty string as true, so absent values are left out.
        profile["bio"] = user.bio.nilIfEmpty
        profile["region"] = user.region.map { localizer.text("choices.region.\($0)", language) }
        profile["joined"] = localizer.text("profile.joined", language, ["date": localizer.monthYear(user.createdAt, language)])
        profile["role"] = user.role == .member ? nil : localizer.text("roles.\(user.role.rawValue)", language)
        return try render("profile", context, title: "\(user.displayName) (@\(user.username))", [
            "profile": profile,
            "isSelf": context.user?.id == user.id,
        ])
    }
}
