import CompiledHTML
import Storage

/// The parts of a card that look the same to every reader (a post's byline, body and photos; a
/// comment's byline and body), rendered once per item and language and written as bytes after
/// that. What readers see differently — how long ago, the counts, liked and saved, the forms'
/// tokens and links — stays outside and is rendered for each request.
///
/// An entry keeps the `Source` it was rendered from (a post's revision; what a comment shows this
/// reader) and is used only while the item's row still says the same, so an edit, a hide or
/// a renamed author shows on the next read without anything dropping the entry, here or on
/// another server sharing the database. Two generations bound the memory (`GenerationalCache`).
final class FragmentCache<Source: Equatable & Sendable>: Sendable {
    struct Key: Hashable {
        let id: Int64
        let language: Int
        /// A second rendering of the same item (a post card whose photos load at once).
        var variant = 0
    }

    /// A card split around the one thing in its middle that changes by the minute: the time
    /// since it was written.
    struct Fragments: Sendable {
        /// Up to the opening `<time>` tag.
        let byline: HTMLFragment
        /// From `</time>` on.
        let content: HTMLFragment
        var size: Int { byline.bytes.count + content.bytes.count }

        /// The two parts rendered from their views; `size` is about what the content will take.
        init(byline: some FragmentView, content: some FragmentView, language: Language, size: Int) {
            var writer = HTMLWriter(language, capacity: 512)
            byline.render(into: &writer)
            self.byline = HTMLFragment(writer)
            writer = HTMLWriter(language, capacity: 512 + size)
            content.render(into: &writer)
            self.content = HTMLFragment(writer)
        }

        init(byline: HTMLFragment, content: HTMLFragment) {
            self.byline = byline
            self.content = content
        }
    }

    private struct Entry: Sendable {
        let source: Source
        let fragments: Fragments
    }

    private let entries: GenerationalCache<Key, Entry>

    init(limit: Int = 8 << 20) {
        entries = GenerationalCache(limit: limit)
    }

    /// The fragments for `key`, rendered by `render` unless kept from the same source.
    func fragments(_ key: Key, _ source: Source, render: () -> Fragments) -> Fragments {
        if let kept = kept(key, source) { return kept }
        let fragments = render()
        entries.keep(key, Entry(source: source, fragments: fragments), size: fragments.size)
        return fragments
    }

    /// The fragments kept for `key` from the same source, if any.
    func kept(_ key: Key, _ source: Source) -> Fragments? {
        entries.value(key, { $0.source == source ? $0.fragments : nil })
    }

    /// Bytes held by both generations.
    var bytes: Int { entries.bytes }
}

/// A view whose template renders on its own, outside any page (the compiler gives it
/// `render(into:)`): the parts kept in a `FragmentCache`.
protocol FragmentView {
    func render(into writer: inout HTMLWriter)
}

extension PostBylineView: FragmentView {}
extension PostContentView: FragmentView {}
extension CommentBylineView: FragmentView {}
extension CommentContentView: FragmentView {}
extension MeetupCardHeadView: FragmentView {}
extension MeetupCardTailView: FragmentView {}
