import AtelierCLI
import AtelierImaging
import AtelierRecords
import AtelierReconstruction
import Foundation

/// The second opinion `atl-query duplicates` asks of photo pairs the pHash finds close: their
/// local features (`NearDuplicateVerifier`), read from each record's `path`.
final class NearDuplicateSearch: DuplicateGrouping.Judge {
    /// pHash bits within which pairs are compared by features. A 5 % crop moves the hash by
    /// 10 bits on average and up to about 18, a turn of 3° by 20 or more (benchmarks/RESULTS.md);
    /// each 2 bits more triples the pairs of distinct photos that must be compared.
    static let defaultWithin = 18
    /// pHash bits within which a photo matching a window of another's (`phashWindows`) is
    /// compared by features: a crop lies within a few bits of the window it shows.
    static let windowWithin = 10

    private let verifier: NearDuplicateVerifier
    private let progress: ProgressMode
    /// What to tell the user after the search (photos that could not be read).
    private(set) var warnings: [String] = []
    /// Every photo read so far, for cross pairs asked later.
    private var features: [Int: CompactFeatures] = [:]

    init(progress: ProgressMode) throws {
        verifier = try NearDuplicateVerifier()
        self.progress = progress
    }

    /// Verdicts for `candidates`, in order; nil for a pair with a photo that cannot be read.
    func judge(_ photos: [JSONObject], _ candidates: [DuplicateGrouping.Candidate]) -> [Bool?] {
        guard !candidates.isEmpty else { return [] }
        let paths = photos.map { $0["path"]?.string }
        let bar = LockedProgressReporter(ProgressReporter(mode: progress, stage: "comparing photos", unit: "steps"))
        let result = verifier.verify(pairs: candidates.map { ($0.first, $0.second) }, paths: paths) { done, _ in
            bar.update(done: done)
        }
        bar.finish(done: result.verdicts.count)
        features = result.features
        if !result.unreadable.isEmpty {
            let (index, reason) = result.unreadable.min { $0.key < $1.key }!
            let name = paths[index] ?? photos[index]["id"]?.string ?? "#\(index + 1)"
            let count = result.unreadable.count
            let others = count == 1 ? "" : ", and \(count - 1) other photo\(count == 2 ? "" : "s")"
            warnings.append("\(JSONWriter.string(.string(name))): \(reason)\(others): pairs with \(count == 1 ? "it" : "them") were judged by pHash alone (--threshold)")
        }
        return result.verdicts
    }

    /// A cross pair of photos both read before; nil (the hash decides) when either was not.
    func judge(_ first: Int, _ second: Int) -> Bool? {
        guard let a = features[first], let b = features[second] else { return nil }
        return verifier.verdict(a, b).isDuplicate
    }
}
