import AtelierRecords

/// The garment in a photo taken on a plain backdrop: the largest region that differs in colour
/// from the backdrop, with its holes filled.
///
/// It works on cells, the means of `scale`×`scale` pixels (128–255 cells on the shorter side):
/// averaging quietens noise and print, and framing needs no finer grid. The backdrop is modelled
/// as a colour plus a linear gradient across the frame (which absorbs uneven light), fitted by
/// iterated least squares to the border band, ignoring cells far from the fit (the garment where
/// it reaches the border). Cells far from that model in luma and opponent colour are foreground,
/// cleaned with a 3×3 opening then closing; the largest 8-connected component is the subject.
///
/// No subject is found when the border is not a plain backdrop (under half of it fits the model,
/// or what fits still varies widely), or when the largest component is under 0.5% of the frame or
/// under 35% of the foreground (a cluttered scene).
struct SubjectMask {
    /// The cells, RGB, row by row.
    var cells: [UInt8]
    var width: Int
    var height: Int
    /// Image pixels per cell side.
    var scale: Int
    /// 1 where a cell is in the subject's filled silhouette; all 0 when none was found.
    var silhouette: [UInt8]
    var found = false
    /// Fraction of the cells in the silhouette.
    var fraction = 0.0
    /// Centroid, as fractions of the width and height.
    var centreX = 0.5
    var centreY = 0.5
    var cutOffEdges: [PhotoQuality.Edge] = []
    /// The silhouette's bounding box in image pixels, a cell wider on each side.
    var box: (x: Range<Int>, y: Range<Int>) = (0 ..< 0, 0 ..< 0)

    /// Distances below this are backdrop whatever the border's spread: about the step from a
    /// white shirt to a light grey sheet.
    static let minimumThreshold = 30.0
    /// A border whose fitting cells still differ this much (95th percentile) is not plain.
    static let maximumBackdropSpread = 40.0

