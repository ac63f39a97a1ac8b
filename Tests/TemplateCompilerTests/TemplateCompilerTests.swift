import Testing
@testable import TemplateCompiler

@Suite struct TemplateCompilerTests {
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
}
