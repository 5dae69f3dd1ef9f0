import AtelierImaging
import Foundation

/// Finds where care symbols are in a photo, whatever their size, with the detector network.
///
/// The network sees the image at several scales (an image pyramid, factor 2 apart) and marks,
/// for every cell of `stride` pixels, how likely a symbol's centre lies there, the symbol's size
/// and the centre's offset in the cell. It was trained to report symbols of `band` pixels at the
/// scale it sees, so each symbol is found at one scale at least; overlapping finds are merged.
struct SymbolDetector {
    let network: Network
    let stride: Int
    /// The longest side of the largest pyramid level; the smaller levels halve it.
    static let largestSide = 320
    static let levels = 4
    /// Centre scores below this are not candidates (the classifier decides the rest).
    static let threshold: Float = 0.2
    /// Finds overlapping more than this are one symbol.
    static let overlap = 0.45

    init(network: Network) throws {
        self.network = network
        guard let stride = network.meta["stride"]?.integer.map(Int.init), stride > 0, stride <= 64 else {
            throw CareLabelError.invalid(source: network.source, reason: "the detector's meta has no valid stride")
        }
        self.stride = stride
    }

    /// A candidate symbol: its box in the pixels of `grey` and its centre score.
    struct Candidate {
        var box: SymbolBox
        var score: Float
    }

    /// Candidates in a one-channel image, strongest first, overlaps merged.
    func detect(_ grey: Image) -> [Candidate] {
        var found: [Candidate] = []
        for level in 0 ..< Self.levels {
            let side = Self.largestSide >> level
            let factor = Double(side) / Double(max(grey.width, grey.height))
            let width = max(1, Int((Double(grey.width) * factor).rounded()))
            let height = max(1, Int((Double(grey.height) * factor).rounded()))
            let pixels = CareCrop.resample(grey, PixelRegion(x0: 0, y0: 0, x1: Double(grey.width), y1: Double(grey.height)),
                                           width: width, height: height)
            let input = Tensor(channels: 1, height: height, width: width, values: CareCrop.normalizedImage(pixels))
            found += decode(network.run(input), factor: Double(width) / Double(grey.width))
        }
        return suppressOverlaps(found)
    }

    /// Local maxima of the score map above the threshold, as boxes in source pixels.
    private func decode(_ output: Tensor, factor: Double) -> [Candidate] {
        let h = output.height, w = output.width, plane = h * w
        let values = output.values
        var out: [Candidate] = []
        for y in 0 ..< h {
            for x in 0 ..< w {
                let logit = values[y * w + x]
                let score = 1 / (1 + exp(-logit))
                guard score >= Self.threshold else { continue }
                var isPeak = true
                for ny in max(0, y - 1) ... min(h - 1, y + 1) {
                    for nx in max(0, x - 1) ... min(w - 1, x + 1) where (ny, nx) != (y, x) {
                        let other = values[ny * w + nx]
                        if other > logit || (other == logit && ny * w + nx < y * w + x) { isPeak = false }
                    }
                }
                guard isPeak else { continue }
                let cell = Double(stride)
                let logW = Double(values[plane + y * w + x]), logH = Double(values[2 * plane + y * w + x])
                let cx = (Double(x) + Double(values[3 * plane + y * w + x])) * cell
                let cy = (Double(y) + Double(values[4 * plane + y * w + x])) * cell
                let bw = exp(min(8, logW)) * cell, bh = exp(min(8, logH)) * cell
                let box = SymbolBox(x: cx - bw / 2, y: cy - bh / 2, width: bw, height: bh).scaled(by: 1 / factor)
                out.append(Candidate(box: box, score: score))
            }
        }
        return out
    }

    /// Greedy non-maximum suppression: the strongest of overlapping candidates stays.
    private func suppressOverlaps(_ candidates: [Candidate]) -> [Candidate] {
        var kept: [Candidate] = []
        for candidate in candidates.sorted(by: { $0.score > $1.score })
        where !kept.contains(where: { $0.box.iou(candidate.box) > Self.overlap }) {
            kept.append(candidate)
        }
        return kept
    }
}
