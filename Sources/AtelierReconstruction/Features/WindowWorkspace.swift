/// Scratch memory for the orientation and descriptor windows, reused from one keypoint to the
/// next by one worker (never shared): the samples of a window gathered into contiguous arrays
/// so that their magnitudes and angles are computed eight at a time.
final class WindowWorkspace {
    private(set) var capacity = 0
    /// Per gathered sample: fractional row and column bin (descriptor only), gradient x and y
    /// (then orientation bin and weighted magnitude), Gaussian weight.
    private(set) var rowBins: UnsafeMutablePointer<Float>
    private(set) var columnBins: UnsafeMutablePointer<Float>
    private(set) var gradientX: UnsafeMutablePointer<Float>
    private(set) var gradientY: UnsafeMutablePointer<Float>
    private(set) var weights: UnsafeMutablePointer<Float>
    /// The Gaussian weight of each column of the window.
    private(set) var columnWeights: UnsafeMutablePointer<Float>
    /// The descriptor's padded histogram: (4 + 2) × (4 + 2) spatial cells × (8 + 1)
    /// orientations, so that trilinear interpolation never needs a bounds test (the margins are
    /// dropped and the extra orientation folded onto the first afterwards). Large enough for the
    /// orientation histogram (36 + 1 bins, then 36 smoothed) too.
    let histogram: UnsafeMutablePointer<Float>
    static let histogramCount = 6 * 6 * 9

    init() {
        rowBins = .allocate(capacity: 0)
        columnBins = .allocate(capacity: 0)
        gradientX = .allocate(capacity: 0)
        gradientY = .allocate(capacity: 0)
        weights = .allocate(capacity: 0)
        columnWeights = .allocate(capacity: 0)
        histogram = .allocate(capacity: Self.histogramCount)
    }

    deinit {
        for pointer in [rowBins, columnBins, gradientX, gradientY, weights, columnWeights] { pointer.deallocate() }
        histogram.deallocate()
    }

    /// Room for at least `samples` samples (and as many columns), plus eight of slack.
    func reserve(_ samples: Int) {
        guard samples > capacity else { return }
        let size = max(samples, 2 * capacity) + 8
        for pointer in [rowBins, columnBins, gradientX, gradientY, weights, columnWeights] { pointer.deallocate() }
        rowBins = .allocate(capacity: size)
        columnBins = .allocate(capacity: size)
        gradientX = .allocate(capacity: size)
        gradientY = .allocate(capacity: size)
        weights = .allocate(capacity: size)
        columnWeights = .allocate(capacity: size)
        capacity = size
    }
}
