import Foundation
import Testing
import TestSupport
@testable import Storage

private func fields(_ name: String, slug: String, policy: Crew.JoinPolicy = .open, cap: Int? = nil, description: String = "") -> CrewFields {
    CrewFields(slug: slug, name: name, sport: .running, region: "seoul", description: description, descriptionHTML: description,
               meetingTime: "Sat 7am", meetingPlace: "Yeouido", feeAmount: 10_000, feeCurrency: "KRW", feePeriod: .month,
               joinPolicy: policy, memberCap: cap)
}

private struct Crews {
    let database: AppDatabase
    var ids: [String: Int64] = [:]

    init(database: AppDatabase? = nil) throws {
        self.database = try database ?? TestDatabase.fresh()
        for name in ["owner", "staff", "mina", "jun", "hana"] {
            ids[name] = try self.database.accounts.createUser(User(username: name, email: "\(name)@example.com", passwordHash: "x", displayName: name)).storedID
        }
    }

    func crew(_ policy: Crew.JoinPolicy = .open, cap: Int? = nil, code: String? = nil) throws -> Int64 {
        try database.crews.createCrew(ownerID: ids["owner"]!, fields: fields("Han River Runners", slug: "han-river", policy: policy, cap: cap), inviteCode: code).storedID
    }
}

@Suite struct CrewQueriesTests {
    @Test func eachJoinPolicyDoesWhatItSays() throws {
        let crews = try Crews()
        let open = try crews.crew(.open)
        #expect(try crews.database.crews.joinCrew(id: open, userID: crews.ids["mina"]!, inviteCode: nil) == .member)
        #expect(throws: StorageError.duplicate) { try crews.database.crews.joinCrew(id: open, userID: crews.ids["mina"]!, inviteCode: nil) }

        let invite = try crews.crew(.invite, code: "AB12CD")
        #expect(throws: StorageError.wrongInviteCode) { try crews.database.crews.joinCrew(id: invite, userID: crews.ids["jun"]!, inviteCode: "ZZZZZZ") }
        #expect(try crews.database.crews.joinCrew(id: invite, userID: crews.ids["jun"]!, inviteCode: "ab12cd") == .member)

        let approval = try crews.crew(.approval)
        #expect(try crews.database.crews.joinCrew(id: approval, userID: crews.ids["hana"]!, inviteCode: nil) == .pending)
        #expect(try crews.database.feed.notifications(userID: crews.ids["owner"]!).items.first?.notification.kind == .crewRequest)
        #expect(try crews.database.crews.crewMembers(crewID: approval, pending: true).map(\.user.username) == ["hana"])
    }

    @Test func requestsAreAcceptedOrRejectedWithANotification() throws {
        let crews = try Crews()
        let crew = try crews.crew(.approval)
        let owner = crews.ids["owner"]!, mina = crews.ids["mina"]!, jun = crews.ids["jun"]!
        _ = try crews.database.crews.joinCrew(id: crew, userID: mina, inviteCode: nil)
        _ = try crews.database.crews.joinCrew(id: crew, userID: jun, inviteCode: nil)
        try crews.database.crews.decideJoinRequest(crewID: crew, applicantID: mina, by: owner, accept: true)
        try crews.database.crews.decideJoinRequest(crewID: crew, applicantID: jun, by: owner, accept: false)
        #expect(try crews.database.crews.crewRole(crewID: crew, userID: mina) == .member)
        #expect(try crews.database.crews.crewRole(crewID: crew, userID: jun) == nil)
        #expect(try crews.database.feed.notifications(userID: mina).items.first?.notification.kind == .crewAccepted)
        #expect(try crews.database.feed.notifications(userID: jun).items.first?.notification.kind == .crewRejected)
        #expect(try crews.database.crews.crew(slug: "han-river")?.memberCount == 2)
    }

