extension Image {
    /// The image as it should be displayed, given the EXIF orientation (0x0112) of its file.
    ///
    /// The orientation says where the stored rows and columns belong on screen (Exif 2.32
    /// §4.6.4 A, TIFF 6.0 p. 36); the transform applied here is the one that puts them there:
    ///
    /// | value | stored row 0 is… | column 0 is… | transform applied |
    /// |---|---|---|---|
    /// | 1 | top    | left   | none |
    /// | 2 | top    | right  | mirror left–right |
    /// | 3 | bottom | right  | rotate 180° |
    /// | 4 | bottom | left   | mirror top–bottom |
    /// | 5 | left   | top    | transpose (mirror about the main diagonal) |
    /// | 6 | right  | top    | rotate 90° clockwise |
    /// | 7 | right  | bottom | transverse (mirror about the anti-diagonal) |
    /// | 8 | left   | bottom | rotate 90° counter-clockwise |
    ///
    /// Width and height swap for 5–8. Any other value leaves the image as it is.
    public func oriented(_ exifOrientation: Int) -> Image {
        guard (2 ... 8).contains(exifOrientation), width > 0, height > 0 else { return self }
        let (w, h) = (width, height)
        let swaps = EXIF.swapsAxes(orientation: exifOrientation)
        let outWidth = swaps ? h : w, outHeight = swaps ? w : h
        // The source pixel of output pixel (x, y) is origin + x·stepX + y·stepY (pixel indices).
        let origin: Int, stepX: Int, stepY: Int
        switch exifOrientation {
        case 2: (origin, stepX, stepY) = (w - 1, -1, w)            // (w-1-x, y)
        case 3: (origin, stepX, stepY) = (w * h - 1, -1, -w)       // (w-1-x, h-1-y)
        case 4: (origin, stepX, stepY) = ((h - 1) * w, 1, -w)      // (x, h-1-y)
        case 5: (origin, stepX, stepY) = (0, w, 1)                 // (y, x)
        case 6: (origin, stepX, stepY) = ((h - 1) * w, -w, 1)      // (y, h-1-x)
        case 7: (origin, stepX, stepY) = (w * h - 1, -w, -1)       // (w-1-y, h-1-x)
        default: (origin, stepX, stepY) = (w - 1, w, -1)           // 8: (w-1-y, x)
        }
        let map = PixelMap(width: outWidth, height: outHeight, origin: origin, stepX: stepX, stepY: stepY, quarterTurn: swaps)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                switch channels {
                case 1: map.apply(UInt8.self, from: source, to: target)
                case 2: map.apply(UInt16.self, from: source, to: target)
                case 3: map.apply(Pixel24.self, from: source, to: target)
                default: map.apply(UInt32.self, from: source, to: target)
                }
            }
        }
        return Image(width: outWidth, height: outHeight, channels: channels, pixels: out)
    }
}

/// Three one-byte samples moved as one value.
private struct Pixel24: BitwiseCopyable {
    var a: UInt8, b: UInt8, c: UInt8
}

/// An affine map from output pixels to source pixels, applied with one load and one store per
/// pixel, specialised per pixel size.
private struct PixelMap {
    let width: Int, height: Int, origin: Int, stepX: Int, stepY: Int
    /// For 5–8 a source row becomes an output column: the output is written in bands of
    /// `band` rows, column by column, so that reads run along source rows instead of striding
    /// down whole columns (a cache miss per pixel on a photo).
    let quarterTurn: Bool
    static let band = 16

    func apply<Pixel: BitwiseCopyable>(_: Pixel.Type, from source: UnsafeRawBufferPointer, to target: UnsafeMutableRawBufferPointer) {
        let size = MemoryLayout<Pixel>.size
        precondition(source.count == width * height * size && target.count == source.count)
        guard let src = source.baseAddress, let dst = target.baseAddress else { return }
        if !quarterTurn {
            for y in 0 ..< height {
                var from = origin &+ y &* stepY, to = y &* width
                for _ in 0 ..< width {
                    dst.storeBytes(of: src.loadUnaligned(fromByteOffset: from &* size, as: Pixel.self), toByteOffset: to &* size, as: Pixel.self)
                    from &+= stepX
                    to &+= 1
                }
            }
            return
        }
        for top in stride(from: 0, to: height, by: Self.band) {
            let bottom = min(top + Self.band, height)
            for x in 0 ..< width {
                var from = origin &+ x &* stepX &+ top &* stepY, to = top &* width &+ x
                for _ in top ..< bottom {
                    dst.storeBytes(of: src.loadUnaligned(fromByteOffset: from &* size, as: Pixel.self), toByteOffset: to &* size, as: Pixel.self)
                    from &+= stepY
                    to &+= width
                }
            }
        }
    }
}
