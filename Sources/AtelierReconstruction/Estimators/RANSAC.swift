import Foundation

/// A model that RANSAC can fit to data with outliers: a minimal solver, a residual, and a
/// non-minimal fit for local optimisation.
///
/// Data are referred to by index (`0 ..< dataCount`); the conforming type owns them, in whatever
/// contiguous form its solvers want.
public protocol RANSACProblem {
    associatedtype Model

    /// How many data there are.
    var dataCount: Int { get }
    /// The size of a minimal sample (5 for the five-point solver, 3 for P3P, 4 for a homography).
    var minimalSampleSize: Int { get }

    /// Every model consistent with a minimal sample (indices into the data): none when the
    /// sample is degenerate, several where the solver has several roots (up to ten for five
    /// points, four for P3P).
    func minimalModels(sample: [Int]) -> [Model]

    /// The squared residual of datum `index` under `model`, in the units of
    /// `RANSACOptions.maxResidual` squared (usually pixels²).
    func squaredResidual(_ model: Model, index: Int) -> Double

    /// A model fitted to a larger set of inliers (least squares, or a non-linear refinement
    /// started at `model`), used by local optimisation; nil when the fit fails, in which case
    /// `model` is kept.
    func refinedModel(_ model: Model, inliers: [Int]) -> Model?
}

/// How hard RANSAC tries and what counts as an inlier.
public struct RANSACOptions: Sendable, Equatable {
    /// The largest residual (not squared) of an inlier.
    public var maxResidual: Double
    /// Stop once the probability of having missed a better all-inlier sample is below
    /// `1 − confidence`.
    public var confidence: Double
    public var minIterations: Int
    public var maxIterations: Int
    /// Rounds of re-fitting on the inliers each time a better model appears (LO-RANSAC).
    public var localOptimisationRounds: Int
    /// The smallest inlier ratio of a model the caller would accept. Sampling stops once a model
    /// with this ratio would have been found with `confidence`, whether or not one was: more
    /// samples could only find models the caller rejects. 0 leaves only `maxIterations`.
    public var minInlierRatio: Double
    public var seed: UInt64

    public init(maxResidual: Double, confidence: Double = 0.9999, minIterations: Int = 50, maxIterations: Int = 10_000,
                localOptimisationRounds: Int = 4, minInlierRatio: Double = 0, seed: UInt64 = 0x5EED) {
        self.maxResidual = maxResidual
        self.confidence = confidence
        self.minIterations = minIterations
        self.maxIterations = maxIterations
        self.localOptimisationRounds = localOptimisationRounds
        self.minInlierRatio = minInlierRatio
        self.seed = seed
    }
}

/// The best model RANSAC found and the data it explains.
public struct RANSACResult<Model> {
    public var model: Model
    /// Indices of the inliers, ascending.
    public var inliers: [Int]
    /// Samples drawn.
    public var iterations: Int
}

