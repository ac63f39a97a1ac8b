/// `If-None-Match` against an entity tag (RFC 9110 §13.1.2): the weak comparison, which
/// ignores `W/`, over a list of tags or `*`.
public enum EntityTag {
    public static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        let wanted = opaque(Substring(tag))
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let candidate = candidate.trimmingSpaces()
            return candidate == "*" || opaque(Substring(candidate)) == wanted
        }
    }

    private static func opaque(_ tag: Substring) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}
