import Testing
@testable import Storage

/// Log positions as PostgreSQL and a browser's cookie carry them.
struct WALPositionTests {
    @Test func readsPostgreSQLsFormAndWritesItsOwn() {
        let position = WALPosition(postgres: "16/B374D848")
        #expect(position?.value == 0x16_B374_D848)
        #expect(position?.token == "16b374d848")
        #expect(WALPosition(token: "16B374D848") == position)
        #expect(WALPosition(postgres: "FFFFFFFF/FFFFFFFF")?.value == .max)
        #expect(WALPosition(postgres: "0/1")! < WALPosition(postgres: "1/0")!)
    }

    @Test(arguments: ["", "/", "1/", "/1", "1/2/3", "+1/0", "-1/0", "1 /0", "123456789/0", "0/123456789", "g/0", "0/٣", "0/1\0"])
    func refusesAnyOtherPostgreSQLText(_ text: String) {
        #expect(WALPosition(postgres: text) == nil)
    }

    @Test(arguments: ["", "+1", "-1", " 1", "1 ", "0x1", "12345678901234567", "ffff_ffff", "１"])
    func refusesAnyOtherCookie(_ text: String) {
        #expect(WALPosition(token: text) == nil)
    }
}
