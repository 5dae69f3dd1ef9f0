/// How good a garment photo is, measured offline: exposure, sharpness, noise, framing and colour
/// cast, each scored 0–1 (1 best), with the raw measurements behind the scores, a verdict and
/// advice a person can act on ("a photo coach").
///
/// Sharpness and noise are measured at about `workingSide` pixels on the shorter side: a
/// larger image's luma is shrunk first (bilinear, which does not ring), a smaller one is measured
/// as it is. Their measurements in pixels and levels refer to that working size (`analysedWidth`
/// × `analysedHeight`), which is also the size at which a photo is judged: a catalogue
/// thumbnail or a phone screen, not a 100% crop. Exposure, framing and colour are fractions and
/// ratios, measured on the pixels given.
///
/// Scores (each a clamped linear ramp between the two values given):
/// - exposure: the worst of three. Clipped highlights (any channel ≥ 250): 1 at ≤ 1% of the
///   pixels, 0 at 11%. Crushed shadows (luma ≤ 5): the same. Mean luma: 1 within 80–230, 0 at
///   25 and at 252 (a garment on a light backdrop is rightly brighter than mid-grey: above, it
///   is clipping that tells overexposure).
/// - sharpness: from the blur radius implied by the Laplacian's variance normalised by the
///   gradient energy (see `blurRadiusPixels`): 1 at ≤ 0.9 px, 0 at ≥ 2.0 px. (Calibrated
///   on photos blurred by known amounts: a Gaussian of σ 2 px at 720×480 scores about 0.6.)
/// - noise: from `noiseSigma`: 1 at ≤ 2.5 levels, 0 at ≥ 10.
/// - framing (only when a subject is found): the worst of size (subject fills 20% of the frame
///   or more: 1, 2%: 0), centring (centroid offset ≤ 8% of the frame: 1, 35%: 0) and cut-off
///   (one edge 0.5, two or more 0.3). Without a subject it is `neutralScore` and not part of
///   the verdict.
/// - colour: from the backdrop's chroma `castChroma`: 1 at ≤ 0.05, 0 at ≥ 0.20.
///
/// Verdict: the worst measured score; `good` at ≥ 0.75 (`goodScore`), `fair` at ≥ 0.40
/// (`fairScore`), `poor` below. Every part of a score below `goodScore` adds a sentence of
/// advice, worst first, unless another sentence already covers it (clipped highlights make "too
/// bright" redundant, crushed shadows "too dark", a cut-off garment "off centre"), so a photo
/// is `good` exactly when its advice is empty.
public struct PhotoQuality: Sendable, Equatable {
    public enum Verdict: String, Sendable { case good, fair, poor }

    /// An edge of the frame.
    public enum Edge: String, Sendable, CaseIterable { case top, bottom, left, right }

    /// The direction of a colour cast; `none` when the backdrop's chroma is below 0.05.
    public enum ColourCast: String, Sendable {
        case none
        /// Yellow, orange or red: tungsten and other warm indoor light.
        case warm
        /// Blue or cyan: shade, overcast sky, cold LEDs.
        case cool
        /// Fluorescent light.
        case green
        case magenta
    }

    /// Scores 0–1, 1 best.
    public struct Scores: Sendable, Equatable {
        public var exposure: Double
        public var sharpness: Double
        /// 1 is clean.
        public var noise: Double
        /// `neutralScore` when no subject was found.
        public var framing: Double
        /// 1 is neutral (no cast).
        public var colour: Double
    }

    /// The shorter side `assess` works at; images more than a quarter larger are shrunk to it.
    public static let workingSide = 512
    /// The lowest score of a `good` photo, and the score below which advice is given.
    public static let goodScore = 0.75
    /// The lowest score of a `fair` photo.
    public static let fairScore = 0.40
    /// The framing score when no subject stands out (unknown, neither rewarded nor penalised).
    public static let neutralScore = 0.5

    public var scores: Scores
    public var verdict: Verdict
    /// Concrete sentences with the numbers, worst problem first; empty for a good photo.
    public var advice: [String]

    /// The size sharpness and noise were measured at (see the type's summary).
    public var analysedWidth: Int
    public var analysedHeight: Int

    // Exposure.
    /// Fraction of pixels with any channel ≥ 250.
    public var clippedHighlightsFraction: Double
    /// Fraction of pixels with luma ≤ 5.
    public var crushedShadowsFraction: Double
    /// Mean Rec. 601 luma, 0–255.
    public var meanLuma: Double

    // Sharpness, over the subject's bounding box when a subject is found, else the whole image.
    // Both moments have the noise's share (from `noiseSigma`) taken out, so grain does not pass
    // for detail.
    /// Variance of the 4-neighbour Laplacian of luma, levels².
    public var laplacianVariance: Double
    /// Mean squared luma gradient (forward differences, both directions), levels² per pixel².
    public var gradientEnergy: Double
    /// `laplacianVariance / gradientEnergy`, per pixel²: independent of contrast, it falls as
    /// edges widen (a step blurred by a Gaussian of radius σ gives 1/(2σ²)); 0 when the region
    /// has no structure to judge.
    public var normalisedLaplacianVariance: Double
    /// The Gaussian blur radius that would give `normalisedLaplacianVariance`, in working
    /// pixels: about 0.5 for a perfectly sharp step, capped at 10.
    public var blurRadiusPixels: Double

    // Noise.
    /// Standard deviation of the luma noise in levels, by Immerkær's method over the flattest
    /// tenth of the image (see `PhotoQuality+Measures.swift`).
    public var noiseSigma: Double

