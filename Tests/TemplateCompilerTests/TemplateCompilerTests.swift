import Testing
@testable import TemplateCompiler

/// The compiler's contract: Mustache's rules for whitespace and names, applied at build time,
/// and a clear error (template and line) for anything it cannot resolve.
@Suite struct TemplateCompilerTests {
    static let views = """
        struct LayoutView {
            static let template = "layout"
            let title: String
            let signedIn: Bool
            let user: UserView?
        }
        struct UserView {
            let name: String
            var initial: String { String(name.prefix(1)) }
        }
        struct PageView {
            static let template = "page"
            let title: String
            let items: [ItemView]
            let errors: [String: String]
            let count: Int
        }
        struct ItemView {
            let name: String
            let tags: [String]
            let hidden: Bool
        }
        """

    static func compile(_ templates: [String: String], catalogs: [[String: String]] = [["hi": "Hello & welcome"], ["hi": "안녕하세요"]]) throws -> String {
        try TemplateCompiler.compile(templates: templates, catalogs: catalogs, sources: [views])
    }

    static let layout = "<title>{{title}}</title>{{#user}}{{initial}}{{/user}}\n{{$content}}{{/content}}\n"

    @Test func dropsStandaloneTagLinesAndKeepsInlineOnes() throws {
        let nodes = try MustacheParser.parse("<ul>\n  {{#items}}\n  <li>{{.}}</li>\n  {{/items}}\n</ul>{{#a}}x{{/a}}\n", template: "t")
        #expect(nodes == [
            .text("<ul>\n"),
            .section(Name("items"), inverted: false, [.text("  <li>"), .variable(Name("."), escaped: true, line: 3), .text("</li>\n")], line: 2),
            .text("</ul>"),
            .section(Name("a"), inverted: false, [.text("x")], line: 5),
            .text("\n"),
        ])
    }

    @Test func namesResolveThroughTheStackInnermostFirst() throws {
        let code = try Self.compile([
            "layout": Self.layout,
            "page": "{{<layout}}{{$content}}{{#items}}{{name}} {{title}} {{#hidden}}h{{/hidden}}{{/items}}{{/content}}{{/layout}}",
        ])
        #expect(code.contains("for c3 in self.items {"))
        #expect(code.contains("w.escape(c3.name)"))  // the item's name
        #expect(code.contains("w.escape(self.title)"))  // the page's title shadows the layout's
        #expect(code.contains("if c3.hidden {"))
        #expect(code.contains("private func renderLayout(_ w: inout HTMLWriter, _ c0: LayoutView, content: (inout HTMLWriter) -> Void)"))
        #expect(code.contains("if let c2 = c0.user {") && code.contains("w.escape(c2.initial)"))
    }

    @Test func sectionsFollowTheType() throws {
        let code = try Self.compile([
            "layout": Self.layout,
            "page": "{{<layout}}{{$content}}{{^items}}none{{/items}}{{#errors.email}}<p>{{.}}</p>{{/errors.email}}{{^signedIn}}in{{/signedIn}}{{count}}{{/content}}{{/layout}}",
        ])
        #expect(code.contains("if self.items.isEmpty {"))
        #expect(code.contains(#"if let c4 = self.errors["email"] {"#))
        #expect(code.contains("if !c0.signedIn {"))
        #expect(code.contains("w.escape(self.count)"))
    }

    @Test func catalogTextIsInlinedEscapedPerLanguage() throws {
        let code = try Self.compile(["layout": Self.layout, "page": "{{<layout}}{{$content}}<h1>{{t.hi}}</h1>{{/content}}{{/layout}}"])
        #expect(code.contains(#"w.write(w.language == 0 ? "<h1>Hello &amp; welcome</h1>" : "<h1>안녕하세요</h1>")"#))
    }

    @Test func aTextTemplateWritesValuesAndCatalogTextAsTheyAre() throws {
        let views = """
            struct NoteMail {
                static let template = "note"
                static let textTemplate = "note.txt"
                let name: String
            }
            """
        let code = try TemplateCompiler.compile(
            templates: ["note": "<p>{{t.hi}} {{name}}</p>", "note.txt": "{{% CONTENT_TYPE: TEXT }}\n{{t.hi}} {{name}}\n{{>sign}}", "sign": "{{% CONTENT_TYPE: TEXT }}\n-- {{name}} & co\n"],
            catalogs: [["hi": "Hello & welcome"]], sources: [views])
        #expect(code.contains("func renderText(into w: inout HTMLWriter) {"))
        #expect(code.contains(#"w.write("Hello & welcome ")"#) && code.contains("w.raw(self.name)"))
        #expect(code.contains(#"w.write("-- ")"#) && code.contains("w.raw(c0.name)"))
        // The HTML part still escapes.
        #expect(code.contains(#"w.write("<p>Hello &amp; welcome ")"#) && code.contains("w.escape(self.name)"))
    }

    @Test func aPartialIsAFunctionOfTheStackItIsCalledWith() throws {
        let code = try Self.compile([
            "layout": Self.layout,
            "page": "{{<layout}}{{$content}}{{#items}}{{>row}}{{/items}}{{/content}}{{/layout}}",
            "row": "<li>{{name}} · {{title}}</li>",
        ])
        #expect(code.contains("renderRow(&w, c0, self, c3)"))
        #expect(code.contains("private func renderRow(_ w: inout HTMLWriter, _ c0: LayoutView, _ c1: PageView, _ c2: ItemView) {"))
        #expect(code.contains("w.escape(c2.name)") && code.contains("w.escape(c1.title)"))
    }

    @Test(arguments: [
        ("{{nope}}", "page.mustache:2: error: no view on the stack (PageView, LayoutView) has `nope`"),
        ("{{#title}}x{{/title}}", "page.mustache:2: error: {{#title}} is a String: a section takes a Bool, an optional, a list or a view"),
        ("{{items}}", "page.mustache:2: error: {{items}} is a [ItemView]; only String and Int are written"),
        ("{{#items}}{{tags.x}}{{/items}}", "page.mustache:2: error: {{tags.x}} reads into a list"),
        ("{{t.missing}}", "page.mustache:2: error: t.missing is missing from catalog 1"),
        ("{{#items}}x", "page.mustache:2: error: {{/content}} where {{/items}} was expected"),
        ("{{=<% %>=}}", "page.mustache:2: error: changing delimiters is not supported"),
    ])
    func mistakesFailTheBuildAtTheirLine(body: String, message: String) throws {
        let page = "{{<layout}}{{$content}}\n\(body){{/content}}{{/layout}}"
        #expect {
            try Self.compile(["layout": Self.layout, "page": page])
        } throws: { error in
            String(describing: error).hasSuffix(message)
        }
    }

    @Test func readsPropertiesOfStructsAndExtensionsIgnoringStringsAndComments() {
        let views = ViewDeclarations.read(["""
            struct A {  // { not a brace
                static let template = "a"
                let text: String = "{"
                var list: [B]? { nil }
                func f() { let hidden: Int = 0 }
            }
            extension A {
                var more: [String: Int] { [:] }
            }
            """])
        #expect(views["A"]?.template == "a")
        #expect(views["A"]?.properties == ["text": .named("String"), "list": .optional(.array(.named("B"))), "more": .dictionary(.named("Int"))])
    }

    /// The catalogs' keys become Swift members that spell them; a counted text is one member more.
    @Test func catalogKeysBecomeMembersThatSpellThem() throws {
        let code = TextKeys.generate(["home.title", "posts.like_one", "posts.like_other", "errors.404", "retros.kind.continue", "site"])
        #expect(code.contains("static var home: TextKeyTree.home { .init() }"))
        #expect(code.contains("var title: TextKey { TextKey(\"home.title\") }"))
        #expect(code.contains("var like: CountKey { CountKey(\"posts.like\") }"))
        #expect(code.contains("var like_one: TextKey { TextKey(\"posts.like_one\") }"))
        #expect(code.contains("var code404: TextKey { TextKey(\"errors.404\") }"))
        #expect(code.contains("var `continue`: TextKey { TextKey(\"retros.kind.continue\") }"))
        #expect(code.contains("struct retros__kind: Sendable {"))
        #expect(code.contains("static var site: TextKey { TextKey(\"site\") }"))
    }

    /// A catalog that lacks a key of the first, or holds one more, fails the build and says which.
    @Test func everyCatalogHoldsTheFirstCatalogsKeys() throws {
        let english = ["home.title": "Home", "nav.feed": "Feed"]
        try TextKeys.checkSameKeys([english, ["home.title": "홈", "nav.feed": "피드"]], languages: ["en", "ko"])
        do {
            try TextKeys.checkSameKeys([english, ["home.title": "홈", "nav.fed": "피드"]], languages: ["en", "ko"])
            Issue.record("a catalog with another key passed")
        } catch let mismatch as TextKeys.Mismatch {
            #expect(mismatch.description == "error: ko.json lacks nav.feed; ko.json has keys en lacks: nav.fed")
        }
    }
}
