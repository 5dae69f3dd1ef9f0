import Foundation

/// A garment's colour as the records write it (`#rrggbb`), with what laundry sorting needs to
/// know of it: its CIELAB coordinates, its colour group and whether it is a red that may bleed.
///
/// The conversion is the exact sRGB one (IEC 61966-2-1 transfer curve, D65 white, 2° observer),
/// in double precision: it runs once per garment, not per pixel (AtelierImaging has the
/// single-precision loop for photos).
public struct GarmentColour: Sendable, Equatable {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour of "#rrggbb" (or "rrggbb", either case), or nil when that is not one.
    public init?(hex text: String) {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.utf8.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xff), blue: UInt8(value & 0xff))
    }

    /// CIELAB L* (0 black … 100 white), a* (green − / red +) and b* (blue − / yellow +).
    public var lab: (l: Double, a: Double, b: Double) {
        func linear(_ byte: UInt8) -> Double {
            let c = Double(byte) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let r = linear(red), g = linear(green), b = linear(blue)
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : t * 841.0 / 108 + 4.0 / 29 }
        let fx = f(x), fy = f(y), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// C*ab, the distance from the grey axis.
    public var chroma: Double {
        let (_, a, b) = lab
        return (a * a + b * b).squareRoot()
    }

    /// The CIELAB hue angle h_ab in degrees, 0 ≤ h < 360 (red near 20–40, yellow near 90).
    public var hueDegrees: Double {
        let (_, a, b) = lab
        let h = atan2(b, a) * 180 / .pi
        return h < 0 ? h + 360 : h
    }

    /// The laundry colour group it is washed with.
    public var laundryGroup: LaundryColorGroup {
        let (l, a, b) = lab
        return LaundryColorGroup(lightness: l, chroma: (a * a + b * b).squareRoot())
    }

    /// A strong red, pink or magenta (hue within the reds, vivid enough to carry a lot of dye):
    /// the colours that most often stain light clothes in a wash.
    public var isRed: Bool {
        let h = hueDegrees
        return chroma >= 35 && (h >= 345 || h <= 45)
    }
}
