import AtelierImaging

extension FloatPlane {
    /// The luma of an 8-bit image in [0, 1]: the sample itself for grey images, Rec. 601 weights
    /// (0.299 R + 0.587 G + 0.114 B, the luma JPEG stores) for colour; alpha is ignored.
    static func luminance(of image: Image, splitter: WorkSplitter) -> FloatPlane {
        let plane = FloatPlane(width: image.width, height: image.height)
        let width = image.width, channels = image.channels
        let scale: Float = 1 / 255
        let bands = (image.height + 63) / 64
        splitter.forEach(bands) { band in
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in band * 64 ..< min(image.height, (band + 1) * 64) {
                    let out = plane.row(y)
                    let source = pixels.baseAddress! + y * width * channels
                    if channels < 3 {
                        for x in 0 ..< width { out[x] = Float(source[x &* channels]) * scale }
                    } else {
                        for x in 0 ..< width {
                            let p = source + x &* channels
                            out[x] = (0.299 * Float(p[0]) + 0.587 * Float(p[1]) + 0.114 * Float(p[2])) * scale
                        }
                    }
                }
            }
        }
        return plane
    }

    /// The plane at twice the size, bilinear, as VLFeat upsamples for its first octave −1:
    /// output sample 2x is input sample x and odd samples are the means of their neighbours
    /// (the last row and column repeat the border), so output coordinate u is input u/2 exactly.
    func upsampled(splitter: WorkSplitter) -> FloatPlane {
        let (w, h) = (width, height)
        let out = FloatPlane(width: 2 * w, height: 2 * h)
        let bands = (h + 31) / 32
        splitter.forEach(bands) { band in
            for y in band * 32 ..< min(h, (band + 1) * 32) {
                let upper = self.row(y), lower = self.row(min(y + 1, h - 1))
                let even = out.row(2 * y), odd = out.row(2 * y + 1)
                for x in 0 ..< w {
                    let right = min(x + 1, w - 1)
                    let a = upper[x], b = upper[right], c = lower[x], d = lower[right]
                    even[2 &* x] = a
                    even[2 &* x &+ 1] = 0.5 * (a + b)
                    odd[2 &* x] = 0.5 * (a + c)
                    odd[2 &* x &+ 1] = 0.25 * ((a + b) + (c + d))
                }
            }
        }
        return out
    }

    /// Every other sample along both axes, starting with the first: output (x, y) is input
    /// (2x, 2y). Only for planes already blurred well past the new Nyquist limit (σ = 2σ₀ in
    /// the scale space), where decimation loses nothing that matters.
    func halved(splitter: WorkSplitter) -> FloatPlane {
        let out = FloatPlane(width: (width + 1) / 2, height: (height + 1) / 2)
        let bands = (out.height + 63) / 64
        splitter.forEach(bands) { band in
            for y in band * 64 ..< min(out.height, (band + 1) * 64) {
                let source = self.row(2 * y), target = out.row(y)
                for x in 0 ..< out.width { target[x] = source[2 &* x] }
            }
        }
        return out
    }
}
