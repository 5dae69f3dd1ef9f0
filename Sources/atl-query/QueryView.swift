import AtelierCLI
/// The views of `atl-query`, written once: the help text, the completion list, the check of the
/// argument and the dispatch all come from this list, so they cannot disagree (before, the help,
/// man page and completions left out `duplicates`).
public enum QueryView: String, CaseIterable, Sendable {
    case garments, outfits, wear, laundry, images, models, stats, duplicates
    case laundryPlan = "laundry-plan"
    case suggest

    /// The stored record type a record view lists; nil for the views that compute their records.
    var recordType: String? {
        switch self {
        case .garments: return "garment"
        case .outfits: return "outfit"
        case .wear: return "wear"
        case .laundry: return "laundry"
        case .images: return "image"
        case .models: return "model"
        case .stats, .duplicates, .laundryPlan, .suggest: return nil
        }
    }

    /// Whether the view also works over a stream, named after '-': `atl-query - duplicates`
    /// (outfits for `--available` and the computed tone and value, which need the garments).
    var worksOnStream: Bool { self == .duplicates || self == .laundryPlan || self == .stats || self == .suggest || self == .outfits }

    /// Every view's name, in order.
    static var names: [String] { allCases.map(\.rawValue) }

    /// "garments, outfits, …, duplicates", for the help.
    static var list: String { names.joined(separator: ", ") }
}
