import AtelierWardrobe

/// Where a symbol is in a photo: the axis-aligned box of its ink (bars and cross included), in
/// pixels of the upright image at its full size.
public struct SymbolBox: Sendable, Equatable {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    var centreX: Double { x + width / 2 }
    var centreY: Double { y + height / 2 }
    var area: Double { width * height }

    /// The area this box shares with another.
    func intersection(_ other: SymbolBox) -> Double {
        let ix = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let iy = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        return ix * iy
    }

    /// Intersection over union.
    func iou(_ other: SymbolBox) -> Double {
        let inter = intersection(other)
        return inter / max(1e-9, area + other.area - inter)
    }

    /// The share of this box's area that lies inside another.
    func fractionInside(_ other: SymbolBox) -> Double {
        intersection(other) / max(1e-9, area)
    }

    /// The box scaled about the image origin (from a reduced decode back to full size).
    func scaled(by factor: Double) -> SymbolBox {
        SymbolBox(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }
}

/// One care symbol read in a photo.
public struct ReadSymbol: Sendable {
    public let symbol: CareSymbol
    /// The classifier's probability for this code, in [0, 1].
    public let confidence: Double
    public let box: SymbolBox
}
