import Foundation

/// sRGB transfer functions (IEC 61966-2-1) as tables: textures are stored in sRGB, light is
/// added and filtered in linear light, and pictures are written in sRGB again.
enum ColourSpace {
    /// Linear value of each 8-bit sRGB code.
    nonisolated(unsafe) static let linearFromCode: UnsafeMutablePointer<Float> = {
        let table = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        for code in 0 ..< 256 { table[code] = Float(linear(fromSRGB: Double(code) / 255)) }
        return table
    }()

    /// Entries in `codeFromLinear`: fine enough that neighbouring entries differ by less than one
    /// code even on the steep foot of the curve.
    static let encodeSteps = 16384

    /// sRGB code (0–255, not rounded) of linear values 0, 1/(steps−1), …, 1.
    nonisolated(unsafe) static let codeFromLinear: UnsafeMutablePointer<Float> = {
        let table = UnsafeMutablePointer<Float>.allocate(capacity: encodeSteps)
        for i in 0 ..< encodeSteps { table[i] = Float(255 * srgb(fromLinear: Double(i) / Double(encodeSteps - 1))) }
        return table
    }()

    static func linear(fromSRGB c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    static func srgb(fromLinear c: Double) -> Double {
        c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }

    /// The sRGB code of a linear value in [0, 1] (clamped), before rounding.
    @inline(__always)
    static func encode(_ linear: Float) -> Float {
        let index = Int(min(max(linear, 0), 1) * Float(encodeSteps - 1) + 0.5)
        return codeFromLinear[index]
    }
}
