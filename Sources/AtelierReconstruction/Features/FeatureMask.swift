import AtelierImaging

/// Where features may be kept: a grid of flags stretched over the whole image, non-zero to
/// keep. It may be coarser than the image (a silhouette found on a thumbnail serves as well):
/// a keypoint is kept when the mask cell under its position is set.
public struct FeatureMask: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// One byte per cell, rows top to bottom; non-zero keeps.
    public let values: [UInt8]

    /// A mask from its cells; throws when the buffer does not match the size.
    public init(width: Int, height: Int, values: [UInt8]) throws(ReconstructionError) {
        guard width > 0, height > 0 else { throw .invalidMask("it is \(width)×\(height) cells") }
        guard values.count == width * height else {
            throw .invalidMask("\(values.count) values for \(width)×\(height) cells")
        }
        self.width = width
        self.height = height
        self.values = values
    }

    /// A mask from an image: its alpha channel when it has one, its grey level otherwise.
    public init(image: Image) throws(ReconstructionError) {
        let values: [UInt8]
        switch image.channels {
        case 2, 4: values = stride(from: image.channels - 1, to: image.pixels.count, by: image.channels).map { image.pixels[$0] }
        default: values = image.grey().pixels
        }
        try self.init(width: image.width, height: image.height, values: values)
    }

    /// Whether the point (x, y), in pixels of an image `imageWidth` × `imageHeight` with the
    /// top-left corner at (0, 0), falls on a set cell. Points outside the image are not kept.
    public func allows(x: Float, y: Float, imageWidth: Int, imageHeight: Int) -> Bool {
        let column = Int((x * Float(width) / Float(imageWidth)).rounded(.down))
        let row = Int((y * Float(height) / Float(imageHeight)).rounded(.down))
        guard column >= 0, row >= 0, column < width, row < height else { return false }
        return values[row * width + column] != 0
    }
}
