import AtelierImaging

/// Grows a detector's box down over the marks that hang under a symbol.
///
/// The bars under a tub, a circle or a square (mild, very mild) are thin and set apart from the
/// main shape, and the detector's box sometimes stops above them. The classifier, shown the crop
/// around that box, then reads the symbol without them (`pro-w-mild` for `pro-w-very-mild`). So
/// the ink under the box is looked at, and rows of it that lie close under it, cross most of it and
/// are no wider than the symbol are taken in, as bars do and a line of text or the next symbol does
/// not. (The crossed steam lines under an iron cover too little of a row to count; a lower share
/// grew boxes over noise and cost accuracy on the benchmark.)
enum MarksBelow {
    /// Rows of the window per box height.
    static let rowsPerHeight = 40
    /// Largest gap between the box and a mark, or between two marks, in box heights.
    static let gap = 0.3
    /// Furthest the box may grow, in box heights; ink that goes on further is not a mark.
    static let reach = 0.7
    /// How far outside the box's sides a mark may reach (bars are often a little wider than the
    /// symbol), and how far beyond that the window looks for ink that is too wide, in box widths.
    static let overhang = 0.12, margin = 0.3
    /// A row holds a mark when at least this share of its columns under the box is ink, and is too
    /// wide when more than `wideShare` of its columns beyond the overhang are.
    static let markShare = 0.4, wideShare = 0.05

    /// `box`, its bottom moved down over the marks under it (unchanged when there are none).
    static func extend(_ box: SymbolBox, in grey: Image) -> SymbolBox {
        guard box.width >= 4, box.height >= 4 else { return box }
        let depth = 1 + reach + gap
        let rows = Int((Double(rowsPerHeight) * depth).rounded())
        let widthInRows = Double(rowsPerHeight) * box.width / box.height * (1 + 2 * margin)
        let columns = min(4 * rowsPerHeight, max(12, Int(widthInRows.rounded())))
        let region = PixelRegion(x0: box.x - margin * box.width, y0: box.y,
                                 x1: box.x + (1 + margin) * box.width, y1: box.y + depth * box.height)
        // Levelled as the classifier's crop: background light, ink dark, whatever the polarity.
        let level = CareCrop.normalizedCrop(CareCrop.resample(grey, region, width: columns, height: rows))
        let column = { (share: Double) in Int((share / (1 + 2 * margin) * Double(columns)).rounded()) }
        let innerStart = column(margin - overhang), innerEnd = columns - innerStart
        let inner = innerEnd - innerStart, outer = columns - inner
        guard inner > 0, outer > 0 else { return box }

        let gapRows = Int((gap * Double(rowsPerHeight)).rounded())
        let reachRows = Int((reach * Double(rowsPerHeight)).rounded())
        var end = rowsPerHeight  // one past the last row of ink taken in
        for row in rowsPerHeight ..< rows {
            guard row - end <= gapRows else { break }
            var innerInk = 0, outerInk = 0
            for x in 0 ..< columns where level[row * columns + x] < 0.5 {
                if x >= innerStart && x < innerEnd { innerInk += 1 } else { outerInk += 1 }
            }
            if Double(outerInk) > wideShare * Double(outer) { break }
            if Double(innerInk) >= markShare * Double(inner) { end = row + 1 }
        }
        guard end > rowsPerHeight, end - rowsPerHeight <= reachRows else { return box }
        var grown = box
        grown.height = box.height * Double(end) / Double(rowsPerHeight)
        return grown
    }
}
