/// Which pile a garment goes into, or why it goes into none: the sorting rules, in order, the
/// first that matches winning (as in the app's sorting engine).
///
/// 1. Professional care: leather, suede, nubuck or shearling (1 % or more), `wash-no`, or a label that allows only
///    professional cleaning. Garments a cleaner may take go to the `professional` pile; the
///    others are not placed.
/// 2. Wool and cashmere: 10 % or more of wool, merino, cashmere, alpaca, mohair, angora, camel
///    hair or tweed.
/// 3. Denim: jeans, or 50 % or more denim.
/// 4. Activewear: sporty, and mostly synthetic.
/// 5. Colour group (whites, darks, pastels, vibrant) × normal or delicate (hand wash, a mild or
///    very mild process, silk, lace).
public enum LaundrySorter {
    /// Where a garment goes.
    public enum Placement: Sendable, Equatable {
        case bin(LaundryBin)
        case notPlaced(reason: String)
    }

    public static let woolFibres: Set<String> = ["wool", "merino", "cashmere", "alpaca", "mohair", "angora", "camel", "tweed"]
    public static let leatherFibres: Set<String> = ["leather", "suede", "nubuck", "shearling"]

    public static func placement(of g: LaundryGarment) -> Placement {
        let c = g.constraints
        let washSymbols = g.care.filter { CareSymbol.named($0)?.family == .washing && $0 != "wring-no" }
        let professionalAllowed = c.dryClean == true || c.wetClean == true
        let leather = g.percent(of: leatherFibres) >= 1
        if leather || c.wash == false || (washSymbols.isEmpty && professionalAllowed) {
            if professionalAllowed { return .bin(.professional) }
            if leather { return .notPlaced(reason: "do not wash: professional care (leather or suede specialist)") }
            if c.dryClean == false { return .notPlaced(reason: "do not wash: professional care (not dry-cleanable either; spot clean only)") }
            return .notPlaced(reason: "do not wash: professional care")
        }
        if g.care.isEmpty { return .notPlaced(reason: "no care information") }
        if washSymbols.isEmpty { return .notPlaced(reason: "no washing symbol on its care label") }
        if g.percent(of: woolFibres) >= 10 { return .bin(.woolAndCashmere) }
        if g.subcategory == "jeans" || g.percent(of: ["denim"]) >= 50 { return .bin(.denim) }
        if g.style == "sporty" && g.syntheticPercent > 50 { return .bin(.activewear) }
        return .bin(LaundryBin(g.colour?.laundryGroup ?? .darks, delicate: isDelicate(g, c)))
    }

    /// Hand wash, a mild or very mild process, silk (10 % or more) or lace.
    public static func isDelicate(_ g: LaundryGarment, _ c: CareConstraints) -> Bool {
        if let process = c.washProcess, process > .normal { return true }
        return g.percent(of: ["silk"]) >= 10 || g.percent(of: ["lace"]) > 0 || g.tags.contains { $0.lowercased() == "lace" }
    }
}
