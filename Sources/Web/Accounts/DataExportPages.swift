import Formats
import Foundation
import HTTP
import Storage

/// Settings → Download my data: a zip of everything Moim holds about the member, made in the
/// background, one at a time, kept for 7 days, for them alone; a mail says when it is ready.
struct DataExportView: PageView {
    static let template = "data-export"
    let beingMade: Bool
    /// "4.2 MB, ready since …, kept until …"
    let ready: String?
    var canAsk: Bool { !beingMade }
}

extension App {
    /// `GET /settings/export`
    func dataExportShow(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let export = try database.accounts.dataExport(userID: user.storedID)
        let language = context.language
        let ready = export.flatMap { export -> String? in
            guard let readyAt = export.readyAt, export.fileName != nil else { return nil }
            return localizer.text(.export.ready, language, [
                "size": ByteCountFormatter.string(fromByteCount: Int64(export.byteCount ?? 0), countStyle: .file),
                "until": localizer.date(readyAt.addingTimeInterval(DataExport.lifetime), language),
            ])
        }
        var response = page(DataExportView(beingMade: export?.isBeingMade(at: Date()) == true, ready: ready), context,
                            title: localizer.text(.export.title, language))
        // While it is being made, the page looks again by itself (no script needed).
        if export?.isBeingMade(at: Date()) == true { response.headers.set("Refresh", "5") }
        return response
    }

    /// `POST /settings/export`: asks for a new export (the last one goes), made on a thread of
    /// its own; 409 while one is being made.
    func dataExportCreate(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        let now = Date()
        var replaced: String?
        guard try database.accounts.requestDataExport(userID: user.storedID, now: now, replaced: &replaced) else {
            throw HTTPError(.conflict, message: localizer.text(.export.busy, context.language))
        }
        if let replaced { media.deleteExport(replaced) }
        let userID = try user.storedID
        Thread.detachNewThread { [self] in
            do {
                try makeDataExport(userID: userID, requestedAt: now)
            } catch {
                log("data export for member \(userID) failed: \(error)")
            }
        }
        return redirect(to: Paths.dataExport, flash: \.export_started)
    }