/// LO-MSAC: random minimal samples scored by the truncated quadratic cost (MSAC; Torr &
/// Zisserman 2000), which ranks models with equal inlier counts by how well they fit; each new
/// best model is locally optimised by re-fitting on its inliers (LO-RANSAC; Chum, Matas &
/// Kittler 2003), which reaches the accuracy of a least-squares fit and finds the best model in
/// fewer samples. The number of samples adapts to the inlier ratio seen so far.
public enum RANSAC {
    /// The best model, or nil when there are fewer data than a minimal sample or no sample gave
    /// a model with at least a minimal sample's worth of inliers.
    public static func estimate<Problem: RANSACProblem>(_ problem: Problem, options: RANSACOptions) -> RANSACResult<Problem.Model>? {
        let count = problem.dataCount, sampleSize = problem.minimalSampleSize
        guard count >= sampleSize, sampleSize > 0 else { return nil }
        let threshold2 = options.maxResidual * options.maxResidual
        var random = SamplingRandom(seed: options.seed)
        var scratch = Array(0 ..< count), sample: [Int] = []
        sample.reserveCapacity(sampleSize)

        var best: (model: Problem.Model, cost: Double, inliers: Int)?
        let maxIterations = options.minInlierRatio > 0
            ? min(options.maxIterations, Self.requiredIterations(inlierRatio: options.minInlierRatio, sampleSize: sampleSize, confidence: options.confidence))
            : options.maxIterations
        var requiredIterations = maxIterations
        var iteration = 0
        while iteration < max(options.minIterations, min(requiredIterations, maxIterations)) {
            iteration += 1
            random.sample(sampleSize, from: &scratch, into: &sample)
            for model in problem.minimalModels(sample: sample) {
                let score = Self.score(problem, model, threshold2: threshold2, bestCost: best?.cost ?? .infinity)
                guard score.cost < (best?.cost ?? .infinity) else { continue }
                var candidate = (model: model, cost: score.cost, inliers: score.inliers)
                Self.optimiseLocally(problem, &candidate, threshold2: threshold2, rounds: options.localOptimisationRounds)
                best = candidate
                requiredIterations = Self.requiredIterations(inlierRatio: Double(candidate.inliers) / Double(count),
                                                             sampleSize: sampleSize, confidence: options.confidence)
            }
            if iteration >= max(options.minIterations, maxIterations) { break }
        }
        guard let best, best.inliers >= sampleSize else { return nil }
        return RANSACResult(model: best.model, inliers: inlierIndices(problem, best.model, threshold2: threshold2), iterations: iteration)
    }

    /// The indices whose squared residual is within `threshold2`.
    public static func inlierIndices<Problem: RANSACProblem>(_ problem: Problem, _ model: Problem.Model, threshold2: Double) -> [Int] {
        (0 ..< problem.dataCount).filter { problem.squaredResidual(model, index: $0) <= threshold2 }
    }

    /// The MSAC cost and inlier count; stops early (returning infinity) once the cost passes
    /// `bestCost`, since such a model cannot win.
    static func score<Problem: RANSACProblem>(_ problem: Problem, _ model: Problem.Model, threshold2: Double, bestCost: Double) -> (cost: Double, inliers: Int) {
        var cost = 0.0, inliers = 0
        for index in 0 ..< problem.dataCount {
            let r2 = problem.squaredResidual(model, index: index)
            if r2 <= threshold2 {
                cost += r2
                inliers += 1
            } else {
                cost += threshold2
            }
            if cost >= bestCost { return (.infinity, inliers) }
        }
        return (cost, inliers)
    }

    /// Re-fits on the inliers while the cost falls: first with the inliers at twice the threshold
    /// (so a slightly wrong model can pull in the points it nearly explains), then at the threshold.
    static func optimiseLocally<Problem: RANSACProblem>(_ problem: Problem, _ candidate: inout (model: Problem.Model, cost: Double, inliers: Int),
                                                        threshold2: Double, rounds: Int) {
        guard rounds > 0 else { return }
        for round in 0 ..< rounds {
            let inclusion = round == 0 ? 4 * threshold2 : threshold2
            let inliers = inlierIndices(problem, candidate.model, threshold2: inclusion)
            guard inliers.count > problem.minimalSampleSize, let refined = problem.refinedModel(candidate.model, inliers: inliers) else { return }
            let score = Self.score(problem, refined, threshold2: threshold2, bestCost: .infinity)
            guard score.cost < candidate.cost else { return }
            candidate = (refined, score.cost, score.inliers)
        }
    }

    /// The samples needed to draw one all-inlier sample with probability `confidence`:
    /// `log(1 − confidence) / log(1 − wˢ)`.
    public static func requiredIterations(inlierRatio: Double, sampleSize: Int, confidence: Double) -> Int {
        let allInliers = pow(max(0, min(1, inlierRatio)), Double(sampleSize))
        guard allInliers > 0 else { return Int.max }
        guard allInliers < 1 else { return 1 }
        let n = log(1 - confidence) / log(1 - allInliers)
        return n.isFinite ? Int(min(n.rounded(.up), Double(Int.max / 2))) : Int.max
    }
}
