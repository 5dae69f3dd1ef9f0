import AtelierRecords
import AtelierWardrobe
import Dispatch
import Foundation

// Colour science for `GarmentColors`: sRGB ↔ CIELAB, the CIEDE2000 colour difference, the
// table of everyday clothing colour names, and the laundry colour groups.

extension GarmentColors {
    /// A colour in CIELAB: D65 white, 2° observer, L* from 0 (black) to 100 (white).
    struct Lab: Sendable, Equatable {
        var l: Double
        var a: Double
        var b: Double

        /// C*ab, the distance from the grey axis.
        var chroma: Double { (a * a + b * b).squareRoot() }

        /// From 8-bit sRGB, with the sRGB transfer curve undone exactly (IEC 61966-2-1).
        init(red: UInt8, green: UInt8, blue: UInt8) {
            let lab = GarmentColors.lab(red: red, green: green, blue: blue)
            self.init(l: Double(lab.x), a: Double(lab.y), b: Double(lab.z))
        }

        init(l: Double, a: Double, b: Double) {
            self.l = l
            self.a = a
            self.b = b
        }

        init(_ v: SIMD3<Float>) { self.init(l: Double(v.x), a: Double(v.y), b: Double(v.z)) }

        /// Back to 8-bit sRGB, each channel rounded and clipped to 0…255 (colours outside the
        /// sRGB gamut land on its surface).
        var rgb: (red: UInt8, green: UInt8, blue: UInt8) {
            let fy = (l + 16) / 116, fx = fy + a / 500, fz = fy - b / 200
            func finv(_ t: Double) -> Double { t > 6.0 / 29 ? t * t * t : 3 * (36.0 / 841) * (t - 4.0 / 29) }
            let x = 0.95047 * finv(fx), y = finv(fy), z = 1.08883 * finv(fz)
            let r = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z
            let g = -0.9692660 * x + 1.8760108 * y + 0.0415560 * z
            let bl = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z
            func encode(_ v: Double) -> UInt8 {
                let c = max(0, min(1, v))
                let s = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
                return UInt8((s * 255).rounded())
            }
            return (encode(r), encode(g), encode(bl))
        }
    }

