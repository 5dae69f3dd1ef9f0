import Foundation

/// Where the care networks' weights are. They ship in the repository
/// (`Sources/AtelierCareLabels/Models`, written by `make train-care`) and `make install` copies
/// them to `PREFIX/share/atelier/models`.
public enum CareModels {
    static let detectorFile = "care-detector.atlnn"
    static let classifierFile = "care-classifier.atlnn"
    /// The detail networks (`DetailReader`), asked in this order.
    static let detailFiles = ["care-temperature.atlnn", "care-tumble.atlnn"]
    static let files = [detectorFile, classifierFile] + detailFiles

    /// The places searched, in order: `$ATELIER_MODELS`, `../share/atelier/models` beside the
    /// running executable (an installed tool), and the source tree the tool was built from.
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var dirs: [URL] = []
        if let dir = environment["ATELIER_MODELS"], !dir.isEmpty { dirs.append(URL(fileURLWithPath: dir)) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            dirs.append(URL(fileURLWithPath: exe).deletingLastPathComponent()
                .appendingPathComponent("../share/atelier/models").standardizedFileURL)
        }
        dirs.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Models"))
        return dirs
    }

    /// The first candidate that holds all the networks.
    public static func directory() throws(CareLabelError) -> URL {
        let dirs = candidates()
        for dir in dirs where files.allSatisfy({ FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }) {
            return dir
        }
        throw CareLabelError.modelsMissing(searched: dirs)
    }
}