    @Test func twoStaffAcceptingTheLastPlaceAtOnceDoNotExceedTheCap() throws {
        let directory = NSTemporaryDirectory() + "moim-cap-\(UUID().uuidString)"
        let crews = try Crews(database: AppDatabase.open(directory: directory))
        let crew = try crews.crew(.approval, cap: 2)
        let owner = crews.ids["owner"]!, staff = crews.ids["staff"]!
        _ = try crews.database.crews.joinCrew(id: crew, userID: staff, inviteCode: nil)
        try crews.database.crews.decideJoinRequest(crewID: crew, applicantID: staff, by: owner, accept: true)
        try crews.database.crews.setCrewRole(crewID: crew, userID: staff, role: .staff, by: owner)
        // The crew is now full (2 of 2); lift the cap by one and let two staff race for the place.
        var more = fields("Han River Runners", slug: "han-river", policy: .approval, cap: 3)
        more.joinPolicy = .approval
        _ = try crews.database.crews.updateCrew(id: crew, by: owner, fields: more)
        for name in ["mina", "jun"] { _ = try crews.database.crews.joinCrew(id: crew, userID: crews.ids[name]!, inviteCode: nil) }
        let results = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let (actor, applicant) = index == 0 ? (owner, crews.ids["mina"]!) : (staff, crews.ids["jun"]!)
            let accepted: Bool
            do {
                try crews.database.crews.decideJoinRequest(crewID: crew, applicantID: applicant, by: actor, accept: true)
                accepted = true
            } catch {
                accepted = false
            }
            results.withLock { $0.append(accepted) }
        }
        #expect(results.withLock { $0.filter { $0 }.count } == 1)
        #expect(try crews.database.crews.crew(slug: "han-river")?.memberCount == 3)
        #expect(try crews.database.crews.crewMembers(crewID: crew).count == 3)
        try crews.database.close()
    }

    @Test func rolesLimitWhoDoesWhat() throws {
        let crews = try Crews()
        let crew = try crews.crew(.approval)
        let owner = crews.ids["owner"]!, staff = crews.ids["staff"]!, mina = crews.ids["mina"]!, jun = crews.ids["jun"]!
        for user in [staff, mina] {
            _ = try crews.database.crews.joinCrew(id: crew, userID: user, inviteCode: nil)
            try crews.database.crews.decideJoinRequest(crewID: crew, applicantID: user, by: owner, accept: true)
        }
        try crews.database.crews.setCrewRole(crewID: crew, userID: staff, role: .staff, by: owner)
        _ = try crews.database.crews.joinCrew(id: crew, userID: jun, inviteCode: nil)

        #expect(throws: StorageError.forbidden) { try crews.database.crews.decideJoinRequest(crewID: crew, applicantID: jun, by: mina, accept: true) }
        #expect(throws: StorageError.forbidden) { try crews.database.crews.transferCrew(crewID: crew, to: staff, by: staff) }
        #expect(throws: StorageError.forbidden) { try crews.database.crews.setCrewRole(crewID: crew, userID: mina, role: .staff, by: staff) }
        #expect(throws: StorageError.forbidden) { try crews.database.crews.removeCrewMember(crewID: crew, userID: owner, by: staff) }
        #expect(throws: StorageError.ownerCannotLeave) { try crews.database.crews.leaveCrew(id: crew, userID: owner) }
        #expect(try crews.database.crews.crewRole(crewID: crew, userID: jun) == .pending)

        try crews.database.crews.transferCrew(crewID: crew, to: mina, by: owner)
        #expect(try crews.database.crews.crewRole(crewID: crew, userID: mina) == .owner)
        #expect(try crews.database.crews.crewRole(crewID: crew, userID: owner) == .staff)
        try crews.database.crews.leaveCrew(id: crew, userID: owner)
        #expect(try crews.database.crews.crew(slug: "han-river")?.memberCount == 2)
    }

    @Test func theLedgerSumsIncomeAndExpenses() throws {
        let crews = try Crews()
        let crew = try crews.crew(.open)
        let owner = crews.ids["owner"]!, mina = crews.ids["mina"]!, jun = crews.ids["jun"]!
        _ = try crews.database.crews.joinCrew(id: crew, userID: mina, inviteCode: nil)
        _ = try crews.database.crews.joinCrew(id: crew, userID: jun, inviteCode: nil)
        let entry = { (kind: LedgerEntry.Kind, member: Int64?, amount: Int, day: String) in
            LedgerEntry(id: nil, crewID: crew, kind: kind, memberID: member, amount: amount, occurredOn: day, note: "",
                        provider: "manual", recordedBy: owner, createdAt: Date())
        }
        _ = try crews.database.crews.recordLedgerEntry(entry(.dues, mina, 10_000, "2026-11-03"))
        _ = try crews.database.crews.recordLedgerEntry(entry(.waiver, jun, 0, "2026-11-04"))
        _ = try crews.database.crews.recordLedgerEntry(entry(.income, nil, 50_000, "2026-11-05"))
        _ = try crews.database.crews.recordLedgerEntry(entry(.expense, nil, 23_500, "2026-11-06"))
        _ = try crews.database.crews.recordLedgerEntry(entry(.dues, mina, 10_000, "2026-10-03"))
        #expect(throws: StorageError.forbidden) { try crews.database.crews.recordLedgerEntry(LedgerEntry(id: nil, crewID: crew, kind: .income, memberID: nil, amount: 1, occurredOn: "2026-11-07", note: "", provider: "manual", recordedBy: mina, createdAt: Date())) }
        let ledger = try crews.database.crews.ledger(crewID: crew)
        #expect(ledger.income == 70_000 && ledger.expenses == 23_500 && ledger.balance == 46_500)
        let status = try crews.database.crews.duesStatus(crewID: crew, periodStart: "2026-11-01")
        #expect(status[mina] == .paid && status[jun] == .waived && status[owner] == .unpaid)
    }

    @Test func searchFindsKoreanAndEnglishNamesAndSlugsStayDistinct() throws {
        let crews = try Crews()
        let owner = crews.ids["owner"]!
        let first = try crews.database.crews.createCrew(ownerID: owner, fields: fields("한강 러닝 크루", slug: "hangang", description: "매주 토요일 아침"), inviteCode: nil)
        let second = try crews.database.crews.createCrew(ownerID: owner, fields: fields("Hangang Night Runners", slug: "hangang"), inviteCode: nil)
        #expect(first.slug == "hangang" && second.slug == "hangang-2")
        #expect(try crews.database.crews.searchCrews("한강 러닝", sport: nil, region: nil, order: .newest).map(\.slug) == ["hangang"])
        #expect(try crews.database.crews.searchCrews("토요일", sport: nil, region: nil, order: .newest).count == 1)
        #expect(try crews.database.crews.searchCrews("night", sport: .running, region: "seoul", order: .activity).map(\.slug) == ["hangang-2"])
        #expect(try crews.database.crews.searchCrews("night", sport: .hiking, region: nil, order: .activity).isEmpty)
        #expect(try crews.database.crews.searchCrews("러닝", sport: nil, region: nil, order: .newest).count == 1)
    }
}

import Synchronization
