/// What can go wrong building or writing a synthetic capture. Each case names what to fix.
public enum SyntheticError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A setting is out of range (an image size of zero, a quality of 200, a ring of one view).
    /// A usage error: the caller asked for something the renderer cannot make.
    case invalidParameter(name: String, reason: String)
    /// The output directory already holds files and overwriting was not asked for; writing into
    /// it would mix a new capture with an old one (stale `img_0025.jpg` from a larger run).
    case outputNotEmpty(path: String)
    /// A directory or file could not be created or written; `reason` is the system's message.
    case cannotWrite(path: String, reason: String)
    /// An image could not be encoded; the text is the encoder's own explanation.
    case encodingFailed(String)

    public var description: String {
        switch self {
        case .invalidParameter(let name, let reason): return "\(name) \(reason)"
        case .outputNotEmpty(let path):
            return "\(path) is not empty; choose a new directory or pass --overwrite to replace a previous capture there"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .encodingFailed(let why): return "cannot encode an image: \(why)"
        }
    }
}
