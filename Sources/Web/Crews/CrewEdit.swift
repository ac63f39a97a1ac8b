import HTTP
import Markdown
import Storage

extension App {
    /// `GET /crews/:slug/edit`: owner and staff only.
    func crewEdit(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, _) = try staffCrew(context)
        return renderCrewForm(CrewForm(crew), errors: FieldErrors(), editing: crew, context)
    }

    /// `POST /crews/:slug/edit`
    func crewUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let (crew, user) = try staffCrew(context)
        let form = CrewForm(context)
        var (validated, cover, errors) = try form.validate(images: media.images)
        if var fields = validated {
            fields.descriptionHTML = MarkdownRenderer.html(fields.description)
            do {
                let updated = try database.crews.updateCrew(id: crew.storedID, by: user.storedID, fields: fields)
                if let cover { try saveCrewCover(cover, crew: updated, by: user) }
                return redirect(to: Paths.crew(updated.slug), flash: \.crew_saved)
            } catch StorageError.slugTaken {
                errors.add("slug", .errors.crew_slug_taken)
            } catch StorageError.full {
                errors.add("member_cap", .errors.crew_cap_below_members)
            }
        }
        return renderCrewForm(form, errors: errors, editing: crew, context)
    }

    /// The crew of `:slug` when the signed-in user is its owner or staff; 403 otherwise.
    func staffCrew(_ context: RequestContext) throws -> (Crew, User) {
        let user = try context.requireUser()
        let crew = try crew(context)
        guard try database.crews.crewRole(crewID: crew.storedID, userID: user.storedID)?.isStaff == true else {
            throw refusal(.forbidden, context.language, Self.crewRefusals)
        }
        return (crew, user)
    }
}
