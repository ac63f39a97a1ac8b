import Formats
import Foundation
import HTTP
import Storage

extension App {
    /// `POST /u/:username/talk`: opens the conversation with a member, starting it if need be.
    func talkStartDirect(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .messages, context)
        guard let username = context.request.parameters["username"], let other = try database.accounts.user(username: username) else {
            throw HTTPError(.notFound)
        }
        do {
            let room = try database.talk.directRoom(from: try user.storedID, to: try other.storedID)
            return redirect(to: Paths.talkRoom(try room.storedID) + "#write")
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden, message: localizer.text(.talk.errors.cannot_start, context.language, ["name": other.displayName]))
        }
    }

    /// `GET /talk/new`: starting a group.
    func talkNewGroup(_ context: RequestContext) throws -> HTTPResponse {
        _ = try context.requireUser()
        return renderGroupForm(context, usernames: context.form["with"] ?? "", name: "", error: nil, status: .ok)
    }

    /// `POST /talk/new`: a group of the members named (by username, separated by commas or
    /// spaces), each of whom lets this member start a conversation.
    func talkCreateGroup(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        try requireCanPost(user, .messages, context)
        let language = context.language
        let typed = (context.form["usernames"] ?? "").trimmed, name = (context.form["name"] ?? "").trimmed
        let usernames = Set(typed.split { $0 == "," || $0.isWhitespace }.map { String($0.drop { $0 == "@" }).lowercased() }.filter { !$0.isEmpty })
        func refuse(_ key: TextKey, _ arguments: [String: String] = [:]) -> HTTPResponse {
            renderGroupForm(context, usernames: typed, name: name, error: localizer.text(key, language, arguments), status: .unprocessableContent)
        }
        guard name.isEmpty || name.isName(1, 40) else { return refuse(.talk.errors.group_name) }
        guard !usernames.isEmpty, usernames.count < Room.groupLimit else { return refuse(.talk.errors.group_size, ["limit": String(Room.groupLimit - 1)]) }
        let ids = try database.posts.userIDs(usernames: usernames)
        if let missing = usernames.first(where: { ids[$0] == nil }) { return refuse(.talk.errors.no_member, ["name": missing]) }
        do {
            let room = try database.talk.createGroup(by: try user.storedID, memberIDs: Set(ids.values), name: name.nilIfEmpty)
            return redirect(to: Paths.talkRoom(try room.storedID) + "#write")
        } catch StorageError.forbidden {
            return refuse(.talk.errors.group_refused)
        } catch StorageError.rejected {
            return refuse(.talk.errors.group_size, ["limit": String(Room.groupLimit - 1)])
        }
    }

    private func renderGroupForm(_ context: RequestContext, usernames: String, name: String, error: String?, status: HTTPStatus) -> HTTPResponse {
        page(GroupFormView(usernames: usernames, name: name, error: error), context,
             title: localizer.text(.talk.new_group, context.language), section: .talk, status: status)
    }

    /// `POST /talk/:id/accept`: takes a request into the inbox.
    func talkAccept(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let (room, _) = try memberRoom(context, userID: try user.storedID)
        try database.talk.accept(roomID: try room.storedID, userID: try user.storedID)
        return redirect(to: Paths.talkRoom(try room.storedID) + "#write")
    }

    /// `POST /talk/:id/leave`: leaves a group, or turns a request down.
    func talkLeave(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let (room, _) = try memberRoom(context, userID: try user.storedID)
        try database.talk.leave(roomID: try room.storedID, userID: try user.storedID)
        return redirect(to: Paths.talk, flash: \.talk_left)
    }

    /// `POST /talk/:id/mute`: `for=hour`, `day`, `ever`, or `off`.
    func talkMute(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let (room, _) = try memberRoom(context, userID: try user.storedID)
        let now = Date()
        let until: Date? = switch context.form["for"] {
        case "hour": now.addingTimeInterval(3_600)
        case "day": now.addingTimeInterval(86_400)
        case "ever": now.addingTimeInterval(Self.mutedForGood)
        case "off": nil
        default: throw HTTPError(.badRequest)
        }
        try database.talk.mute(roomID: try room.storedID, userID: try user.storedID, until: until)
        return redirect(to: Paths.talkRoom(try room.storedID))
    }

    /// `POST /talk/:id/archive`: a crew's staff close a topic room; it stays readable.
    func talkArchive(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let (room, _) = try memberRoom(context, userID: try user.storedID)
        do {
            try database.talk.archive(roomID: try room.storedID, by: try user.storedID)
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden)
        }
        return redirect(to: Paths.talkRoom(try room.storedID))
    }

    /// `POST /crews/:slug/rooms`: a topic room, made by the crew's staff.
    func crewRoomCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let slug = context.request.parameters["slug"], let crew = try database.crews.crew(slug: slug) else { throw HTTPError(.notFound) }
        let name = (context.form["name"] ?? "").trimmed
        guard name.isName(1, 40) else {
            throw HTTPError(.unprocessableContent, message: localizer.text(.talk.errors.room_name, context.language))
        }
        do {
            let room = try database.talk.createTopicRoom(crewID: try crew.storedID, by: try user.storedID, name: name)
            return redirect(to: Paths.talkRoom(try room.storedID))
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden)
        }
    }

    /// `POST /settings/talk`: who may start a conversation with me.
    func talkSettingsUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let rule = context.form["who"].flatMap(WhoMayStart.init(rawValue:)) else { throw HTTPError(.badRequest) }
        try database.talk.setWhoMayStart(rule, userID: try user.storedID)
        return redirect(to: Paths.settings + "#talk", flash: \.prefs_saved)
    }
}
