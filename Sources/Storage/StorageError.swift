/// Rule violations a write refuses, for the caller to show beside the right field.
public enum StorageError: Error, Equatable, Sendable {
    case usernameTaken
    case emailTaken
    case notFound
}
