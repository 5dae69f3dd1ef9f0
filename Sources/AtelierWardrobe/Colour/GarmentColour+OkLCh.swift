import Foundation

extension GarmentColour {
    /// OkLCh: lightness L (0 black … 1 white), chroma C (0 grey … about 0.37) and hue h in
    /// degrees, from Björn Ottosson's OkLab (2020). Unlike CIELAB, its hue stays put as a colour
    /// gets lighter or more vivid (a light blue does not drift towards purple), which is what
    /// judging whether two colours are analogous or complementary needs.
    public var oklch: (l: Double, c: Double, h: Double) {
        func linear(_ byte: UInt8) -> Double {
            let c = Double(byte) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let r = linear(red), g = linear(green), b = linear(blue)
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        let lightness = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
        let a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        let bb = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
        let hue = atan2(bb, a) * 180 / .pi
        return (lightness, (a * a + bb * bb).squareRoot(), hue < 0 ? hue + 360 : hue)
    }
}
