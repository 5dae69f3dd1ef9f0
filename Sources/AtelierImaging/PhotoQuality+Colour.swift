import Foundation

extension PhotoQuality {
    struct ColourBalance {
        var redGreen = 0.0
        var yellowBlue = 0.0
        var chroma = 0.0
        var cast = ColourCast.none
    }

    /// The colour cast: the mean colour of the near-neutral backdrop cells in a simple opponent
    /// space, a = (R − G)/I and b = ((R + G)/2 − B)/I with I the mean intensity.
    ///
    /// A garment's backdrop (a sheet, a wall, a door) is usually meant to be neutral, so its
    /// tint is the light's. Cells count when not clipped (every channel < 250: a clipped channel
    /// has lost its colour), not dark (brightest channel ≥ 40) and near-neutral: saturation
    /// (max − min)/max ≤ 0.35, which keeps a strongly tinted grey but not a red wall.
    ///
    /// With a subject, only backdrop cells not touching it count (edge cells mix in the
    /// garment's colour), and they must cover 2% of the frame: a burnt-out backdrop tells
    /// nothing, and the garment's own colour is not a cast. Without one, near-neutral cells
    /// anywhere count when they cover 1%, with saturation ≤ 0.2 (else a green circuit board or
    /// skin reads as a tinted grey). Otherwise no cast can be told and none is reported.
    ///
    /// The direction is the hue angle of (a, b): warm 0°–105° (red, orange, yellow), green
    /// 105°–195°, cool 195°–300° (cyan, blue), magenta 300°–360°. Under a chroma of 0.05 the
    /// cast is `none`.
    static func colourBalance(of subject: SubjectMask) -> ColourBalance {
        var sums = SIMD4<Int>.zero  // R, G, B and count
        let (width, height) = (subject.width, subject.height)
        let silhouette = subject.silhouette
        let neutrality = subject.found ? 35 : 20
        subject.cells.withUnsafeBufferPointer { cells in
            for y in 0 ..< height {
                for x in 0 ..< width {
                    let i = y * width + x
                    if subject.found {
                        let near = silhouette[i] | silhouette[max(0, x - 1) + y * width] | silhouette[min(width - 1, x + 1) + y * width]
                            | silhouette[x + max(0, y - 1) * width] | silhouette[x + min(height - 1, y + 1) * width]
                        if near != 0 { continue }
                    }
                    let r = Int(cells[3 * i]), g = Int(cells[3 * i + 1]), b = Int(cells[3 * i + 2])
                    let high = max(r, g, b), low = min(r, g, b)
                    guard high < 250, high >= 40, (high - low) * 100 <= neutrality * high else { continue }
                    sums &+= SIMD4(r, g, b, 1)
                }
            }
        }
        guard sums.w > 0, sums.w * (subject.found ? 50 : 100) >= width * height else { return ColourBalance() }
        let r = Double(sums.x), g = Double(sums.y), b = Double(sums.z)
        let intensity = (r + g + b) / 3
        var balance = ColourBalance()
        balance.redGreen = (r - g) / intensity
        balance.yellowBlue = ((r + g) / 2 - b) / intensity
        balance.chroma = (balance.redGreen * balance.redGreen + balance.yellowBlue * balance.yellowBlue).squareRoot()
        guard balance.chroma >= 0.05 else { return balance }
        var degrees = atan2(balance.yellowBlue, balance.redGreen) * 180 / Double.pi
        if degrees < 0 { degrees += 360 }
        switch degrees {
        case ..<105: balance.cast = .warm
        case ..<195: balance.cast = .green
        case ..<300: balance.cast = .cool
        default: balance.cast = .magenta
        }
        return balance
    }
}
