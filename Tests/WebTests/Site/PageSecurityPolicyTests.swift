import Testing
@testable import Web

@Suite struct PageSecurityPolicyTests {
    @Test func everyPageAllowsOnlyTheSitesOwnResources() {
        let policy = App.pageSecurityPolicy()
        #expect(policy.contains("default-src 'self'"))
        #expect(policy.contains("script-src 'self';"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(policy.contains("object-src 'none'"))
        #expect(!policy.contains("unsafe-inline"))
        // No frames and no other connections unless a page names them
        #expect(!policy.contains("frame-src") && !policy.contains("connect-src"))
    }

    @Test func aPageAddsOnlyTheOriginsItNames() {
        let policy = App.pageSecurityPolicy(script: ["https://cdn.portone.io"], formAction: ["https://checkout.stripe.com"],
                                            frame: ["https:"], connect: ["https://cdn.portone.io"])
        #expect(policy.contains("script-src 'self' https://cdn.portone.io;"))
        #expect(policy.contains("form-action 'self' https://checkout.stripe.com;"))
        #expect(policy.contains("; frame-src https:"))
        #expect(policy.contains("; connect-src 'self' https://cdn.portone.io"))
        #expect(policy.contains("frame-ancestors 'none'"))
    }
}
