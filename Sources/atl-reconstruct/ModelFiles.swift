import AtelierCLI
import AtelierRecords
import AtelierFormats
import Foundation

/// Writes a model's directories (`sparse/`, and for a mesh `dense/` and `mesh/`) under DIR, all or
/// nothing: each goes first into a hidden staging directory beside it, every file flushed to
/// disk, and only when all are complete are they renamed into place. Existing ones are replaced
/// only when asked, and only once the new ones are complete.
enum ModelFiles {
    /// One subdirectory and its files.
    struct Folder {
        var name: String
        var files: [(name: String, bytes: [UInt8])]
    }

    static func existing(_ folders: [String], in directory: String) -> String? {
        folders.map { directory + "/" + $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Tidies up after a run that was killed while writing into `directory`: its staging
    /// directories (`.NAME.tmp-PID`) go, and a model folder it had moved aside (`NAME.old-PID`,
    /// between the two renames that replace it) goes back in place if nothing took its place, or
    /// goes. Only what processes that no longer run left behind is touched.
    static func recoverAbandoned(_ folders: [String], in directory: String) {
        let fm = FileManager.default
        for folder in folders {
            let target = directory + "/" + folder
            AtomicFile.removeStaleTemporaries(for: target)
            let prefix = folder + ".old-"
            for name in (try? fm.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(prefix) {
                guard let pid = pid_t(name.dropFirst(prefix.count)), pid > 0, !AtomicFile.isRunning(pid) else { continue }
                let old = directory + "/" + name
                if access(target, F_OK) != 0 { rename(old, target) } else { try? fm.removeItem(atPath: old) }
            }
        }
    }

    static func write(_ folders: [Folder], into directory: String, overwrite: Bool) throws {
        let fm = FileManager.default
        recoverAbandoned(folders.map(\.name), in: directory)
        if !overwrite, let clash = existing(folders.map(\.name), in: directory) {
            throw ToolFailure("\(clash) already exists; choose another --out or pass --overwrite", .cannotCreate)
        }
        let created = !fm.fileExists(atPath: directory)
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            if OutOfSpace.isOutOfSpace(error) { throw ToolFailure.outOfSpace(writing: directory) }
            throw ToolFailure("\(directory): cannot create the directory: \(describe(error))", .cannotCreate)
        }
        var staged: [(staging: String, target: String)] = []
        do {
            for folder in folders {
                let staging = AtomicFile.temporaryPath(for: directory + "/" + folder.name)
                try? fm.removeItem(atPath: staging)
                staged.append((staging, directory + "/" + folder.name))
                try fm.createDirectory(atPath: staging, withIntermediateDirectories: false)
                for file in folder.files { try AtomicFile.create(file.bytes, at: staging + "/" + file.name) }
            }
            for (staging, target) in staged {
                if fm.fileExists(atPath: target) {
                    let old = target + ".old-\(getpid())"
                    guard rename(target, old) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                    guard rename(staging, target) == 0 else {
                        let code = errno
                        rename(old, target)
                        throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
                    }
                    try? fm.removeItem(atPath: old)
                } else {
                    guard rename(staging, target) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                }
            }
        } catch {
            for (staging, _) in staged { try? fm.removeItem(atPath: staging) }
            if created { rmdir(directory) }  // only if empty: nothing of this run is left
            if OutOfSpace.isOutOfSpace(error) { throw ToolFailure.outOfSpace(writing: directory) }
            throw ToolFailure("\(directory): cannot write the model: \(describe(error))", .cannotCreate)
        }
    }

    private static func describe(_ error: Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let failure = error as? FormatError { return failure.reason }
        return (error as NSError).localizedDescription
    }
}
