import AtelierImaging
import Foundation

/// Reads the care symbols in a photo: a whole label or a crop of one symbol.
///
/// Two small networks trained on rendered labels (`make train-care`, `docs/care-model.md`): a
/// detector proposes where symbols are, and a classifier names each proposal as one of the 62
/// codes or as "not a symbol". Nothing is reported below `minConfidence`, so a photo without a
/// label gives no symbols rather than guesses.
public struct CareLabelReader: Sendable {
    let detector: SymbolDetector
    let classifier: Network
    /// The classifier's classes in output order: the codes, then "none".
    let classes: [CareSymbol?]

    /// The classifier's size of input (square).
    var cropSide: Int { classifier.inputWidth ?? 48 }

    /// Loads the networks from `directory` (default: `CareModels.directory()`).
    public init(models directory: URL? = nil) throws {
        let dir = try directory ?? CareModels.directory()
        detector = try SymbolDetector(network: Network(contentsOf: dir.appendingPathComponent(CareModels.detectorFile)))
        classifier = try Network(contentsOf: dir.appendingPathComponent(CareModels.classifierFile))
        var classes: [CareSymbol?] = []
        for name in classifier.classes {
            if name == "none" {
                classes.append(nil)
            } else if let symbol = CareSymbol.named(name) {
                classes.append(symbol)
            } else {
                throw NetworkError.invalid(source: classifier.source, reason: "the classifier names an unknown care symbol \"\(name)\"")
            }
        }
        self.classes = classes
    }

    /// The symbols in `image`, in reading order.
    public func read(_ image: Image, minConfidence: Double = 0.5) -> [ReadSymbol] {
        let grey = image.grey()
        var read: [ReadSymbol] = []
        for candidate in detector.detect(grey) {
            let crop = CareCrop.resample(grey, CareCrop.square(around: candidate.box), width: cropSide, height: cropSide)
            let input = Tensor(channels: 1, height: cropSide, width: cropSide, values: CareCrop.normalizedCrop(crop))
            let probabilities = Self.softmax(classifier.run(input).values)
            guard let best = probabilities.indices.max(by: { probabilities[$0] < probabilities[$1] }),
                  let symbol = classes[best] else { continue }
            let confidence = Double(probabilities[best])
            guard confidence >= minConfidence else { continue }
            read.append(ReadSymbol(symbol: symbol, confidence: confidence, box: candidate.box))
        }
        return ReadingOrder.sorted(read) { $0.box }
    }

    static func softmax(_ logits: [Float]) -> [Float] {
        let top = logits.max() ?? 0
        let e = logits.map { exp($0 - top) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}
