import AtelierCLI
import AtelierReconstruction

/// The detail levels as atl-reconstruct's help describes them, from the levels' own budgets, so
/// the help cannot drift from what a level does.
extension DetailLevel {
    /// "preview (<25k triangles, 1K texture)", "raw (unsimplified, 8K)", "sparse (cameras and
    /// points only)": the triangle budget rounded up to the next thousand, the texture in K.
    /// `spelledOut` names the units ("triangles", "texture"), as the first sized level does.
    func helpSummary(spelledOut: Bool) -> String {
        guard let budget = maxTriangles else { return "\(rawValue) (unsimplified, \(textureSize / 1024)K)" }
        guard budget > 0 else { return "\(rawValue) (cameras and points only)" }
        let thousands = (budget + 1000) / 1000
        return "\(rawValue) (<\(thousands)k\(spelledOut ? " triangles" : ""), \(textureSize / 1024)K\(spelledOut ? " texture" : ""))"
    }

    /// Every level's summary, as one phrase for the --detail option's help.
    static var helpList: String {
        let firstSized = allCases.first { ($0.maxTriangles ?? 1) > 0 }
        let parts = allCases.map { $0.helpSummary(spelledOut: $0 == firstSized) }
        return parts.dropLast().joined(separator: ", ") + " or " + parts.last!
    }
}
