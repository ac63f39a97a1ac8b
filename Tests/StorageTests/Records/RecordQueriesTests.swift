import Foundation
import Testing
import TestSupport
@testable import Storage

/// Runs: one record per run however often it is sent, and seen only by whom its runner chose.
@Suite struct RecordQueriesTests {
    private func run(_ userID: Int64, _ visibility: RunRecord.Visibility, key: String? = nil) -> RunRecord {
        RunRecord(userID: userID, startedAt: Date(timeIntervalSince1970: 1_780_000_000), distanceMeters: 5_000, durationSeconds: 1_500,
                  elevationGain: 10, note: "", noteHTML: "", visibility: visibility, meetupID: nil, track: nil, clientKey: key)
    }

    @Test func aRunSentTwiceWithItsKeyIsOneRecord() throws {
        let database = try TestDatabase.fresh()
        let mina = try database.members("mina")[0]
        let first = try database.records.createRecord(run(mina, .public, key: "phone-run-2026-05-28-a"))
        let again = try database.records.createRecord(run(mina, .public, key: "phone-run-2026-05-28-a"))
        #expect(again.id == first.id)
        let day = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(try database.records.records(userID: mina, from: day.addingTimeInterval(-60), to: day.addingTimeInterval(60), viewerID: mina).count == 1)
    }

    @Test func crewRunsAreSeenByCrewmatesAndPrivateOnesByTheRunnerAlone() throws {
        let database = try TestDatabase.fresh()
        let ids = try database.members("mina", "jun", "hana")
        let (mina, jun, hana) = (ids[0], ids[1], ids[2])
        let crew = try database.crews.createCrew(ownerID: mina, fields: CrewFields(
            slug: "river", name: "River", sport: .running, region: nil, description: "", descriptionHTML: "", meetingTime: "",
            meetingPlace: "", feeAmount: 0, feeCurrency: "KRW", feePeriod: .month, joinPolicy: .open, memberCap: nil), inviteCode: nil).storedID
        _ = try database.crews.joinCrew(id: crew, userID: jun, inviteCode: nil)
        let crewRun = try database.records.createRecord(run(mina, .crew)).storedID
        let secret = try database.records.createRecord(run(mina, .private)).storedID
        #expect(try database.records.record(id: crewRun, viewerID: jun) != nil)
        #expect(try database.records.record(id: crewRun, viewerID: hana) == nil)
        #expect(try database.records.record(id: crewRun, viewerID: nil) == nil)
        #expect(try database.records.record(id: secret, viewerID: jun) == nil)
        #expect(try database.records.record(id: secret, viewerID: mina) != nil)
        // Only the runner deletes it
        #expect(throws: StorageError.notFound) { try database.records.deleteRecord(id: crewRun, userID: jun) }
        try database.records.deleteRecord(id: crewRun, userID: mina)
        #expect(try database.records.record(id: crewRun, viewerID: mina) == nil)
    }
}
