/// An 8-bit image in memory: `channels` interleaved samples per pixel (1 grey, 3 RGB, 4 RGBA),
/// rows top to bottom with no padding.
///
/// One contiguous buffer, so hot loops can take `withUnsafeBufferPointer` and walk it without
/// bounds checks or per-pixel allocation.
public struct Image: Sendable, Equatable {
    /// 100 megapixels: any camera photo, and a bound on memory (300 MB of RGB at most).
    public static let defaultMaxPixels = 100_000_000

    public let width: Int
    public let height: Int
    public let channels: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && (1...4).contains(channels))
        precondition(pixels.count == width * height * channels, "pixel buffer does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// A blank image of the given size, every sample `value`.
    public init(width: Int, height: Int, channels: Int, value: UInt8 = 0) {
        self.init(width: width, height: height, channels: channels, pixels: [UInt8](repeating: value, count: width * height * channels))
    }

    public var pixelCount: Int { width * height }

    /// The samples of the pixel at (x, y).
    public subscript(x: Int, y: Int) -> ArraySlice<UInt8> {
        let start = (y * width + x) * channels
        return pixels[start ..< start + channels]
    }

    /// Luma with Rec. 601 weights in Pillow's fixed point (its `convert("L")`), one channel, so
    /// measures built on it (perceptual hashes) agree with Python tools bit for bit.
    public func grey() -> Image {
        switch channels {
        case 1: return self
        case 2: return Image(width: width, height: height, channels: 1, pixels: stride(from: 0, to: pixels.count, by: 2).map { pixels[$0] })
        default:
            var out = [UInt8](repeating: 0, count: pixelCount)
            pixels.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    for i in 0 ..< dst.count {
                        let p = i &* channels
                        let y = 19595 &* Int(src[p]) &+ 38470 &* Int(src[p &+ 1]) &+ 7471 &* Int(src[p &+ 2]) &+ 0x8000
                        dst[i] = UInt8(truncatingIfNeeded: y >> 16)
                    }
                }
            }
            return Image(width: width, height: height, channels: 1, pixels: out)
        }
    }

    /// Three channels: grey is repeated, alpha is composited over `background`.
    public func rgb(over background: UInt8 = 255) -> Image {
        switch channels {
        case 3: return self
        case 1:
            var out = [UInt8](repeating: 0, count: pixelCount * 3)
            for i in 0 ..< pixelCount { out[3 * i] = pixels[i]; out[3 * i + 1] = pixels[i]; out[3 * i + 2] = pixels[i] }
            return Image(width: width, height: height, channels: 3, pixels: out)
        default:
            var out = [UInt8](repeating: 0, count: pixelCount * 3)
            let colour = channels == 4 ? 3 : 1
            for i in 0 ..< pixelCount {
                let alpha = Int(pixels[i * channels + channels - 1])
                for c in 0 ..< 3 {
                    let sample = Int(pixels[i * channels + min(c, colour - 1)])
                    out[3 * i + c] = UInt8((sample * alpha + Int(background) * (255 - alpha) + 127) / 255)
                }
            }
            return Image(width: width, height: height, channels: 3, pixels: out)
        }
    }

    /// The part of the image inside the rectangle (clamped to the image).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Image {
        let x0 = max(0, min(x, width)), y0 = max(0, min(y, height))
        let x1 = max(x0, min(x + w, width)), y1 = max(y0, min(y + h, height))
        let rowBytes = (x1 - x0) * channels
        var out = [UInt8]()
        out.reserveCapacity(rowBytes * (y1 - y0))
        for row in y0 ..< y1 {
            let start = (row * width + x0) * channels
            out.append(contentsOf: pixels[start ..< start + rowBytes])
        }
        return Image(width: x1 - x0, height: y1 - y0, channels: channels, pixels: out)
    }

    /// The largest centred square.
    public func centreSquare() -> Image {
        let side = min(width, height)
        return cropped(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
    }
}
