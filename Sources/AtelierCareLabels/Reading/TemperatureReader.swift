import Foundation

/// Reads what a machine-wash tub shows in its water (a temperature, or nothing) with a network of
/// its own, and folds it into the classifier's answer.
///
/// The classifier tells a washing tub from the other symbols well, and the bars under it too, but
/// the digits or dots in the water less well: "50" and "30" differ by one stroke, and a plain tub
/// (ASTM's machine wash, any temperature) is taken for "30" now and then. When it hesitates, its
/// probability splits, so the likeliest code may fall below `--min-confidence` and the symbol is
/// lost, or the wrong temperature wins. The temperature network (`care-temperature.atlnn`, trained
/// on tubs alone) looks at the same crop and gives a second opinion on the water only; the
/// classifier keeps the rest of the answer: whether it is such a tub at all, and which bars are
/// under it.
struct TemperatureReader: Sendable {
    let network: Network
    /// The network's classes: a temperature in degrees Celsius, or nil for a tub showing none.
    let temperatures: [Int?]

    init(network: Network) throws {
        let temperatures = network.classes.map { $0 == "none" ? nil : Int($0) }
        guard !temperatures.isEmpty, zip(temperatures, network.classes).allSatisfy({ $0 != nil || $1 == "none" }) else {
            throw NetworkError.invalid(source: network.source, reason: "the temperature network's classes are not all temperatures or \"none\"")
        }
        let shown = Set(CareSymbol.all.compactMap(Self.tub).map(\.celsius))
        guard Set(temperatures) == shown, temperatures.count == shown.count else {
            throw NetworkError.invalid(source: network.source, reason: "the temperature network names \(network.classes), "
                                           + "not once each of the temperatures a tub shows and \"none\"")
        }
        self.network = network
        self.temperatures = temperatures
    }

    /// The temperature network's probabilities for a classifier input, by class.
    func probabilities(_ input: Tensor) -> [Float] {
        CareLabelReader.softmax(network.run(input).values)
    }

    /// A machine-wash tub: the temperature in its water (nil when it shows none) and the process
    /// (the bars under it). Hand washing and "do not wash" are tubs of another kind.
    static func tub(_ symbol: CareSymbol) -> (celsius: Int?, process: CareConstraints.Process)? {
        guard symbol.family == .washing, let process = symbol.constraints.washProcess, process != .hand else { return nil }
        return (symbol.constraints.maxWashCelsius, process)
    }

    /// The tubs' summed probability when the classifier's likeliest reading is a machine-wash
    /// tub (the sum is above every other class's probability); nil otherwise. Only then is the
    /// water read, and only when the sum reaches `--min-confidence`: the tubs keep their share,
    /// so no tub code can come out surer than it.
    static func tubShare(_ probabilities: [Float], classes: [CareSymbol?]) -> Float? {
        var share: Float = 0, other: Float = 0
        for (p, symbol) in zip(probabilities, classes) {
            if let symbol, tub(symbol) != nil { share += p } else { other = max(other, p) }
        }
        return share > other ? share : nil
    }

    /// The classifier's `probabilities` with the tubs' share divided again: each tub code's
    /// probability is multiplied by the temperature network's probability of what its water shows
    /// (`temperature`, by class of `temperatures`), and the tubs are scaled to keep the share the
    /// classifier gave them. So two opinions meet: a temperature both find likely gains, one
    /// either rules out loses, and the bars the classifier saw stay as they were.
    static func combine(_ probabilities: [Float], classes: [CareSymbol?], temperature: [Float], temperatures: [Int?]) -> [Float] {
        let water = Dictionary(zip(temperatures, temperature), uniquingKeysWith: +)
        var joint = probabilities
        var share: Float = 0, total: Float = 0
        for (i, symbol) in classes.enumerated() {
            guard let tub = symbol.flatMap(tub) else { continue }
            share += probabilities[i]
            joint[i] = probabilities[i] * (water[tub.celsius] ?? 0)
            total += joint[i]
        }
        guard total > 0 else { return probabilities }
        for (i, symbol) in classes.enumerated() where symbol.flatMap(tub) != nil { joint[i] *= share / total }
        return joint
    }
}
