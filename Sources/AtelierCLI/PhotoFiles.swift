import AtelierRecords
import Foundation

/// The photos named on a command line: files as given, directories walked recursively for
/// `*.jpg`, `*.jpeg` and `*.png` (any case), in a stable order. Hidden files and directories
/// are skipped inside a walk; symbolic links to files are taken (a folder of links to chosen
/// photos is a common way to pick them), links to directories are not followed (no loops).
public enum PhotoFiles {
    public static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    public static func expand(_ arguments: [String]) throws -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw ToolFailure("\(argument): no such file or directory", .noInput)
            }
            guard isDirectory.boolValue else {
                out.append(argument)
                continue
            }
            var found: [String] = []
            let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            guard let walker = fm.enumerator(at: URL(fileURLWithPath: base), includingPropertiesForKeys: [.isRegularFileKey],
                                             options: [.skipsHiddenFiles]) else {
                throw ToolFailure("\(argument): cannot read the directory", .noInput)
            }
            for case let url as URL in walker where extensions.contains(url.pathExtension.lowercased()) {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
                    || (try? url.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
                let relative = String(url.path.dropFirst(URL(fileURLWithPath: base).path.count))
                found.append(base + relative)
            }
            out += found.sorted()
        }
        return out
    }

    /// A photo's bytes; its message leaves out the path, which callers put first.
    public static func read(_ path: String) throws -> [UInt8] {
        do throws(RecordsError) {
            return try RegularFile.read(path)
        } catch {
            throw ToolFailure(error.reason, error.sysexit)
        }
    }
}
