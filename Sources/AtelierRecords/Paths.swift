import Foundation

/// Paths as records and saved state name files: absolute and standardised (no `.` or `..`), so
/// they name the same file whatever the working directory of the program that reads them.
public enum Paths {
    /// `path` made absolute against the current directory, and standardised.
    public static func absolute(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}
