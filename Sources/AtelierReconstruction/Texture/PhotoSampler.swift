import AtelierImaging

/// Bilinear colour lookups in an RGB photo, in COLMAP's pixel convention (the centre of pixel
/// `(i, j)` is at `(i + 0.5, j + 0.5)`); coordinates off the image clamp to its border. The
/// sampling is AtelierImaging's `BilinearSampler`, which stereo's undistortion shares.
struct PhotoSampler {
    let sampler: BilinearSampler<RGB8Texels>

    init(pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        sampler = BilinearSampler(RGB8Texels(pixels, width: width, height: height))
    }

    @inline(__always)
    func colour(at p: SIMD2<Float>) -> SIMD3<Float> { sampler.sample(pixel: p) }

    /// The mean of five samples a pixel apart around `p`: a vertex's colour less at the mercy of
    /// one pixel of print or noise, for levelling.
    func smoothedColour(at p: SIMD2<Float>) -> SIMD3<Float> {
        (colour(at: p) + colour(at: p + SIMD2(1, 0)) + colour(at: p - SIMD2(1, 0))
            + colour(at: p + SIMD2(0, 1)) + colour(at: p - SIMD2(0, 1))) / 5
    }
}
