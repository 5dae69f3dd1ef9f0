import Foundation

/// One octave of Lowe's Gaussian scale space: `S + 3` images of the same size, level `i`
/// blurred to σᵢ = σ₀·2^(i/S) in the octave's own sample grid (S scales per octave, σ₀ = 1.6).
///
/// The difference-of-Gaussians images are not stored: `DoG` level `i` is `level(i+1) − level(i)`
/// and is computed where it is read (a subtraction beside loads that happen anyway), which
/// halves the memory of the scale space. DoG level `i` is labelled with the scale of its lower
/// Gaussian, σᵢ, as in Lowe (2004) and VLFeat; extrema are sought in DoG levels 1 … S, which
/// between them cover the octave, so that every scale belongs to exactly one octave.
struct Octave: Sendable {
    /// −1 for the upsampled first octave, then 0, 1, 2, …: a sample of this octave is 2^index
    /// samples of the working image.
    let index: Int
    let width: Int
    let height: Int
    let scalesPerOctave: Int
    let baseSigma: Float
    /// The Gaussian levels 0 … S + 2; those no longer needed are dropped (nil).
    private(set) var levels: [FloatPlane?]

    init(index: Int, scalesPerOctave: Int, baseSigma: Float, levels: [FloatPlane]) {
        precondition(levels.count == scalesPerOctave + 3)
        self.index = index
        self.scalesPerOctave = scalesPerOctave
        self.baseSigma = baseSigma
        self.levels = levels
        width = levels[0].width
        height = levels[0].height
    }

    /// Gaussian level `i` (which must not have been dropped).
    func level(_ i: Int) -> FloatPlane { levels[i]! }

    /// Working-image samples per sample of this octave.
    var spacing: Float { index >= 0 ? Float(1 << index) : 1 / Float(1 << -index) }

    /// σ, in this octave's samples, of a (fractional) DoG level.
    func sigma(layer: Float) -> Float { baseSigma * exp2(layer / Float(scalesPerOctave)) }

    /// The Gaussian level whose blur is nearest to that of a refined extremum at `layer`:
    /// orientation and descriptor gradients are taken there, as Lowe prescribes.
    func gradientLevel(layer: Float) -> Int { min(max(Int(layer.rounded()), 1), scalesPerOctave) }

    /// Drops the levels only detection needed (0, S + 1, S + 2), keeping 1 … S for orientations
    /// and descriptors.
    mutating func dropDetectionLevels() {
        levels[0] = nil
        levels[scalesPerOctave + 1] = nil
        levels[scalesPerOctave + 2] = nil
    }
}

/// Builds the octaves of the scale space one after another.
///
/// The working image is assumed to carry a blur of σₙ = 0.5 samples already (the camera and the
/// decoder's resampling); the first octave's base is blurred up to σ₀ from there. With the
/// first octave −1 the image is first upsampled, which doubles that prior blur to 1.0 and lets
/// the detector find the smallest structures, as Lowe, VLFeat and COLMAP do. Each further octave
/// starts from level S of the previous one (σ = 2σ₀) decimated by two, which is σ₀ in the new
/// grid, and each level is blurred incrementally from the one below:
/// σ_inc(i) = σ₀ · √(2^(2i/S) − 2^(2(i−1)/S)).
struct ScaleSpaceBuilder: Sendable {
    let scalesPerOctave: Int
    let baseSigma: Float
    let assumedBlur: Float
    let splitter: WorkSplitter
    /// The incremental kernels for levels 1 … S + 2 (index 0 unused).
    private let increments: [GaussianKernel]

    init(scalesPerOctave: Int, baseSigma: Float = 1.6, assumedBlur: Float = 0.5, splitter: WorkSplitter) {
        self.scalesPerOctave = scalesPerOctave
        self.baseSigma = baseSigma
        self.assumedBlur = assumedBlur
        self.splitter = splitter
        let s = Double(scalesPerOctave), sigma0 = Double(baseSigma)
        increments = (0 ... scalesPerOctave + 2).map { i in
            guard i > 0 else { return GaussianKernel(sigma: 1) }
            let previous = pow(2, 2 * Double(i - 1) / s), current = pow(2, 2 * Double(i) / s)
            return GaussianKernel(sigma: Float(sigma0 * (current - previous).squareRoot()))
        }
    }

    /// The first octave of `image` (luma in [0, 1] at the working resolution); index −1
    /// upsamples it first.
    func firstOctave(of image: FloatPlane, index: Int) -> Octave {
        precondition(index == -1 || index == 0, "the first octave is −1 (upsampled) or 0")
        let source = index == -1 ? image.upsampled(splitter: splitter) : image
        let priorBlur = assumedBlur * (index == -1 ? 2 : 1)
        // At least a little blur, so that an image already blurrier than σ₀ still gets a kernel.
        let extra = max((baseSigma * baseSigma - priorBlur * priorBlur).squareRoot(), 0.1 * baseSigma)
        let base = FloatPlane(width: source.width, height: source.height)
        GaussianBlur.apply(source, kernel: GaussianKernel(sigma: extra), into: base, splitter: splitter)
        return fill(base: base, index: index)
    }

    /// The octave after `previous`, or nil when it would be smaller than `minimumSide`.
    func octave(after previous: Octave, minimumSide: Int) -> Octave? {
        guard min((previous.width + 1) / 2, (previous.height + 1) / 2) >= minimumSide else { return nil }
        return fill(base: previous.level(scalesPerOctave).halved(splitter: splitter), index: previous.index + 1)
    }

    private func fill(base: FloatPlane, index: Int) -> Octave {
        var levels = [base]
        for i in 1 ... scalesPerOctave + 2 {
            let next = FloatPlane(width: base.width, height: base.height)
            GaussianBlur.apply(levels[i - 1], kernel: increments[i], into: next, splitter: splitter)
            levels.append(next)
        }
        return Octave(index: index, scalesPerOctave: scalesPerOctave, baseSigma: baseSigma, levels: levels)
    }
}
