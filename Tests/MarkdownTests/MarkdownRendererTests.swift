import Testing
import Markdown

@Suite struct MarkdownRendererTests {
    @Test func rendersCommonMark() {
        #expect(MarkdownRenderer.html("**10K** in _50:00_") == "<p><strong>10K</strong> in <em>50:00</em></p>\n")
    }

    @Test func plainTextIsTheWordsOnOneLine() {
        #expect(MarkdownRenderer.plainText("# Title\n\n**Bold** _it_ [link](https://x.example) `code`\nnext line") == "Title Bold it link code next line")
        #expect(MarkdownRenderer.plainText("<script>alert(1)</script>\n\n<b>x</b> words") == "x words")
        #expect(MarkdownRenderer.plainText("") == "" && MarkdownRenderer.plainText("   \n\n  ") == "")
        #expect(MarkdownRenderer.plainText("- one\n- two") == "one two")
    }

    @Test func dropsRawHTML() {
        let html = MarkdownRenderer.html("<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)>")
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
    }

    @Test func emptiesDangerousLinks() {
        let html = MarkdownRenderer.html("[a](javascript:alert(1)) [b](vbscript:x) [c](data:text/html,x)")
        #expect(!html.contains("javascript:"))
        #expect(!html.contains("vbscript:"))
        #expect(!html.contains("data:text/html"))
    }

    @Test func handlesEmptyAndKoreanText() {
        #expect(MarkdownRenderer.html("") == "")
        #expect(MarkdownRenderer.html("한강 러닝 🏃") == "<p>한강 러닝 🏃</p>\n")
    }
}
