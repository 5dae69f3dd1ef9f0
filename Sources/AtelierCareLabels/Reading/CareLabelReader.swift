import AtelierImaging
import AtelierWardrobe
import Foundation

/// Reads the care symbols in a photo: a whole label or a crop of one symbol.
///
/// Small networks trained on rendered labels (`make train-care`, `docs/care-model.md`): a
/// detector proposes where symbols are, a classifier names each proposal as one of the 62 codes
/// or as "not a symbol", and detail networks give second opinions on what a washing tub and a
/// tumble dryer's circle show inside them (`DetailReader`). Nothing is reported below
/// `minConfidence`, so a photo without a label gives no symbols rather than guesses.
public struct CareLabelReader: Sendable {
    let detector: SymbolDetector
    let classifier: Network
    /// Second opinions on the inside of washing tubs and tumble dryers' circles.
    let details: [DetailReader]
    /// The classifier's classes in output order: the codes, then "none".
    let classes: [CareSymbol?]

    /// The classifier's size of input (square).
    let cropSide: Int

    /// Loads the networks from `directory` (default: `CareModels.directory()`).
    public init(models directory: URL? = nil) throws {
        let dir = try directory ?? CareModels.directory()
        detector = try SymbolDetector(network: Network(contentsOf: dir.appendingPathComponent(CareModels.detectorFile)))
        classifier = try Network(contentsOf: dir.appendingPathComponent(CareModels.classifierFile))
        guard let side = classifier.inputWidth, classifier.inputHeight == side, classifier.inputChannels == 1 else {
            throw CareLabelError.invalid(source: classifier.source, reason: "the classifier does not take square one-channel crops")
        }
        cropSide = side
        var classes: [CareSymbol?] = []
        for name in classifier.classes {
            if name == "none" {
                classes.append(nil)
            } else if let symbol = CareSymbol.named(name) {
                classes.append(symbol)
            } else {
                throw CareLabelError.invalid(source: classifier.source, reason: "the classifier names an unknown care symbol \"\(name)\"")
            }
        }
        self.classes = classes
        details = try CareModels.detailFiles.map { file in
            let network = try Network(contentsOf: dir.appendingPathComponent(file))
            guard network.inputWidth == side, network.inputHeight == side, network.inputChannels == 1 else {
                throw CareLabelError.invalid(source: network.source, reason: "the detail network does not take the classifier's crops")
            }
            return try DetailReader(network: network, classes: classes)
        }
    }

    /// A candidate the classifier is unsure of is seen again at the other sizes of its crop and the
    /// answers are averaged: a box a few pixels off sways one view more than the mean of two.
    static let viewScales = [1.0, 1.12]
    /// One view is enough when its answer is at least this probable (most are: clear symbols and
    /// plain text), so the second view costs little time.
    static let sureEnough: Float = 0.9

    /// The classifier's input for the square crop around `box`, widened by `scale`.
    private func crop(_ grey: Image, around box: SymbolBox, scale: Double) -> Tensor {
        let crop = CareCrop.resample(grey, CareCrop.square(around: box, scale: scale), width: cropSide, height: cropSide)
        return Tensor(channels: 1, height: cropSide, width: cropSide, values: CareCrop.normalizedCrop(crop))
    }

    /// The classifier's reading of the crop around `box`: the most probable class and its
    /// probability. A sure answer stands; an unsure one gets second looks: the wider crop, and
    /// for a washing tub or a tumble dryer the detail network's opinion of what it shows inside
    /// (on the first crop, which is enough and keeps a label under 50 ms).
    private func best(_ grey: Image, around box: SymbolBox, minConfidence: Double) -> (symbol: CareSymbol?, confidence: Double) {
        var inputs = [crop(grey, around: box, scale: Self.viewScales[0])]
        var probabilities = Self.softmax(classifier.run(inputs[0]).values)
        if (probabilities.max() ?? 0) < Self.sureEnough {
            inputs += Self.viewScales.dropFirst().map { crop(grey, around: box, scale: $0) }
            probabilities = Self.mean(inputs.map { Self.softmax(classifier.run($0).values) })
            for detail in details {
                guard let share = detail.share(probabilities), Double(share) >= minConfidence else { continue }
                probabilities = detail.combine(probabilities, detail: detail.probabilities(inputs[0]))
            }
        }
        guard let best = probabilities.indices.max(by: { probabilities[$0] < probabilities[$1] }) else { return (nil, 0) }
        return (classes[best], Double(probabilities[best]))
    }

