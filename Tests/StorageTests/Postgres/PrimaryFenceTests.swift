import Testing
@testable import Storage

/// The hosts a `--database` URL names, read by libpq's own parser: a fence only when there are
/// two or more. Keeping writes off an old primary is tried for real in `Tests/Faults/failover`.
struct PrimaryFenceTests {
    @Test func readsEveryHostAndItsPort() {
        let hosts = PrimaryFence.hosts(in: "postgres://moim:secret@db1:5433,db2,10.0.0.3:6000/moim?target_session_attrs=read-write")
        #expect(hosts == [.init(host: "db1", port: "5433"), .init(host: "db2", port: "5432"), .init(host: "10.0.0.3", port: "6000")])
        #expect(PrimaryFence.hosts(in: "host=db1,db2 port=5433 dbname=moim") == [.init(host: "db1", port: "5433"), .init(host: "db2", port: "5433")])
    }

    @Test func oneHostOrAnUnreadableURLIsLeftToLibpq() {
        #expect(PrimaryFence(url: "postgres://moim@db1/moim", answerTimeout: nil) == nil)
        #expect(PrimaryFence(url: "postgres://moim@db1,db2/moim", answerTimeout: nil) != nil)
        #expect(PrimaryFence.hosts(in: "postgres://[::1") == nil)
        #expect(PrimaryFence.hosts(in: "host=a,b,c port=1,2") == nil)
        #expect(PrimaryFence.hosts(in: "hostaddr=10.0.0.1,10.0.0.2 dbname=moim") == nil)
    }
}
