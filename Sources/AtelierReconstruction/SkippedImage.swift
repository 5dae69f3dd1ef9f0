/// A photo left out of the model, and why, in words a person can act on.
public struct SkippedImage: Sendable, Equatable {
    public var name: String
    public var reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}
