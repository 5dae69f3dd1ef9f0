// Which pixels of a garment photo are the garment: backdrop removal for `GarmentColors`.

extension GarmentColors {
    /// The plain backdrop of a photo, read from its border.
    struct Backdrop: Sendable, Equatable {
        /// The backdrop colour: the per-channel median of the border in CIELAB (a median, so a
        /// garment that touches the edge of the frame does not drag it).
        var color: SIMD3<Float>
        /// ΔE*ab (CIE76) within which a pixel counts as backdrop.
        var tolerance: Float

        /// Border pixels within this ΔE*ab of the median are "backdrop-coloured".
        static let inlierDistance: Float = 12
        /// The border is plain when at least this fraction of it is backdrop-coloured...
        static let plainFraction = 0.6
        /// ...and those pixels spread no more than this (RMS ΔE*ab) around the median:
        /// sensor noise and a soft lighting gradient, not a pattern.
        static let plainSpread: Float = 6
        /// The exclusion tolerance is twice the 90th percentile of the border's distances,
        /// clamped to this range: tight on a clean studio sweep, looser on a wall with uneven light.
        static let toleranceRange: ClosedRange<Float> = 10 ... 20

        /// The backdrop, or nil when the border is busy (a room, a pattern, two surfaces).
        /// The border is a ring 1/32 of the shorter side wide.
        static func estimate(_ lab: [SIMD3<Float>], width: Int, height: Int) -> Backdrop? {
            let ring = max(1, min(width, height) / 32)
            guard width > 2 * ring, height > 2 * ring else { return nil }
            var border: [SIMD3<Float>] = []
            border.reserveCapacity(2 * ring * (width + height))
            for y in 0 ..< height {
                if y < ring || y >= height - ring {
                    border.append(contentsOf: lab[y * width ..< (y + 1) * width])
                } else {
                    border.append(contentsOf: lab[y * width ..< y * width + ring])
                    border.append(contentsOf: lab[(y + 1) * width - ring ..< (y + 1) * width])
                }
            }
            // Per-channel medians from histograms in steps of 0.1 (L*, a* and b* of sRGB
            // colours all lie within ±128), which needs no sorting.
            let bins = 2560
            var histograms = [Int](repeating: 0, count: 3 * bins)
            @inline(__always) func bin(_ v: Float) -> Int { min(bins - 1, max(0, Int((v + 128) * 10))) }
            for p in border {
                histograms[bin(p.x)] += 1
                histograms[bins + bin(p.y)] += 1
                histograms[2 * bins + bin(p.z)] += 1
            }
            func median(_ channel: Int) -> Float {
                var seen = 0, index = 0
                while seen + histograms[channel * bins + index] <= border.count / 2 {
                    seen += histograms[channel * bins + index]
                    index += 1
                }
                return (Float(index) + 0.5) / 10 - 128
            }
            let color = SIMD3(median(0), median(1), median(2))
            var inliers: [Float] = []
            inliers.reserveCapacity(border.count)
            for p in border {
                let d = distance(p, color)
                if d <= inlierDistance { inliers.append(d) }
            }
            guard Double(inliers.count) >= plainFraction * Double(border.count) else { return nil }
            let spread = (inliers.reduce(0) { $0 + $1 * $1 } / Float(inliers.count)).squareRoot()
            guard spread <= plainSpread else { return nil }
            inliers.sort()
            let p90 = inliers[min(inliers.count - 1, inliers.count * 9 / 10)]
            let tolerance = min(toleranceRange.upperBound, max(toleranceRange.lowerBound, 2 * p90))
            return Backdrop(color: color, tolerance: tolerance)
        }
    }

    /// The subject's pixels (true) and whether a plain backdrop was removed to find them.
    ///
    /// With a plain backdrop: the pixels farther than its tolerance from it, then only the
    /// largest 4-connected region of those (and any other at least 30% of its size, so both
    /// shoes of a pair count) — specks, dust and labels on the backdrop drop out. When that
    /// leaves under 1% of the frame the "backdrop" was the garment itself (a close-up of the
    /// cloth), and the frame's centre is used instead, as it is for a busy backdrop: the
    /// central 60% of the width and of the height, where a photographer puts the garment.
    static func subjectMask(_ lab: [SIMD3<Float>], width: Int, height: Int) -> (mask: [Bool], backdropExcluded: Bool) {
        if let backdrop = Backdrop.estimate(lab, width: width, height: height) {
            let limit = backdrop.tolerance * backdrop.tolerance
            let foreground = lab.map { squaredDistance($0, backdrop.color) > limit }
            let subject = largestRegions(foreground, width: width, height: height)
            if subject.count(where: { $0 }) * 100 >= width * height { return (subject, true) }
        }
        var mask = [Bool](repeating: false, count: width * height)
        let x0 = width / 5, x1 = max(x0 + 1, width - width / 5)
        let y0 = height / 5, y1 = max(y0 + 1, height - height / 5)
        for y in y0 ..< y1 { for x in x0 ..< x1 { mask[y * width + x] = true } }
        return (mask, false)
    }

