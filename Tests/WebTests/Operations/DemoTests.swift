import Foundation
import Testing
import Storage
import TestSupport
@testable import Web

/// `moim demo`, as `script/bench --ladder` runs it: every kind of row in proportion, and the
/// defaults (no comments spread, no runs) too.
@Suite struct DemoTests {
    private func demo(_ arguments: [String]) throws -> (ToolRun, String) {
        let data = NSTemporaryDirectory() + "moim-demo-\(UUID().uuidString)"
        let run = try runTool(TestSite.root + "/.build/debug/moim", ["demo", "--data", data] + arguments, includeErrors: true)
        return (run, data)
    }

    @Test func aDemoSiteHoldsEveryKindOfRowAsked() throws {
        let (run, data) = try demo(["--users", "30", "--posts", "200", "--meetups", "10", "--crews", "2", "--records", "50",
                                    "--post-comments", "40", "--notifications", "25"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("30 members, 200 posts, 10 meetups, 2 crews, 50 runs"))
        let database = try AppDatabase.open(directory: data)
        defer { try? database.close() }
        #expect(try database.crews.searchCrews("", sport: nil, region: nil, order: .activity).count == 2)
        #expect(try database.feed.searchTags("").isEmpty)
        #expect(try !database.feed.searchTags("run").isEmpty)
        #expect(try database.feed.searchUsers("runner3").first?.username == "runner3")
        #expect(try !database.feed.mergeSearchIndexes(), "the demo leaves the search indexes merged")
    }

    @Test func theDefaultsAndEmptySitesWork() throws {
        #expect(try demo(["--users", "3", "--posts", "20", "--meetups", "1"]).0.status == 0)
        #expect(try demo(["--users", "3", "--posts", "0", "--meetups", "0", "--post-comments", "5", "--notifications", "2"]).0.status == 0)
        let refused = try demo(["--users", "3", "--records=-1"]).0
        #expect(refused.status != 0 && refused.output.contains("negative"))
    }
}
