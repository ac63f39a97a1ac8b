import Formats
import Foundation
import Geo
import HTTP
import Storage

/// A place to send in a room: a name, and a point tapped on the map (or typed), carried
/// through the map's zoom and pan as the meetup form carries its meeting point.
struct PlaceForm {
    static let maximumName = 100

    var name: String
    var latitude: String
    var longitude: String
    var body: String

    init(_ form: URLEncodedForm, picked action: MapPicker.Action? = nil) {
        name = (form["place_name"] ?? "").trimmed
        latitude = (form["latitude"] ?? "").trimmed
        longitude = (form["longitude"] ?? "").trimmed
        body = (form["body"] ?? "").trimmed.replacingOccurrences(of: "\r\n", with: "\n")
        if case .pick(let point)? = action {
            latitude = String(format: "%.6f", point.latitude)
            longitude = String(format: "%.6f", point.longitude)
        }
    }

    var coordinate: Coordinate? {
        guard let latitude = Checked.decimal(latitude, in: -90...90), let longitude = Checked.decimal(longitude, in: -180...180) else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The name and point fit to send, or what is wrong.
    func validate() -> (name: String, point: Coordinate)? {
        guard name.fits(1, Self.maximumName), !name.hasControlCharacters, let point = coordinate else { return nil }
        return (name, point)
    }
}

/// Sharing a place in a room: the map to tap, its name and a line to go with it.
struct PlaceFormView: PageView {
    static let template = "talk-place"
    let roomURL: String
    let action: String
    let placeName: String
    let latitude: String
    let longitude: String
    let body: String
    let picker: MapPickerView
    /// "The pin is at 37.52830, 126.93270."
    let pinned: String?
    let error: String?
}

/// A place someone sent, on a map of its own.
struct PlacePageView: PageView {
    static let template = "talk-place-map"
    let name: String
    let roomURL: String
    /// "Shared by Mina"
    let sharedBy: String
    let map: MapPicture
}

extension App {
    /// `GET /talk/:id/place`, and `POST` for each tap, zoom and pan, then the send: a place in
    /// the room, with JavaScript or without. 404 where the site has no map tiles.
    func talkPlace(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let (room, membership) = try memberRoom(context, userID: try user.storedID)
        guard let tiles = configuration.tiles, membership.state == .joined, room.archivedAt == nil else { throw HTTPError(.notFound) }
        let language = context.language
        let moved = context.request.method == .post ? MapPicker.action(in: context.form) : nil
        let form = PlaceForm(context.form, picked: moved?.action)
        var error: String?
        if context.request.method == .post, moved == nil {
            if let (name, point) = form.validate() {
                return try sendPlace(name: name, point: point, room: room, user: user, context)
            }
            error = localizer.text(.talk.place_needed, language)
        }
        let point = form.coordinate
        let picker = moved?.picker ?? point.map { MapPicker(around: $0, zoom: 16) }
            ?? MapPicker(around: RegionCenters.center(user.region) ?? RegionCenters.fallback, zoom: 12)
        let roomURL = Paths.talkRoom(try room.storedID)
        let view = PlaceFormView(
            roomURL: roomURL, action: roomURL + "/place",
            placeName: form.name, latitude: form.latitude, longitude: form.longitude, body: form.body,
            picker: picker.view(pin: point, label: localizer.text(.talk.place_pick, language), tiles: tiles),
            pinned: point.map { localizer.text(.maps.pin_here, language, ["point": String(format: "%.5f, %.5f", $0.latitude, $0.longitude)]) },
            error: error)
        return page(view, context, title: localizer.text(.talk.share_place, language), section: .talk,
                    status: error == nil ? .ok : .unprocessableContent)
    }

    private func sendPlace(name: String, point: Coordinate, room: Room, user: User, _ context: RequestContext) throws -> HTTPResponse {
        try requireCanPost(user, .messages, context)
        let body: String
        switch MessageForm(context.form).validate(carriesMore: true) {
        case .success(let text): body = text
        case .failure(let problem): throw HTTPError(.unprocessableContent, message: localizer.text(problem.key, context.language))
        }
        try checkTalkFlood(user, context)
        let message: Message
        do {
            message = try database.talk.send(Message(roomID: try room.storedID, authorID: try user.storedID, body: body,
                                                     bodyHTML: try messageContent(body).bodyHTML, placeName: name,
                                                     latitude: point.latitude, longitude: point.longitude, createdAt: Date()))
        } catch StorageError.forbidden {
            throw HTTPError(.forbidden, message: localizer.text(.talk.errors.cannot_send, context.language))
        }
        talkFlood.record(String(try user.storedID))
        return redirect(to: Paths.talkRoom(try room.storedID) + "#message-\(message.id ?? 0)")
    }

    /// `GET /talk/messages/:id/place`: the place a message holds, on a map, for the room's members.
    func talkPlaceMap(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap({ Checked.id($0) }),
              let message = try database.talk.message(id: id), let item = try database.talk.item(roomID: message.roomID, messageID: id),
              try database.talk.room(id: message.roomID, for: try user.storedID) != nil,
              try !database.moderation.isBlocked(try user.storedID, item.message.authorID),
              let name = item.message.placeName, let latitude = item.message.latitude, let longitude = item.message.longitude,
              let point = Coordinate(latitude: latitude, longitude: longitude) else { throw HTTPError(.notFound) }
        let language = context.language
        let map = placeMap(point, name: name, label: name, view: context.form["map"], page: Paths.talkMessage(id) + "/place")
        let view = PlacePageView(name: name, roomURL: Paths.talkRoom(item.message.roomID) + "?before=\(id + 1)#message-\(id)",
                                 sharedBy: localizer.text(.talk.place_by, language, ["name": item.author.displayName]), map: map)
        return page(view, context, title: name, section: .talk)
    }
}
