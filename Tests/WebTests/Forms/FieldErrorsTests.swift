import Testing
@testable import Web

/// How every text field is read: trimmed, measured in code points as the schema's CHECKs
/// count, and names kept free of characters that spoof another.
@Suite struct FieldErrorsTests {
    @Test func lengthsAreCodePointsAndControlCharactersDoNotFit() {
        #expect("한강".fits(1, 2))
        #expect(!"e\u{301}".fits(1, 1))  // one character, two code points
        #expect(!"".fits(1, 10))
        #expect(!"tab\u{0}null".fits(0, 20))
        #expect("two\nlines".fits(0, 20))
        #expect("  spaced out \n".trimmed == "spaced out")
    }

    @Test func clippedNotesKeepWholeCharactersAndDropControls() {
        #expect("abcdef".clipped(3) == "abc")
        #expect("a\u{7}b".clipped(10) == "ab")
        #expect("e\u{301}e\u{301}".clipped(3).unicodeScalars.count <= 3)
        #expect("line\nbreak".clipped(20) == "line\nbreak")
    }

    @Test func namesRefuseSpoofingButKeepEmoji() {
        #expect("Mina Kim".isName(1, 50))
        #expect("👩‍👩‍👧".isName(1, 50))
        #expect(!"Mina\u{202E}nimda".isName(1, 50))
        #expect(!"Mi\u{200B}na".isName(1, 50))
        #expect(!"\u{2066}admin\u{2069}".isName(1, 50))
        #expect(!String(repeating: "a", count: 51).isName(1, 50))
        #expect(!"   ".trimmed.isName(1, 50))
    }
}
