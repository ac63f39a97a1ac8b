import HTTP
import Imaging
import Markdown
import Storage

extension App {
    /// `GET /crews/new`
    func crewNew(_ context: RequestContext) throws -> HTTPResponse {
        _ = try context.requireUser()
        var form = CrewForm(context)
        form.sport = "running"
        return renderCrewForm(form, errors: FieldErrors(), editing: nil, context)
    }

    /// `POST /crews`: creates the crew with its creator as owner.
    func crewCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .crews, context)
        let form = CrewForm(context)
        let (validated, cover, errors) = try form.validate(images: media.images)
        guard var fields = validated else { return renderCrewForm(form, errors: errors, editing: nil, context) }
        fields.descriptionHTML = MarkdownRenderer.html(fields.description)
        let code = fields.joinPolicy == .invite ? Self.newInviteCode() : nil
        let crew = try database.crews.createCrew(ownerID: user.storedID, fields: fields, inviteCode: code)
        if let cover { try saveCrewCover(cover, crew: crew, by: user) }
        return redirect(to: Paths.crew(crew.slug), flash: \.crew_created)
    }

    func saveCrewCover(_ image: ProcessedImage, crew: Crew, by user: User) throws {
        let name = try media.save(image)
        do {
            let previous = try database.crews.setCrewCover(id: crew.storedID, by: user.storedID,
                                                     photo: NewPhoto(fileName: name, mediaType: image.format.mediaType, width: image.width,
                                                                     height: image.height, byteCount: image.original.count,
                                                                     tone: image.averageColour, jpegWidths: image.jpegWidths))
            media.delete(previous.map { [$0] } ?? [])
        } catch {
            media.delete([name])
            throw error
        }
    }

    func renderCrewForm(_ form: CrewForm, errors: FieldErrors, editing crew: Crew?, _ context: RequestContext) -> HTTPResponse {
        let language = context.language
        let view = CrewFormView(
            action: crew.map { Paths.crew($0.slug) + "/edit" } ?? Paths.crews,
            editing: crew != nil,
            typed: form,
            sports: choices(Crew.Sport.allCases.map(\.rawValue), labels: TextKey.crews.sport.named, selected: form.sport, language),
            regions: choices(Choices.regions, labels: TextKey.choices.region.named, selected: form.region, language),
            currencies: CrewForm.currencies.map { Choice(value: $0, label: $0, selected: $0 == form.feeCurrency) },
            periods: choices(Crew.FeePeriod.allCases.map(\.rawValue), labels: TextKey.crews.period.named, selected: form.feePeriod, language),
            policies: choices(Crew.JoinPolicy.allCases.map(\.rawValue), labels: TextKey.crews.policy.named, selected: form.joinPolicy, language),
            errors: errors.localized(localizer, language))
        return page(view, context, title: localizer.text(crew == nil ? .crews.new_title : .crews.edit_title, language),
                    section: .crews, status: errors.isEmpty ? .ok : .unprocessableContent)
    }
}

/// Starting or editing a crew; what was typed comes back after an error.
struct CrewFormView: PageView {
    static let template = "crew-form"
    let action: String
    let editing: Bool
    /// What was typed.
    let typed: CrewForm
    let sports: [Choice]
    let regions: [Choice]
    let currencies: [Choice]
    let periods: [Choice]
    let policies: [Choice]
    /// Each field's error message, by field name.
    let errors: [String: String]
    var hasErrors: Bool { !errors.isEmpty }
}
