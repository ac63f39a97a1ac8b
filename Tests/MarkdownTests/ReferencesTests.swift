import Testing
import Markdown

@Suite struct ReferencesTests {
    private func render(_ text: String, users: Set<String> = ["mina", "jun_99"]) -> MarkdownRenderer.Document {
        MarkdownRenderer.render(text) { $0.intersection(users) }
    }

    @Test func linksHashtagsIncludingKoreanOnes() {
        let document = render("Morning #Run by the river #한강러닝 #han_gang!")
        #expect(document.tags == ["run", "한강러닝", "han_gang"])
        #expect(document.html.contains(#"<a href="/tags/run">#Run</a>"#))
        #expect(document.html.contains(#"<a href="/tags/%ED%95%9C%EA%B0%95%EB%9F%AC%EB%8B%9D">#한강러닝</a>"#))
        #expect(document.html.contains(#"<a href="/tags/han_gang">#han_gang</a>!"#))
    }

    @Test func linksOnlyMentionsOfExistingUsers() {
        let document = render("thanks @Mina and @nobody_here, mail me at a@mina.com")
        #expect(document.mentions == ["mina"])
        #expect(document.html.contains(#"<a href="/u/mina">@Mina</a>"#))
        #expect(document.html.contains("@nobody_here"))
        #expect(!document.html.contains("/u/nobody_here"))
        #expect(!document.html.contains("/u/mina.com"))
    }

    @Test func leavesCodeLinksAndEntitiesAlone() {
        let document = render("`#notatag` and\n\n    #alsonot @mina\n\n[#linked @mina](https://example.com) issue#3 #123")
        #expect(document.tags.isEmpty)
        #expect(document.mentions.isEmpty)
        #expect(document.html.contains("<code>#notatag</code>"))
    }

    @Test func externalLinksGetRelButInternalOnesDoNot() {
        let document = render("[site](https://example.com) and #tag")
        #expect(document.html.contains(#"<a rel="nofollow ugc noopener" href="https://example.com">site</a>"#))
        #expect(document.html.contains(#"<a href="/tags/tag">"#))
    }

    @Test(arguments: [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[x](javascript:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x](&#106;avascript:alert(1))",
        "![x](javascript:alert(1))",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "<a href=\"javascript:alert(1)\">x</a>",
        "[x](vbscript:msgbox)",
    ])
    func attacksComeOutInert(_ attack: String) {
        let html = render(attack + " #tag").html.lowercased()
        #expect(!html.contains("<script"))
        #expect(!html.contains("onerror"))
        #expect(!html.contains("javascript:"))
        #expect(!html.contains("vbscript:"))
        #expect(!html.contains("data:text/html"))
    }
}
