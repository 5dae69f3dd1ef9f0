import AtelierWardrobe

/// A care symbol drawn as a small SVG icon after ISO 3758's figures: the family's shape (a wash
/// tub, a triangle, a square, an iron, a circle) and its marks (the temperature, dots for heat,
/// bars for a milder process, a hand, lines for how to dry, a letter for the cleaner, a cross for
/// "do not"). An icon has a title with the symbol's meaning, and the page prints the meaning
/// beside it: the icon is never the only way to read the label.
enum CareIcon {
    static func svg(_ code: String) -> String {
        let meaning = CareSymbol.named(code)?.meaning ?? code
        let family = CareSymbol.named(code)?.family
        var parts: [String] = []
        let stroke = "fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"3\" stroke-linejoin=\"round\" stroke-linecap=\"round\""
        func text(_ t: String, y: Int = 38, size: Int = 16) {
            parts.append("<text x=\"32\" y=\"\(y)\" font-size=\"\(size)\" text-anchor=\"middle\" font-family=\"DejaVu Sans, sans-serif\" font-weight=\"bold\" fill=\"#1a1a1a\">\(HTML.escape(t))</text>")
        }
        func dots(_ n: Int, y: Int) {
            for i in 0 ..< n {
                let x = 32 + (i * 2 - (n - 1)) * 5
                parts.append("<circle cx=\"\(x)\" cy=\"\(y)\" r=\"2.6\" fill=\"#1a1a1a\"/>")
            }
        }
        func bars(_ n: Int) {
            for i in 0 ..< n { parts.append("<line x1=\"10\" y1=\"\(55 + i * 5)\" x2=\"54\" y2=\"\(55 + i * 5)\" \(stroke)/>") }
        }
        let heat = code.hasSuffix("-low") ? 1 : code.hasSuffix("-medium") || code.hasSuffix("-normal") ? 2 : code.hasSuffix("-high") ? 3 : 0
        switch family {
        case .washing?:
            parts.append("<path d=\"M6 18 L12 50 L52 50 L58 18 M6 18 Q15 12 22 18 Q29 24 36 18 Q43 12 50 18 Q55 22 58 18\" \(stroke)/>")
            if let t = code.split(separator: "-").dropFirst().first, Int(t) != nil { text(String(t)) }
            if code.contains("hand") { text("hand", size: 11) }
            bars(code.hasSuffix("very-mild") ? 2 : code.hasSuffix("-mild") || code.hasSuffix("permanent-press") ? 1 : code.hasSuffix("delicate") ? 2 : 0)
        case .bleaching?:
            parts.append("<path d=\"M32 8 L58 54 L6 54 Z\" \(stroke)/>")
            if code == "bleach-non-chlorine" { parts.append("<path d=\"M26 48 L36 28 M34 48 L44 28\" \(stroke)/>") }
            if code == "bleach-chlorine" { text("Cl", y: 46, size: 14) }
        case .drying?:
            parts.append("<rect x=\"8\" y=\"8\" width=\"48\" height=\"48\" \(stroke)/>")
            if code.hasPrefix("tumble") {
                parts.append("<circle cx=\"32\" cy=\"32\" r=\"18\" \(stroke)/>")
                dots(heat, y: 32)
                if code == "tumble-no-heat" { parts.append("<circle cx=\"32\" cy=\"32\" r=\"6\" fill=\"#1a1a1a\"/>") }
            }
            if code.contains("line") { parts.append("<path d=\"M14 18 Q32 32 50 18\" \(stroke)/>") }
            if code.contains("drip") { parts.append("<path d=\"M24 16 L24 46 M32 16 L32 46 M40 16 L40 46\" \(stroke)/>") }
            if code.contains("flat") { parts.append("<path d=\"M16 32 L48 32\" \(stroke)/>") }
            if code.contains("shade") { parts.append("<path d=\"M8 20 L20 8 M8 28 L28 8\" \(stroke)/>") }
        case .ironing?:
            parts.append("<path d=\"M8 46 L56 46 L56 28 Q56 18 44 18 L22 18 Q14 18 8 46 Z M26 18 L26 12 L46 12\" \(stroke)/>")
            dots(heat, y: 34)
            if code == "iron-no-steam" { parts.append("<path d=\"M14 54 L24 60 M30 54 L40 60\" \(stroke)/>") }
        case .professional?:
            parts.append("<circle cx=\"32\" cy=\"30\" r=\"22\" \(stroke)/>")
            let letter = code.split(separator: "-").dropFirst().first.map(String.init)?.uppercased() ?? ""
            if letter.count == 1 { text(letter, y: 37, size: 20) }
            bars(code.hasSuffix("very-mild") ? 2 : code.hasSuffix("-mild") ? 1 : 0)
        case nil:
            text("?")
        }
        if code.hasSuffix("-no") || code == "wring-no" || code == "pro-w-no" {
            parts.append("<path d=\"M6 6 L58 58 M58 6 L6 58\" fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"4\" stroke-linecap=\"round\"/>")
        }
        return "<svg viewBox=\"0 0 64 64\" role=\"img\" aria-label=\"\(HTML.escape(meaning))\"><title>\(HTML.escape(meaning))</title>\(parts.joined())</svg>"
    }
}
