import Foundation
import HTTP
import Network
import Storage

/// Settings → "Notifications on this device": turn them on here (a click, then the browser's
/// own prompt), the devices they are on, and what to push.
struct PushSettingsView: PageView {
    static let template = "push-settings"
    /// The key browsers subscribe with; nil when the site pushes nothing.
    let publicKey: String?
    var enabled: Bool { publicKey != nil }
    let devices: [PushDeviceView]
    var hasDevices: Bool { !devices.isEmpty }
    let kinds: [Choice]
    let thisDeviceOn: Bool
}

struct PushDeviceView {
    let name: String
    let added: String
    let lastUsed: String?
    let isCurrent: Bool
    let removeURL: String
}

extension App {
    /// `GET /settings/notifications`
    func pushSettingsShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language
        let devices = try database.push.pushDevices(userID: user.storedID, sessionID: context.session?.id)
        let kinds = try database.push.pushKinds(userID: user.storedID)
        let view = PushSettingsView(
            publicKey: pushSender?.publicKey,
            devices: devices.map { device in
                PushDeviceView(name: device.name, added: localizer.dateTime(device.createdAt, language),
                               lastUsed: device.lastUsedAt.map { localizer.dateTime($0, language) }, isCurrent: device.isCurrent,
                               removeURL: Paths.pushSettings + "/devices/\(device.id)/remove")
            },
            kinds: PushKind.allCases.map { Choice(value: $0.rawValue, label: localizer.text($0.textKey, language), selected: kinds.contains($0)) },
            thisDeviceOn: devices.contains(where: \.isCurrent))
        return page(view, context, title: localizer.text(.push.title, language))
    }

    /// `POST /settings/notifications`: what to push (the checkboxes work without a script).
    func pushKindsUpdate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let chosen = Set(context.form.values("kind").compactMap(PushKind.init(rawValue:)))
        try database.push.setPushKinds(userID: user.storedID, chosen)
        return redirect(to: Paths.pushSettings, flash: \.push_saved)
    }

    /// `POST /settings/notifications/devices`: the browser's subscription (`PushSubscription.toJSON()`),
    /// posted by the page's script after the member allowed notifications.
    func pushDeviceCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let language = context.language
        guard pushSender != nil, let session = context.session?.id else { throw HTTPError(.notFound) }
        let form = context.form
        let subscription: PushSubscription
        do {
            subscription = try PushSubscription(endpoint: form["endpoint"] ?? "", p256dh: form["p256dh"] ?? "", auth: form["auth"] ?? "",
                                                allowedHosts: configuration.push?.allowedHosts ?? [])
        } catch {
            throw HTTPError(.unprocessableContent, message: localizer.text(Self.refusalKey(error), language))
        }
        let typed = (form["name"] ?? "").trimmed
        let name = typed.isEmpty ? Self.deviceName(context.request.headers["user-agent"]) : typed.clipped(60)
        do {
            try database.push.subscribePush(userID: user.storedID, sessionID: session, endpoint: subscription.endpoint,
                                       p256dh: subscription.p256dh, auth: subscription.auth, name: name)
        } catch StorageError.full {
            throw HTTPError(.unprocessableContent, message: localizer.text(.push.errors.too_many, language))
        }
        return redirect(to: Paths.pushSettings, flash: \.push_on)
    }

    /// `POST /settings/notifications/devices/:id/remove`
    func pushDeviceRemove(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let id = context.request.parameters["id"].flatMap({ Int64($0) }) else { throw HTTPError(.notFound) }
        try storageAction(context) { try database.push.unsubscribePush(id: id, userID: user.storedID) }
        return redirect(to: Paths.pushSettings, flash: \.push_removed)
    }

    private static func refusalKey(_ refusal: PushSubscription.Refusal) -> TextKey {
        switch refusal {
        case .endpoint: .push.errors.endpoint
        case .privateHost: .push.errors.private_host
        case .keys: .push.errors.keys
        }
    }

    /// "Chrome on Android", "Safari on iPhone": a name the member recognises in the list.
    static func deviceName(_ userAgent: String?) -> String {
        let agent = userAgent ?? ""
        let browser = agent.contains("Edg/") ? "Edge" : agent.contains("Firefox/") ? "Firefox" : agent.contains("Chrome/") ? "Chrome"
            : agent.contains("Safari/") ? "Safari" : "Browser"
        let system = agent.contains("Android") ? "Android" : agent.contains("iPhone") ? "iPhone" : agent.contains("iPad") ? "iPad"
            : agent.contains("Mac OS") ? "Mac" : agent.contains("Windows") ? "Windows" : agent.contains("Linux") ? "Linux" : nil
        return system.map { "\(browser) · \($0)" } ?? browser
    }
}