    // Framing.
    /// Whether a distinct subject stands out from a plain backdrop. When false the other framing
    /// fields are 0, centred and empty.
    public var subjectFound: Bool
    /// Fraction of the frame the subject's silhouette (holes filled) covers.
    public var subjectFraction: Double
    /// The silhouette's centroid as fractions of the width and height (0.5, 0.5 is centred).
    public var subjectCentreX: Double
    public var subjectCentreY: Double
    /// The centroid's distance from the centre, in fractions of the frame: √(Δx² + Δy²).
    public var subjectCentreOffset: Double
    /// Edges of the frame the subject runs into (it is cut off there), in `Edge` order.
    public var cutOffEdges: [Edge]

    // Colour cast, measured on near-neutral backdrop pixels (see `PhotoQuality+Colour.swift`).
    public var cast: ColourCast
    /// √(redGreen² + yellowBlue²): 0 for neutral grey.
    public var castChroma: Double
    /// (R − G) / mean intensity: positive is red/magenta, negative green.
    public var castRedGreen: Double
    /// ((R + G)/2 − B) / mean intensity: positive is yellow, negative blue.
    public var castYellowBlue: Double

    /// Measures an upright photo (RGB; grey or RGBA are converted), ideally decoded with its
    /// shorter side at least `workingSide`. About 7–8 ms for a 12-megapixel photo decoded at 1/4
    /// (1000×750) on two cores, 3 of them shrinking the luma; the decode itself takes twice that.
    ///
    /// Exposure and framing are fractions, the same at any size, so they are measured on the
    /// pixels given (framing on cells of them); only the luma plane is shrunk to the working
    /// size for sharpness and noise, which depend on scale.
    public static func assess(_ image: Image) -> PhotoQuality {
        let rgb = image.channels == 3 ? image : image.rgb()
        guard rgb.pixelCount > 0 else {
            var quality = PhotoQuality(width: 0, height: 0)
            quality.advice = ["the image has no pixels"]
            return quality
        }
        let (fullLuma, exposure) = lumaAndExposure(of: rgb)
        var luma = Image(width: rgb.width, height: rgb.height, channels: 1, pixels: fullLuma)
        let shorter = min(rgb.width, rgb.height)
        if shorter > workingSide * 5 / 4 {
            let scale = Double(workingSide) / Double(shorter)
            luma = luma.resized(width: max(1, Int((Double(rgb.width) * scale).rounded())),
                                height: max(1, Int((Double(rgb.height) * scale).rounded())), filter: .bilinear)
        }
        var quality = PhotoQuality(width: luma.width, height: luma.height)
        let pixels = Double(rgb.pixelCount)
        quality.clippedHighlightsFraction = Double(exposure.clippedHighlights) / pixels
        quality.crushedShadowsFraction = Double(exposure.crushedShadows) / pixels
        quality.meanLuma = Double(exposure.lumaSum) / pixels

        quality.noiseSigma = noiseSigma(luma: luma.pixels, width: luma.width, height: luma.height)

        let subject = SubjectMask(rgb)
        quality.subjectFound = subject.found
        var region = (x: 0 ..< luma.width, y: 0 ..< luma.height)
        if subject.found {
            quality.subjectFraction = subject.fraction
            quality.subjectCentreX = subject.centreX
            quality.subjectCentreY = subject.centreY
            quality.subjectCentreOffset = ((subject.centreX - 0.5) * (subject.centreX - 0.5) + (subject.centreY - 0.5) * (subject.centreY - 0.5)).squareRoot()
            quality.cutOffEdges = subject.cutOffEdges
            // The box is in the given pixels; the luma may be smaller.
            func working(_ range: Range<Int>, _ from: Int, _ to: Int) -> Range<Int> {
                range.lowerBound * to / from ..< max(range.lowerBound * to / from, (range.upperBound * to + from - 1) / from)
            }
            region = (working(subject.box.x, rgb.width, luma.width), working(subject.box.y, rgb.height, luma.height))
        }
        let sharpness = self.sharpness(luma: luma.pixels, width: luma.width, region: region, noiseSigma: quality.noiseSigma)
        quality.laplacianVariance = sharpness.laplacianVariance
        quality.gradientEnergy = sharpness.gradientEnergy
        quality.normalisedLaplacianVariance = sharpness.ratio
        quality.blurRadiusPixels = sharpness.ratio > 0.005 ? min(10, (1 / (2 * sharpness.ratio)).squareRoot()) : 10

        let balance = colourBalance(of: subject)
        quality.castRedGreen = balance.redGreen
        quality.castYellowBlue = balance.yellowBlue
        quality.castChroma = balance.chroma
        quality.cast = balance.cast

        quality.judge()
        return quality
    }

    /// Everything zero, scores and verdict still to be judged.
    private init(width: Int, height: Int) {
        scores = Scores(exposure: 0, sharpness: 0, noise: 0, framing: Self.neutralScore, colour: 0)
        verdict = .poor
        advice = []
        analysedWidth = width
        analysedHeight = height
        clippedHighlightsFraction = 0
        crushedShadowsFraction = 0
        meanLuma = 0
        laplacianVariance = 0
        gradientEnergy = 0
        normalisedLaplacianVariance = 0
        blurRadiusPixels = 10
        noiseSigma = 0
        subjectFound = false
        subjectFraction = 0
        subjectCentreX = 0.5
        subjectCentreY = 0.5
        subjectCentreOffset = 0
        cutOffEdges = []
        cast = .none
        castChroma = 0
        castRedGreen = 0
        castYellowBlue = 0
    }
}