    /// The element-wise mean of equally long probability vectors.
    static func mean(_ vectors: [[Float]]) -> [Float] {
        guard var sum = vectors.first else { return [] }
        for vector in vectors.dropFirst() {
            for i in sum.indices { sum[i] += vector[i] }
        }
        let count = Float(vectors.count)
        return sum.map { $0 / count }
    }

    /// The symbols in `image`, in reading order.
    public func read(_ image: Image, minConfidence: Double = 0.5) -> [ReadSymbol] {
        let grey = image.grey()
        var read: [ReadSymbol] = []
        for candidate in detector.detect(grey) {
            let box = MarksBelow.extend(candidate.box, in: grey)
            let (symbol, confidence) = best(grey, around: box, minConfidence: minConfidence)
            guard let symbol, confidence >= minConfidence else { continue }
            read.append(ReadSymbol(symbol: symbol, confidence: confidence, box: box))
        }
        read = Self.withoutNested(read)
        if read.count <= 1, let whole = Self.wholeImageBox(width: grey.width, height: grey.height) {
            let (symbol, confidence) = best(grey, around: whole, minConfidence: minConfidence)
            if let symbol, confidence >= max(minConfidence, read.first?.confidence ?? 0) {
                read = [ReadSymbol(symbol: symbol, confidence: confidence, box: whole)]
            }
        }
        return ReadingOrder.sorted(read) { $0.box }
    }

    /// The longest side over the shortest of a photo that may be the crop of one symbol.
    static let cropAspect = 1.6

    /// For a photo shaped like the crop of one symbol, the symbol box whose classifier crop is the
    /// whole photo. The detector is trained on symbols with room around them; a crop the user cut
    /// tight around one symbol is read by the classifier directly, which also knows "not a symbol".
    static func wholeImageBox(width: Int, height: Int) -> SymbolBox? {
        let w = Double(width), h = Double(height)
        guard min(w, h) >= 8, max(w, h) / min(w, h) <= cropAspect else { return nil }
        let side = min(w, h) / CareCrop.margin
        return SymbolBox(x: (w - side) / 2, y: (h - side) / 2, width: side, height: side)
    }

    /// A box this much inside a larger symbol's is part of that symbol.
    static let nestedFraction = 0.6
    /// The parts of a symbol that can be read as symbols on their own (the circle of a tumble
    /// square, the iron of `iron-no-steam`, the tub of a washing symbol) take at least this share
    /// of its box; a symbol smaller than that inside a box is not a part of it.
    static let partArea = 0.2

    /// The symbols less those found inside a larger one. Symbols do not nest on a label, so a find
    /// inside another is a part of it read on its own: the iron of `iron-no-steam`, the triangle of
    /// `bleach-chlorine`, the tub of a washing symbol, or the same symbol found twice. But a box
    /// holding symbols much smaller than itself is not a symbol: it is the label (or a row of it)
    /// mistaken for one, a square label for a tumble-drying square, say, and it goes instead.
    static func withoutNested(_ symbols: [ReadSymbol]) -> [ReadSymbol] {
        let symbols = symbols.filter { container in
            let small = symbols.filter {
                $0.box.area < partArea * container.box.area && $0.box.fractionInside(container.box) >= nestedFraction
            }
            return !(small.count >= 2 || small.contains { $0.confidence >= container.confidence })
        }
        var kept: [ReadSymbol] = []
        for symbol in symbols.sorted(by: { $0.box.area > $1.box.area })
        where !kept.contains(where: { symbol.box.fractionInside($0.box) >= nestedFraction }) {
            kept.append(symbol)
        }
        return kept
    }

    static func softmax(_ logits: [Float]) -> [Float] {
        let top = logits.max() ?? 0
        let e = logits.map { exp($0 - top) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}
