import Testing
@testable import Storage

/// A thread's order: each comment followed by its replies, depth first, oldest first.
struct ThreadOrderTests {
    @Test func repliesFollowTheirParentsDepthFirst() {
        // Given two top-level comments, a reply to each, and a reply to the first reply
        let comments: [(id: Int64?, parentID: Int64?)] = [(1, nil), (2, nil), (3, 1), (4, 2), (5, 3), (6, 1)]
        // Then each reply comes after its parent and before the parent's next sibling
        #expect(threadOrder(comments).map { comments[$0].id } == [1, 3, 5, 6, 2, 4])
    }

    @Test func commentsWithoutAPlaceInTheThreadAreLeftOut() {
        // Given a reply whose parent is not among the comments, one that names itself, and two
        // that name each other (rows no write makes, but stored rows are outside data)
        let comments: [(id: Int64?, parentID: Int64?)] = [(1, nil), (2, 99), (3, 3), (4, 5), (5, 4), (6, 1)]
        // Then only the comments reachable from the top level are shown, each once
        #expect(threadOrder(comments).map { comments[$0].id } == [1, 6])
    }

    @Test func aLongChainOfRepliesKeepsItsOrder() {
        // Given 10,000 comments, each a reply to the one before
        let comments: [(id: Int64?, parentID: Int64?)] = (1...10_000).map { (number: Int) -> (id: Int64?, parentID: Int64?) in
            (Int64(number), number == 1 ? nil : Int64(number - 1))
        }
        // Then they come in order, without recursion running out of stack
        #expect(threadOrder(comments) == Array(0..<10_000))
    }
}
