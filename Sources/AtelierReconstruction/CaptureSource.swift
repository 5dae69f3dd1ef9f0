/// One photo of a capture: the name it goes by in the model and messages, and where its bytes are.
public struct CaptureSource: Sendable, Equatable {
    /// The name written to `images.txt` (usually the file name).
    public var name: String
    public var path: String
    /// A mask image (white where features may be found), same aspect as the photo.
    public var maskPath: String?

    public init(name: String, path: String, maskPath: String? = nil) {
        self.name = name
        self.path = path
        self.maskPath = maskPath
    }
}
