/// pHashes of sub-windows of a photo, so a crop of it can be found by its hash.
///
/// A copy cropped by 5–20 % of a side, re-framed or turned a few degrees lands 10–36 bits from
/// its original's pHash: as far as unrelated photos. But its pHash lies within a few bits of the
/// pHash of the *window* of the original it shows. So each photo also carries the pHashes of 48
/// windows (80 % and 90 % of each side, or the whole side, at the start, the centre and the end
/// of it), and `atl-query duplicates` looks for a photo's pHash among the others' windows.
///
/// The windows are cut from the grey photo brought to 64 pixels on its shorter side: the pHash
/// sees only the 8×8 lowest frequencies of a 32×32 picture, so nothing it reads is lost, and 48
/// hashes cost about what one costs at full size.
extension PerceptualHash {
    /// A window as fractions of the photo: its width and height, and where it sits along each
    /// axis (0 at the start, 0.5 centred, 1 at the end).
    public struct Window: Sendable, Equatable {
        public var width: Double, height: Double, alongX: Double, alongY: Double
    }

    /// The 48 windows, in the order of `windowPHashes` (the whole photo, the photo's own pHash,
    /// is not among them).
    public static let windows: [Window] = {
        var out: [Window] = []
        for width in [1.0, 0.9, 0.8] {
            for height in [1.0, 0.9, 0.8] where width < 1 || height < 1 {
                for alongX in width < 1 ? [0.0, 0.5, 1.0] : [0.5] {
                    for alongY in height < 1 ? [0.0, 0.5, 1.0] : [0.5] {
                        out.append(Window(width: width, height: height, alongX: alongX, alongY: alongY))
                    }
                }
            }
        }
        return out
    }()

    /// The shorter side the windows are cut at.
    static let windowBaseSide = 64

    /// The pHash of each of `windows` (any image; empty when it is too small to cut windows
    /// of, under 16 pixels a side).
    public static func windowPHashes(_ image: Image) -> [UInt64] {
        let grey = image.grey()
        guard min(grey.width, grey.height) >= 16 else { return [] }
        let scale = min(1, Double(windowBaseSide) / Double(min(grey.width, grey.height)))
        let base = scale < 1
            ? grey.resized(width: max(1, Int((Double(grey.width) * scale).rounded())),
                           height: max(1, Int((Double(grey.height) * scale).rounded())), filter: .lanczos3)
            : grey
        return windows.map { window in
            let w = Int((Double(base.width) * window.width).rounded())
            let h = Int((Double(base.height) * window.height).rounded())
            let x = Int((Double(base.width - w) * window.alongX).rounded())
            let y = Int((Double(base.height - h) * window.alongY).rounded())
            return pHash(base.cropped(x: x, y: y, width: w, height: h))
        }
    }

    /// The hashes as one string of 16 hex digits each, as records carry them (`phashWindows`).
    public static func hexList(_ hashes: [UInt64]) -> String {
        hashes.map(hex).joined()
    }

    /// The hashes of a `phashWindows` string; nil unless it is whole groups of 16 hex digits.
    public static func parseList(_ text: String) -> [UInt64]? {
        let bytes = Array(text.utf8)
        guard bytes.count % 16 == 0 else { return nil }
        var out: [UInt64] = []
        out.reserveCapacity(bytes.count / 16)
        for start in stride(from: 0, to: bytes.count, by: 16) {
            var value: UInt64 = 0
            for byte in bytes[start ..< start + 16] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt64(digit)
            }
            out.append(value)
        }
        return out
    }
}
