import HTTP
import Storage

extension App {
    /// `GET /crews/new`
    func crewNew(_ context: RequestContext) throws -> HTTPResponse {
        _ = try context.requireUser()
        var form = CrewForm(context)
        form.sport = "running"
        return try renderCrewForm(form, errors: FieldErrors(), editing: nil, context)
    }

    /// `POST /crews`: creates the crew with its creator as owner.
    func crewCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .crews, context)
        let form = CrewForm(context)
        let (validated, cover, errors) = form.validate()
        guard var fields = validated else { return try renderCrewForm(form, errors: errors, editing: nil, context) }
        fields.descriptionHTML = MarkdownRenderer.html(fields.description)
        let code = fields.joinPolicy == .invite ? Self.newInviteCode() : nil
        let crew = try database.createCrew(ownerID: user.storedID, fields: fields, inviteCode: code)
        if let cover { try saveCrewCover(cover, crew: crew, by: user) }
        return redirect(to: Paths.crew(crew.slug), flash: "crew_created")
    }

    func saveCrewCover(_ image: ImageFile, crew: Crew, by user: User) throws {
        let name = try media.save(image)
        do {
            let previous = try database.setCrewCover(id: crew.storedID, by: user.storedID,
                                                     photo: NewPhoto(fileName: name, mediaType: image.format.mediaType, width: image.width,
                                                                     height: image.height, byteCount: image.data.count))
            media.delete(previous.map { [$0] } ?? [])
        } catch {
            media.delete([name])
            throw error
        }
    }

    func renderCrewForm(_ form: CrewForm, errors: FieldErrors, editing crew: Crew?, _ context: RequestContext) throws -> HTTPResponse {
        let language = context.language
        return try render(
            "crew-form", context, title: localizer.text(crew == nil ? "crews.new_title" : "crews.edit_title", language),
            section: .crews, status: errors.isEmpty ? .ok : .unprocessableContent,
            [
                "action": crew.map { Paths.crew($0.slug) + "/edit" } ?? Paths.crews,
                "editing": crew != nil,
                "name": form.name, "slug": form.slug, "description": form.description,
                "meetingTime": form.meetingTime, "meetingPlace": form.meetingPlace,
                "feeAmount": form.feeAmount, "memberCap": form.memberCap,
                "sports": options(Crew.Sport.allCases.map(\.rawValue), labels: "crews.sport", selected: form.sport, language),
                "regions": options(Choices.regions, labels: "choices.region", selected: form.region, language),
                "currencies": CrewForm.currencies.map { ["value": $0, "label": $0, "selected": $0 == form.feeCurrency] as [String: Any] },
                "periods": options(Crew.FeePeriod.allCases.map(\.rawValue), labels: "crews.period", selected: form.feePeriod, language),
                "policies": options(Crew.JoinPolicy.allCases.map(\.rawValue), labels: "crews.policy", selected: form.joinPolicy, language),
                "errors": errors.localized(localizer, language),
                "hasErrors": !errors.isEmpty,
            ]
        )
    }
}

import Markdown
