import AtelierWardrobe
import Foundation

/// A second opinion, from a small network of its own, on what one kind of symbol shows inside it,
/// folded into the classifier's answer.
///
/// The classifier tells the kinds of symbol apart well, and the bars under them too, but the small
/// marks inside them less well: "50" and "30" in a washing tub differ by one stroke, two dots in a
/// tumble dryer's circle from three by one, a filled circle at low contrast looks empty. When it
/// hesitates between such codes, its probability splits, so the likeliest code may fall below
/// `--min-confidence` and the symbol is lost, or the wrong mark wins. A detail network is trained
/// on that kind of symbol alone (`care-temperature.atlnn`: the water of a machine-wash tub;
/// `care-tumble.atlnn`: the inside of a tumble dryer's circle) and looks at the same crop; the
/// classifier keeps the rest of the answer: whether it is such a symbol at all, and which bars
/// are under it.
///
/// The network's file says which of the classifier's codes each of its classes stands for
/// (`meta.codes`, written by `training/care/train.py` from the codes it drew): one mechanism for
/// every detail network, and a file that does not fit the classifier is refused when loaded.
struct DetailReader: Sendable {
    let network: Network
    /// For each of the classifier's classes, the detail network's class its drawing shows; nil
    /// for the classes the network does not judge.
    let shown: [Int?]

    /// `classes`: the classifier's classes in output order (nil for "none").
    init(network: Network, classes: [CareSymbol?]) throws {
        func invalid(_ reason: String) -> CareLabelError { .invalid(source: network.source, reason: reason) }
        guard let codes = network.meta["codes"]?.object else {
            throw invalid("the detail network's meta has no \"codes\" object (its classes, each with the codes drawn with it)")
        }
        guard Set(network.classes).count == network.classes.count, Set(codes.keys) == Set(network.classes) else {
            throw invalid("the detail network's meta.codes names \(codes.keys), not once each of its classes \(network.classes)")
        }
        var shown = [Int?](repeating: nil, count: classes.count)
        for (k, name) in network.classes.enumerated() {
            guard let list = codes[name]?.array, !list.isEmpty else {
                throw invalid("the detail network's meta.codes gives no codes for its class \"\(name)\"")
            }
            for item in list {
                guard let code = item.string, let i = classes.firstIndex(where: { $0?.code == code }) else {
                    throw invalid("the detail network's meta.codes names \(HeaderFields.shown(item)), which the classifier does not read")
                }
                guard shown[i] == nil else { throw invalid("the detail network's meta.codes names \"\(code)\" twice") }
                shown[i] = k
            }
        }
        self.network = network
        self.shown = shown
    }

    /// The detail network's probabilities for a classifier input, by its class.
    func probabilities(_ input: Tensor) -> [Float] {
        CareLabelReader.softmax(network.run(input).values)
    }

    /// The judged codes' summed probability when the classifier's likeliest reading is one of
    /// them (the sum is above every other class's probability); nil otherwise. Only then is the
    /// detail read, and only when the sum reaches `--min-confidence`: the codes keep their share,
    /// so none of them can come out surer than it.
    func share(_ probabilities: [Float]) -> Float? {
        var share: Float = 0, other: Float = 0
        for (p, detail) in zip(probabilities, shown) {
            if detail != nil { share += p } else { other = max(other, p) }
        }
        return share > other ? share : nil
    }

    /// The classifier's `probabilities` with the judged codes' share divided again: each code's
    /// probability is multiplied by the detail network's probability (`detail`) of what the code
    /// shows, and the codes are scaled to keep the share the classifier gave them. So two
    /// opinions meet: a reading both find likely gains, one either rules out loses, and the bars
    /// the classifier saw stay as they were.
    func combine(_ probabilities: [Float], detail: [Float]) -> [Float] {
        var joint = probabilities
        var share: Float = 0, total: Float = 0
        for (i, k) in shown.enumerated() {
            guard let k else { continue }
            share += probabilities[i]
            joint[i] = probabilities[i] * detail[k]
            total += joint[i]
        }
        guard total > 0 else { return probabilities }
        for (i, k) in shown.enumerated() where k != nil { joint[i] *= share / total }
        return joint
    }
}