    /// The largest 4-connected region of `mask`, and every region at least 30% of its size.
    static func largestRegions(_ mask: [Bool], width: Int, height: Int) -> [Bool] {
        var label = [Int32](repeating: -1, count: mask.count)
        var sizes: [Int] = []
        var stack: [Int32] = []
        mask.withUnsafeBufferPointer { m in
            label.withUnsafeMutableBufferPointer { region in
                for start in 0 ..< m.count where m[start] && region[start] < 0 {
                    let id = Int32(sizes.count)
                    var size = 0
                    region[start] = id
                    stack.append(Int32(start))
                    while let top = stack.popLast() {
                        let i = Int(top), x = i % width
                        size += 1
                        if x > 0 && m[i - 1] && region[i - 1] < 0 { region[i - 1] = id; stack.append(Int32(i - 1)) }
                        if x < width - 1 && m[i + 1] && region[i + 1] < 0 { region[i + 1] = id; stack.append(Int32(i + 1)) }
                        if i >= width && m[i - width] && region[i - width] < 0 { region[i - width] = id; stack.append(Int32(i - width)) }
                        if i + width < m.count && m[i + width] && region[i + width] < 0 { region[i + width] = id; stack.append(Int32(i + width)) }
                    }
                    sizes.append(size)
                }
            }
        }
        guard let largest = sizes.max() else { return mask }
        let kept = sizes.map { $0 * 10 >= largest * 3 }
        return label.map { $0 >= 0 && kept[Int($0)] }
    }

    /// The subject pixels that are not on an edge, as CIELAB samples for clustering.
    ///
    /// A pixel on the boundary between two colours (the garment's outline, a stripe's edge) is
    /// a blend of both, and enough of them form a cluster of a colour the garment does not
    /// have. A pixel is on an edge when some 4-neighbour differs from it by more than twice
    /// the subject's median neighbour difference (its texture and noise), and at least
    /// 10 ΔE*ab. Fine prints are all edge at this size: when under a quarter of the subject
    /// would be left, every subject pixel is kept.
    static func flatSamples(_ lab: [SIMD3<Float>], mask: [Bool], width: Int, height: Int) -> [SIMD3<Float>] {
        var contrast = [Float](repeating: 0, count: lab.count)
        // A histogram of the subject's contrasts in steps of 0.25 ΔE finds their median without sorting.
        var histogram = [Int](repeating: 0, count: 401)
        var subjectCount = 0
        lab.withUnsafeBufferPointer { p in
            for y in 0 ..< height {
                for x in 0 ..< width {
                    let i = y &* width &+ x
                    guard mask[i] else { continue }
                    let c = p[i]
                    var worst: Float = 0
                    if x > 0 { worst = max(worst, squaredDistance(c, p[i &- 1])) }
                    if x < width - 1 { worst = max(worst, squaredDistance(c, p[i &+ 1])) }
                    if y > 0 { worst = max(worst, squaredDistance(c, p[i &- width])) }
                    if y < height - 1 { worst = max(worst, squaredDistance(c, p[i &+ width])) }
                    let d = worst.squareRoot()
                    contrast[i] = d
                    histogram[min(400, Int(d * 4))] += 1
                    subjectCount += 1
                }
            }
        }
        guard subjectCount > 0 else { return [] }
        var seen = 0, medianBin = 0
        while seen + histogram[medianBin] <= subjectCount / 2 && medianBin < 400 {
            seen += histogram[medianBin]
            medianBin += 1
        }
        let threshold = max(10, 2 * (Float(medianBin) + 0.5) / 4)
        var flat: [SIMD3<Float>] = []
        flat.reserveCapacity(subjectCount)
        for i in lab.indices where mask[i] && contrast[i] <= threshold { flat.append(lab[i]) }
        if flat.count * 4 >= subjectCount { return flat }
        return lab.indices.filter { mask[$0] }.map { lab[$0] }
    }

    @inline(__always)
    static func squaredDistance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let d = a - b
        return (d * d).sum()
    }

    @inline(__always)
    static func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { squaredDistance(a, b).squareRoot() }
}