    /// `GET /settings/export/download`: the member's own zip, never anyone else's.
    func dataExportDownload(_ context: RequestContext) throws -> HTTPResponse {
        let user = try context.requireUser()
        guard let export = try database.accounts.dataExport(userID: user.storedID), let name = export.fileName, let readyAt = export.readyAt,
              readyAt.addingTimeInterval(DataExport.lifetime) > Date(), let zip = try media.export(named: name) else { throw HTTPError(.notFound) }
        var response = HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "application/zip")]), body: zip)
        response.headers.add("Content-Disposition", "attachment; filename=\"moim-\(user.username)-\(LocalDateTime.text(readyAt, localizer.timeZone).prefix(10)).zip\"")
        response.headers.add("Cache-Control", "private, no-store")
        return response
    }

    /// Writes the export asked for at `requestedAt` and marks it ready.
    func makeDataExport(userID: Int64, requestedAt: Date) throws {
        guard let member = try database.accounts.user(id: userID) else { return }
        var zip = ZipArchive()
        try zip.add("README.txt", Array(Self.exportReadme.utf8))
        let tables = try database.accounts.exportedTables(userID: userID)
        for table in tables where table.name != "payments" {
            try zip.add(table.name + ".json", Self.json(table.rows))
        }
        if let payments = tables.first(where: { $0.name == "payments" }) { try zip.add("payments.csv", Self.csv(payments.rows)) }
        for row in tables.first(where: { $0.name == "photos" })?.rows ?? [] {
            guard case .text(let name)? = row.first(where: { $0.column == "fileName" })?.value, let bytes = try media.original(named: name) else { continue }
            try zip.add("photos/" + name, bytes)
        }
        let runs = try database.accounts.exportedRuns(userID: userID)
        try zip.add("runs.json", Self.json(runs.map { run in
            [("id", .number(run.id ?? 0)), ("startedAt", .date(run.startedAt)), ("distanceMeters", .number(Int64(run.distanceMeters))),
             ("durationSeconds", .number(Int64(run.durationSeconds))), ("elevationGain", .number(Int64(run.elevationGain))),
             ("note", .text(run.note)), ("visibility", .text(run.visibility.rawValue)),
             ("gpx", run.track == nil ? .null : .text("runs/\(run.id ?? 0).gpx"))]
        }))
        for run in runs {
            guard let track = run.track else { continue }
            try zip.add("runs/\(run.id ?? 0).gpx", Array(GPXDocument.text(Track(encoded: track), name: run.note.isEmpty ? "Run" : run.note, startedAt: run.startedAt).utf8))
        }
        let bytes = zip.finished()
        let name = try media.saveExport(bytes)
        guard try database.accounts.finishDataExport(userID: userID, requestedAt: requestedAt, fileName: name, byteCount: bytes.count) else {
            media.deleteExport(name)
            return
        }
        if mailEnabled { try mailExportReady(to: member) }
    }

    /// "Your data is ready", with a link to the settings page (the file itself is only ever
    /// handed to a signed-in member).
    private func mailExportReady(to user: User) throws {
        let language = mailLanguage(user)
        let subject = localizer.text(.mail.export.subject, language, ["site": siteName])
        let view = LinkMail(frame: frame(user, subject: subject, language: language), greeting: greeting(user, language),
                            body: localizer.text(.mail.export.body, language, ["site": siteName, "username": user.username]),
                            link: siteOrigin + Paths.dataExport, action: localizer.text(.mail.export.action, language))
        if try enqueueMail(view, subject: subject, to: user, kind: .export, language: language, lifetime: DataExport.lifetime) {
            mailSender?.wake()
        }
    }

    private static let exportReadme = """
        Moim — 내 데이터 / Your data

        profile.json      프로필 / your profile
        agreements.json   약관 동의와 버전 / what you agreed to, with versions
        posts.json        글 (사진은 photos/) / posts (their photos in photos/)
        comments.json     댓글 / comments
        guestbook.json    크루 방명록 / crew guestbook entries
        messages.json     톡 메시지 / messages
        following.json, followers.json, blocked.json
        crews.json        크루 / crews
        meetupsHosted.json, meetupsJoined.json   모임과 출석 / meetups and attendance
        runs.json         러닝 기록 (경로는 runs/*.gpx) / runs (routes in runs/*.gpx)
        payments.csv      결제 기록 / payments

        """

    /// Rows as a JSON array of objects, dates in ISO 8601 (UTC).
    static func json(_ rows: [[(column: String, value: ExportedValue)]]) throws -> [UInt8] {
        let objects = rows.map { row in
            Dictionary(row.map { ($0.column, jsonValue($0.value)) }, uniquingKeysWith: { first, _ in first })
        }
        return Array(try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
    }

    private static func jsonValue(_ value: ExportedValue) -> Any {
        switch value {
        case .null: NSNull()
        case .text(let text): text
        case .number(let number): NSNumber(value: number)
        case .date(let date): date.formatted(.iso8601)
        case .bool(let flag): flag
        }
    }

    /// Rows as CSV (RFC 4180), a header line first.
    static func csv(_ rows: [[(column: String, value: ExportedValue)]]) -> [UInt8] {
        guard let first = rows.first else { return Array("\r\n".utf8) }
        func field(_ text: String) -> String {
            text.contains(where: { ",\"\r\n".contains($0) }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        func text(_ value: ExportedValue) -> String {
            switch value {
            case .null: ""
            case .text(let text): text
            case .number(let number): String(number)
            case .date(let date): date.formatted(.iso8601)
            case .bool(let flag): flag ? "true" : "false"
            }
        }
        let lines = [first.map { field($0.column) }.joined(separator: ",")] + rows.map { row in row.map { field(text($0.value)) }.joined(separator: ",") }
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }
}
