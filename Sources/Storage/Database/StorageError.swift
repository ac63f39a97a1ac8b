/// Rule violations a write refuses, for the caller to show beside the right field.
public enum StorageError: Error, Hashable, Sendable {
    case usernameTaken
    case emailTaken
    case notFound
    /// The user's role does not allow this.
    case forbidden
    /// No free place left (a crew's cap, a meetup's capacity).
    case full
    /// Already there: a member or a request of the crew, an open report of the same thing.
    case duplicate
    /// The invite code is wrong.
    case wrongInviteCode
    /// The owner must hand the crew over before leaving.
    case ownerCannotLeave
    /// The slug is taken by another crew.
    case slugTaken
    /// It cannot change any more: people have applied to the meetup.
    case locked
    /// The price asked for is no longer the price: the fee or the dues changed meanwhile.
    case priceChanged
    /// A rule of the schema (CHECK, UNIQUE, a foreign key) refused the write: input the
    /// forms should have caught.
    case rejected
    /// The database cannot be reached (PostgreSQL restarting, the network down): try again
    /// shortly; the pool reconnects by itself.
    case unavailable
}
