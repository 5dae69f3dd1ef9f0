/// What can go wrong reading or writing an image. The caller adds which file it was.
public enum ImagingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not an image format Atelier reads (a text file named .jpg, a GIF).
    case unsupportedFormat(String)
    /// The image is damaged or cut short; the text is the decoder's own explanation.
    case corrupt(String)
    /// The image declares more pixels than the limit allows (a decompression bomb, or a
    /// panorama that needs `--max-pixels`).
    case tooLarge(width: Int, height: Int, limit: Int)
    /// Encoding failed.
    case encodingFailed(String)

    public var description: String {
        switch self {
        case .unsupportedFormat(let what): return "not a JPEG or PNG image (\(what))"
        case .corrupt(let why): return "damaged image: \(why)"
        case .tooLarge(let width, let height, let limit):
            return "image is \(width)×\(height) pixels, more than the limit of \(limit) (raise it with --max-pixels)"
        case .encodingFailed(let why): return "cannot encode the image: \(why)"
        }
    }
}
