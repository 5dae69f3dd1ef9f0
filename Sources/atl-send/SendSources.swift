import AtelierCLI
import AtelierRecords
import AtelierTransfer
import Foundation

/// What `atl-send` sends: files and directories named as arguments, or records with a `path`
/// on standard input (`atl-import --images … | atl-send`).
///
/// A file keeps its own name; a directory keeps its name and its structure (`scans/` sends
/// `scans/a/1.jpg`). Only regular files are sent; symlinked directories are not followed, so
/// no loop and nothing outside the tree. From records, a file is named after the record's
/// `source` (the photo's original name) or its `path`, with `-2`, `-3` … added where two
/// would collide, and an image record's sha256 id spares reading the file twice.
enum SendSources {
    static func items(arguments: [String]) throws -> [LocalBatch.Item] {
        var items: [LocalBatch.Item] = []
        for argument in arguments {
            var info = stat()
            guard stat(argument, &info) == 0 else { throw ToolFailure("\(argument): \(String(cString: strerror(errno)))", .noInput) }
            let trimmed = argument.count > 1 && argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            let base = (trimmed as NSString).lastPathComponent
            if info.st_mode & S_IFMT == S_IFDIR {
                for relative in try walk(trimmed) { items.append(LocalBatch.Item(localPath: trimmed + "/" + relative, name: base + "/" + relative)) }
            } else if info.st_mode & S_IFMT == S_IFREG {
                items.append(LocalBatch.Item(localPath: argument, name: base))
            } else {
                throw ToolFailure("\(argument): not a regular file or directory", .dataError)
            }
        }
        return items
    }

    /// The regular files under `directory`, as paths relative to it, sorted.
    static func walk(_ directory: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            throw ToolFailure("\(directory): cannot read the directory", .noInput)
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            var info = stat()
            guard lstat(directory + "/" + relative, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG: files.append(relative)
            case S_IFLNK:
                // A link to a file is sent as that file; a link to a directory is not followed.
                var target = stat()
                if stat(directory + "/" + relative, &target) == 0, target.st_mode & S_IFMT == S_IFREG { files.append(relative) }
            default: continue
            }
        }
        return files.sorted()
    }

    /// Items from records on standard input; records without a `path` are left out (and counted).
    static func items(records reader: LineReader) throws -> (items: [LocalBatch.Item], ignored: Int) {
        var items: [LocalBatch.Item] = []
        var taken = Set<String>()
        var ignored = 0
        try reader.forEachLine { (line, number) throws(RecordsError) in
            let record = try reader.record(line, number: number)
            guard case .string(let path)? = record["path"] else {
                ignored += 1
                return
            }
            let named = record["source"]?.string ?? path
            let name = unique((named as NSString).lastPathComponent, taken: &taken)
            let known = record["sha256"]?.string ?? (record["type"]?.string == "image" ? record["id"]?.string : nil)
            items.append(LocalBatch.Item(localPath: path, name: name, sha256Hex: known))
        }
        return (items, ignored)
    }

    /// `name`, or `name-2.ext`, `name-3.ext` … if taken.
    static func unique(_ name: String, taken: inout Set<String>) -> String {
        var candidate = name
        var n = 1
        while !taken.insert(candidate).inserted {
            n += 1
            let ext = (name as NSString).pathExtension
            let stem = (name as NSString).deletingPathExtension
            candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
        }
        return candidate
    }
}
