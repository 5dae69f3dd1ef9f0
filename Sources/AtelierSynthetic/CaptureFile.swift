import AtelierFormats
import Foundation

/// Writes the capture's files the way DESIGN.md asks, through AtelierFormats' `AtomicFile`: each
/// into a temporary file beside it, flushed to disk, then renamed over the target, so a reader
/// never sees half a file.
enum CaptureFile {
    static func write(_ bytes: [UInt8], to path: String) throws(SyntheticError) {
        do {
            try AtomicFile.write([(path, bytes)])
        } catch {
            throw .cannotWrite(path: path, reason: error.reason)
        }
    }

    static func write(_ text: String, to path: String) throws(SyntheticError) {
        try write(Array(text.utf8), to: path)
    }
}
