/// Rule violations a write refuses, for the caller to show beside the right field.
public enum StorageError: Error, Equatable, Sendable {
    case usernameTaken
    case emailTaken
    case notFound
    /// The user's role does not allow this.
    case forbidden
    /// The crew has no free place.
    case crewFull
    /// Already a member, or already asked to join.
    case alreadyMember
    /// The invite code is wrong.
    case wrongInviteCode
    /// The owner must hand the crew over before leaving.
    case ownerCannotLeave
    /// The slug is taken by another crew.
    case slugTaken
}
