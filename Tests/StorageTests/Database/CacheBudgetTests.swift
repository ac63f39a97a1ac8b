import Foundation
import Testing
@testable import Storage

/// The caches hold what their budget allows in bytes, whatever the number of rows offered.
@Suite struct CacheBudgetTests {
    @Test func theStandardBudgetSharesItsMegabytesOut() {
        let budget = CacheBudget.standard
        let total = CacheBudget.Part.allCases.reduce(0) { $0 + budget.bytes(for: $1) }
        #expect(total <= 38 << 20 && total > 37 << 20)
        #expect(budget.bytes(for: .posts) == 8 << 20 && budget.bytes(for: .meetupCards) == 2 << 20)
        #expect(CacheBudget(megabytes: 0).megabytes == 1 && CacheBudget(megabytes: Int.max).megabytes == 1 << 20)
        #expect(CacheBudget(megabytes: Int.max).bytes(for: .posts) > 0)
    }

    @Test func aCacheHoldsNoMoreThanTwoGenerationsOfItsLimit() {
        let cache = GenerationalCache<Int, [UInt8]>(limit: 1_000)
        for key in 0..<10_000 { cache.keep(key, Array(repeating: 0, count: 100), size: 100) }
        #expect(cache.bytes <= 2_000)
        cache.resize(to: 300)
        for key in 10_000..<20_000 { cache.keep(key, Array(repeating: 0, count: 100), size: 100) }
        #expect(cache.bytes <= 600)
        #expect(cache.value(19_999, { $0.count }) == 100)
        #expect(cache.value(0, { $0.count }) == nil)
    }
}