    /// sRGB byte → linear light, the 256 values of the sRGB decoding curve.
    static let linearOfByte: [Float] = (0 ..< 256).map { i in
        let c = Double(i) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    /// CIELAB (L*, a*, b*) of an sRGB pixel, in single precision for the per-pixel loops;
    /// `linear` is `linearOfByte`, passed in so a loop fetches it once.
    @inline(__always)
    static func lab(red: UInt8, green: UInt8, blue: UInt8, linear: UnsafePointer<Float>) -> SIMD3<Float> {
        let r = linear[Int(red)], g = linear[Int(green)], b = linear[Int(blue)]
        // sRGB primaries to XYZ, each row divided by the D65 white (0.95047, 1, 1.08883).
        let x = 0.43394994 * r + 0.37620977 * g + 0.18984029 * b
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = 0.017756583 * r + 0.10946796 * g + 0.87277546 * b
        @inline(__always) func f(_ t: Float) -> Float { t > 0.008856452 ? cbrtf(t) : t * 7.787037 + 0.13793103 }
        let fx = f(x), fy = f(y), fz = f(z)
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    static func lab(red: UInt8, green: UInt8, blue: UInt8) -> SIMD3<Float> {
        linearOfByte.withUnsafeBufferPointer { lab(red: red, green: green, blue: blue, linear: $0.baseAddress!) }
    }

    /// CIELAB of every pixel of an RGB image, row-major, rows shared among the cores.
    static func labPlane(_ image: Image) -> [SIMD3<Float>] {
        precondition(image.channels == 3)
        let count = image.pixelCount
        return [SIMD3<Float>](unsafeUninitializedCapacity: count) { out, initialized in
            image.pixels.withUnsafeBufferPointer { rgb in
                linearOfByte.withUnsafeBufferPointer { lut in
                    let target = SharedPointer(base: out.baseAddress!), source = SharedBuffer(buffer: rgb), linear = SharedBuffer(buffer: lut)
                    let bands = 4, perBand = (count + bands - 1) / bands
                    DispatchQueue.concurrentPerform(iterations: bands) { band in
                        let p = source.buffer.baseAddress!, table = linear.buffer.baseAddress!
                        for i in min(count, band * perBand) ..< min(count, (band + 1) * perBand) {
                            let o = 3 &* i
                            (target.base + i).initialize(to: lab(red: p[o], green: p[o &+ 1], blue: p[o &+ 2], linear: table))
                        }
                    }
                }
            }
            initialized = count
        }
    }

    /// CIEDE2000 colour difference (CIE 142-2001), with parametric factors kC = kH = 1.
    ///
    /// Follows Sharma, Wu and Dalal, "The CIEDE2000 Color-Difference Formula: Implementation
    /// Notes, Supplementary Test Data, and Mathematical Observations" (2005), whose test pairs
    /// the unit tests check. About 1 is a just-noticeable difference; 10 reads as a different
    /// shade of the same colour.
    static func deltaE2000(_ one: Lab, _ two: Lab, lightnessWeight kL: Double = 1) -> Double {
        let c1 = one.chroma, c2 = two.chroma
        let cMean7 = pow((c1 + c2) / 2, 7)
        let g = 0.5 * (1 - (cMean7 / (cMean7 + 6_103_515_625)).squareRoot())  // 25⁷
        let a1 = (1 + g) * one.a, a2 = (1 + g) * two.a
        let cp1 = (a1 * a1 + one.b * one.b).squareRoot(), cp2 = (a2 * a2 + two.b * two.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) * 180 / .pi
            return h < 0 ? h + 360 : h
        }
        let hp1 = hue(one.b, a1), hp2 = hue(two.b, a2)
        let dL = two.l - one.l, dC = cp2 - cp1
        var dh = 0.0
        if cp1 * cp2 != 0 {
            dh = hp2 - hp1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (cp1 * cp2).squareRoot() * sin(dh * .pi / 360)
        let lMean = (one.l + two.l) / 2, cpMean = (cp1 + cp2) / 2
        var hMean = hp1 + hp2
        if cp1 * cp2 != 0 {
            if abs(hp1 - hp2) <= 180 { hMean /= 2 } else { hMean = hMean < 360 ? (hMean + 360) / 2 : (hMean - 360) / 2 }
        }
        let radians = Double.pi / 180
        let t = 1 - 0.17 * cos((hMean - 30) * radians) + 0.24 * cos(2 * hMean * radians)
            + 0.32 * cos((3 * hMean + 6) * radians) - 0.20 * cos((4 * hMean - 63) * radians)
        let dTheta = 30 * exp(-pow((hMean - 275) / 25, 2))
        let cpMean7 = pow(cpMean, 7)
        let rC = 2 * (cpMean7 / (cpMean7 + 6_103_515_625)).squareRoot()
        let l50 = (lMean - 50) * (lMean - 50)
        let sL = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sC = 1 + 0.045 * cpMean, sH = 1 + 0.015 * cpMean * t
        let rT = -sin(2 * dTheta * radians) * rC
        let (lt, ct, ht) = (dL / (kL * sL), dC / sC, dH / sH)
        return (lt * lt + ct * ct + ht * ht + rT * ct * ht).squareRoot()
    }

    /// The everyday clothing colour nearest to `lab` by CIEDE2000.
    static func colorName(of lab: Lab) -> String {
        var best = namedColors[0].name, bestDistance = Double.infinity
        for entry in namedColors {
            let d = deltaE2000(lab, entry.lab)
            if d < bestDistance { (best, bestDistance) = (entry.name, d) }
        }
        return best
    }

    /// The laundry colour group a colour is washed with: the rule is the wardrobe's
    /// (`LaundryColorGroup(lightness:chroma:)`), applied to this single-precision reading.
    static func group(of lab: Lab) -> LaundryColorGroup {
        LaundryColorGroup(lightness: lab.l, chroma: lab.chroma)
    }

    /// The name table in CIELAB, computed once.
    static let namedColors: [(name: String, lab: Lab)] = colorNameTable.map { name, hex in
        (name, Lab(red: UInt8(hex >> 16), green: UInt8((hex >> 8) & 0xff), blue: UInt8(hex & 0xff)))
    }

    /// Everyday clothing colour names with the sRGB value a shop or a photo of such a garment
    /// usually shows (dyed cloth, not the web palette: "navy" is a garment navy, "chocolate"
    /// a brown, not the orange of CSS), in the spirit of retailers' colour filters.
    static let colorNameTable: [(String, UInt32)] = [
        // Whites, neutrals, greys and blacks.
        ("white", 0xf7f7f5), ("ivory", 0xf4efe0), ("cream", 0xf0e4c4), ("ecru", 0xe3d9c0),
        ("beige", 0xd9c6a5), ("stone", 0xb0a898), ("taupe", 0x8b7d6b),
        ("light grey", 0xd0d0d0), ("silver", 0xb4b8bc), ("grey", 0x8a8a8a), ("dark grey", 0x5c5c5e),
        ("charcoal", 0x3a3b3f), ("black", 0x121212), ("slate", 0x56606e),
        // Browns.
        ("tan", 0xd2b48c), ("camel", 0xc19a6b), ("caramel", 0xa8692e), ("cognac", 0x8e3f22),
        ("brown", 0x6b4423), ("chocolate", 0x3f2a1e), ("mocha", 0x7a5f50), ("khaki", 0xbfae86),
        ("rust", 0xb0431a), ("terracotta", 0xc8643c),
        // Greens.
        ("olive", 0x808000), ("army green", 0x4b5320), ("sage", 0x9caf88), ("mint", 0xa8e4c0),
        ("green", 0x2a8a3e), ("kelly green", 0x4cbb17), ("forest green", 0x1f4d2b), ("emerald", 0x009b77),
        ("jade", 0x00a86b), ("lime", 0xa8d13c), ("khaki green", 0x7d7a50),
        // Blue-greens.
        ("teal", 0x008080), ("petrol", 0x1f5564), ("turquoise", 0x40d0c0), ("aqua", 0x88e0e0),
        // Blues.
        ("navy", 0x1f2a44), ("indigo", 0x2e356e), ("royal blue", 0x2b4fbf), ("cobalt", 0x0047ab),
        ("blue", 0x2f6fd6), ("denim", 0x4a6890), ("steel blue", 0x4682b4), ("cornflower", 0x6495ed),
        ("light blue", 0xaec6e8), ("sky blue", 0x87ceeb), ("powder blue", 0xc4dcea), ("periwinkle", 0xa9b4e8),
        // Purples.
        ("purple", 0x6a2c91), ("violet", 0x8a4fcf), ("lavender", 0xb9a6dc), ("lilac", 0xc8a2c8),
        ("mauve", 0xa8809a), ("plum", 0x5c2a4a), ("aubergine", 0x3b1e32),
        // Reds and pinks.
        ("burgundy", 0x800020), ("maroon", 0x6a1a14), ("wine", 0x722f37), ("red", 0xc8102e),
        ("scarlet", 0xe8291c), ("cherry", 0x9b1020), ("coral", 0xf77f5e), ("salmon", 0xf09080),
        ("peach", 0xf8c8a8), ("pink", 0xeca0b4), ("baby pink", 0xf4c2c2), ("blush", 0xe8c4b8),
        ("dusty rose", 0xc08081), ("hot pink", 0xf0609e), ("fuchsia", 0xd81b7c), ("raspberry", 0xb3446c),
        ("magenta", 0xb0207c),
        // Oranges and yellows.
        ("orange", 0xf26522), ("burnt orange", 0xc85a14), ("apricot", 0xf8b878), ("mustard", 0xcfa10e),
        ("ochre", 0xc47a22), ("yellow", 0xf5d033), ("lemon", 0xf8ec5a), ("pale yellow", 0xf6eaa8),
        ("gold", 0xc9a43c),
    ]
}
