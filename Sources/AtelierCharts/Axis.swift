import Foundation

/// A value axis from 0 to a round number above the largest value, with ticks at round steps
/// (1, 2 or 5 times a power of ten: Heckbert's "nice numbers", Graphics Gems, 1990).
public struct ValueAxis: Sendable, Equatable {
    public let maximum: Double
    public let step: Double

    public init(largest: Double, targetTicks: Int = 5) {
        let top = largest > 0 ? largest : 1
        let rough = top / Double(max(1, targetTicks))
        let magnitude = pow(10, floor(log10(rough)))
        let fraction = rough / magnitude
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        step = nice * magnitude
        maximum = (top / step).rounded(.up) * step
    }

    /// The tick values, 0 through `maximum`.
    public var ticks: [Double] {
        let count = Int((maximum / step).rounded())
        return (0 ... count).map { Double($0) * step }
    }

    /// A tick's label: as many decimals as the step needs, no trailing zeros.
    public func label(_ value: Double) -> String { ChartNumber.format(value, decimals: step < 1 ? Int(ceil(-log10(step))) : 0) }
}

/// Numbers as a chart writes them: locale-independent, thousands unseparated, at most two decimals.
public enum ChartNumber {
    public static func format(_ value: Double, decimals: Int = 2) -> String {
        let places = max(0, min(decimals, 6))
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