    init(_ image: Image) {
        precondition(image.channels == 3)
        scale = max(1, min(image.width, image.height) / 128)
        width = image.width / scale
        height = image.height / scale
        cells = Self.cellMeans(image, scale: scale, width: width, height: height)
        silhouette = [UInt8](repeating: 0, count: width * height)
        guard width >= 8, height >= 8 else { return }

        guard let backdrop = BackdropModel(cells: cells, width: width, height: height),
              backdrop.inlierFraction >= 0.5, backdrop.spread <= Self.maximumBackdropSpread else { return }
        let threshold = max(Self.minimumThreshold, 1.5 * backdrop.spread)
        var mask = [UInt8](repeating: 0, count: width * height)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let i = y * width + x
                let colour = SIMD3(Double(cells[3 * i]), Double(cells[3 * i + 1]), Double(cells[3 * i + 2]))
                mask[i] = backdrop.distance(colour, x: x, y: y) > threshold ? 1 : 0
            }
        }
        // Open (erode, dilate) to drop specks, then close (dilate, erode) to bridge pinholes.
        var scratch = mask
        for maximum in [false, true, true, false] {
            Self.filter3x3(&mask, scratch: &scratch, width: width, height: height, maximum: maximum)
        }
        let (labels, largest, largestSize, foreground) = Self.largestComponent(mask, width: width, height: height)
        let cellCount = width * height
        guard largestSize * 200 >= cellCount, largestSize * 100 >= foreground * 35 else { return }
        silhouette = Self.filled(labels, label: largest, width: width, height: height)
        measure()
    }

    /// Fraction, centroid, box and the edges the silhouette runs into.
    private mutating func measure() {
        var area = 0, sumX = 0, sumY = 0
        var minX = width, maxX = -1, minY = height, maxY = -1
        var onEdge = [0, 0, 0, 0]  // top, bottom, left, right
        for y in 0 ..< height {
            for x in 0 ..< width where silhouette[y * width + x] != 0 {
                area += 1
                sumX += x
                sumY += y
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
                if y == 0 { onEdge[0] += 1 }
                if y == height - 1 { onEdge[1] += 1 }
                if x == 0 { onEdge[2] += 1 }
                if x == width - 1 { onEdge[3] += 1 }
            }
        }
        guard area > 0 else { return }
        found = true
        fraction = Double(area) / Double(width * height)
        centreX = (Double(sumX) / Double(area) + 0.5) / Double(width)
        centreY = (Double(sumY) / Double(area) + 0.5) / Double(height)
        // A couple of cells or 2% of the edge: a stray corner of fluff is not a cut-off garment.
        let lengths = [width, width, height, height]
        cutOffEdges = PhotoQuality.Edge.allCases.enumerated().filter { onEdge[$0.offset] >= max(2, lengths[$0.offset] / 50) }.map(\.element)
        let imageWidth = width * scale, imageHeight = height * scale
        box = (x: max(0, (minX - 1) * scale) ..< min(imageWidth, (maxX + 2) * scale),
               y: max(0, (minY - 1) * scale) ..< min(imageHeight, (maxY + 2) * scale))
    }

    /// RGB means of `scale`×`scale` blocks (the right and bottom remainders are dropped), bands
    /// of cell rows spread over the cores.
    static func cellMeans(_ image: Image, scale: Int, width: Int, height: Int) -> [UInt8] {
        var cells = [UInt8](repeating: 0, count: width * height * 3)
        guard !cells.isEmpty else { return cells }
        let area = scale * scale, stride = image.width * 3
        image.pixels.withUnsafeBufferPointer { sourceBuffer in
            cells.withUnsafeMutableBufferPointer { targetBuffer in
                let source = SharedBuffer(buffer: sourceBuffer), target = SharedPointer(base: targetBuffer.baseAddress!)
                _ = PhotoQuality.inBands(rows: height, minimumRows: 8, initial: ()) { rows in
                    let pixels = source.buffer.baseAddress!
                    var sums = [Int](repeating: 0, count: width * 3)
                    sums.withUnsafeMutableBufferPointer { sum in
                        for cellY in rows {
                            for i in 0 ..< sum.count { sum[i] = 0 }
                            for y in cellY &* scale ..< cellY &* scale &+ scale {
                                var p = pixels + y &* stride
                                for cellX in 0 ..< width {
                                    let s = cellX &* 3
                                    for _ in 0 ..< scale {
                                        sum[s] &+= Int(p[0]); sum[s &+ 1] &+= Int(p[1]); sum[s &+ 2] &+= Int(p[2])
                                        p += 3
                                    }
                                }
                            }
                            let row = target.base + cellY &* width &* 3
                            for i in 0 ..< sum.count { row[i] = UInt8(truncatingIfNeeded: (sum[i] &+ area / 2) / area) }
                        }
                    }
                }
            }
        }
        return cells
    }

    /// A 3×3 erosion (`maximum` false) or dilation of a 0/1 mask, as two separable passes with
    /// the edges replicated (so a subject touching the frame is not eaten from outside).
    static func filter3x3(_ mask: inout [UInt8], scratch: inout [UInt8], width: Int, height: Int, maximum: Bool) {
        @inline(__always) func pick(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 { maximum ? max(a, b, c) : min(a, b, c) }
        for y in 0 ..< height {
            let row = y * width
            for x in 0 ..< width {
                scratch[row + x] = pick(mask[row + max(0, x - 1)], mask[row + x], mask[row + min(width - 1, x + 1)])
            }
        }
        for y in 0 ..< height {
            let above = max(0, y - 1) * width, row = y * width, below = min(height - 1, y + 1) * width
            for x in 0 ..< width { mask[row + x] = pick(scratch[above + x], scratch[row + x], scratch[below + x]) }
        }
    }

    /// 8-connected components of the mask: labels (0 outside), the largest one's label and size,
    /// and the foreground's total size.
    static func largestComponent(_ mask: [UInt8], width: Int, height: Int) -> (labels: [Int32], largest: Int32, size: Int, foreground: Int) {
        var labels = [Int32](repeating: 0, count: mask.count)
        var stack: [Int] = []
        var next: Int32 = 0, largest: Int32 = 0, largestSize = 0, foreground = 0
        for start in 0 ..< mask.count where mask[start] != 0 && labels[start] == 0 {
            next += 1
            labels[start] = next
            stack.append(start)
            var size = 0
            while let i = stack.popLast() {
                size += 1
                let x = i % width, y = i / width
                for ny in max(0, y - 1) ... min(height - 1, y + 1) {
                    for nx in max(0, x - 1) ... min(width - 1, x + 1) {
                        let j = ny * width + nx
                        if mask[j] != 0 && labels[j] == 0 {
                            labels[j] = next
                            stack.append(j)
                        }
                    }
                }
            }
            foreground += size
            if size > largestSize { (largest, largestSize) = (next, size) }
        }
        return (labels, largest, largestSize, foreground)
    }

    /// The component `label` with its holes filled: every cell that cannot reach the frame's
    /// edge without crossing it (4-connected, the dual of the component's 8-connectivity).
    static func filled(_ labels: [Int32], label: Int32, width: Int, height: Int) -> [UInt8] {
        var outside = [UInt8](repeating: 0, count: labels.count)
        var stack: [Int] = []
        func seed(_ i: Int) {
            if labels[i] != label && outside[i] == 0 { outside[i] = 1; stack.append(i) }
        }
        for x in 0 ..< width { seed(x); seed((height - 1) * width + x) }
        for y in 0 ..< height { seed(y * width); seed(y * width + width - 1) }
        while let i = stack.popLast() {
            let x = i % width, y = i / width
            if x > 0 { seed(i - 1) }
            if x < width - 1 { seed(i + 1) }
            if y > 0 { seed(i - width) }
            if y < height - 1 { seed(i + width) }
        }
        return outside.map { 1 &- $0 }
    }
}
