import AtelierCLI
import AtelierReconstruction
import AtelierRecords
import Foundation

/// The photos `atl-reconstruct` works on: files and directories named as arguments, or
/// `capture` and `image` records on standard input, read to its end (atl-recv ends its output
/// with the `batch` record whose status is `complete`, so `atl-recv | atl-reconstruct` starts as
/// soon as the batch is in). Other records are passed through to stdout untouched, in order,
/// before the model record: a filter never eats what it does not understand.
struct ReconstructInput {
    var sources: [CaptureSource] = []
    /// The batch id when stdin carried a complete batch.
    var batch: String?
    /// Warnings for the user (missing masks, an incomplete batch).
    var notes: [String] = []

    /// Photos from the command line.
    static func fromArguments(_ arguments: [String], masks: String?) throws -> ReconstructInput {
        var input = ReconstructInput()
        input.sources = Self.sources(paths: try PhotoFiles.expand(arguments), masks: masks, notes: &input.notes)
        try input.refuseIrregularFiles()
        return input
    }

    /// Photos from records on stdin; non-photo records go straight to `out`.
    static func fromRecords(_ reader: LineReader, masks: String?, out: RecordOutput) throws -> ReconstructInput {
        var paths: [String] = [], batch: String?, sawCapture = false
        do throws(LineReaderError<ReadFailure>) {
            try reader.forEachLine { (line, number) throws(ReadFailure) in
                let record: JSONObject
                do throws(RecordsError) { record = try reader.record(line, number: number) } catch { throw .failed(error) }
                let type = record["type"]?.string
                if type == "capture" || type == "image" {
                    guard let path = record["path"]?.string, !path.isEmpty else {
                        throw .failed(RecordsError.input(.data, source: reader.source, line: number, message: "\(type!) record without a \"path\""))
                    }
                    paths.append(path)
                    if type == "capture" { sawCapture = true }
                    return
                }
                if type == "batch", record["status"]?.string == "complete" { batch = record["id"]?.string ?? "" }
                do throws(OutputError) {
                    try out.writeLine(line)
                } catch {
                    throw .output(error)
                }
            }
        } catch {
            switch error {
            case .input(let inner): throw inner
            case .body(.failed(let inner)): throw inner
            case .body(.output(let inner)): throw inner
            }
        }
        var input = ReconstructInput()
        input.batch = batch
        if sawCapture && batch == nil {
            input.notes.append("no batch record with status \"complete\" on standard input: the transfer may be unfinished; reconstructing the \(paths.count) photos received")
        }
        input.sources = Self.sources(paths: paths, masks: masks, notes: &input.notes)
        try input.refuseIrregularFiles()
        return input
    }

    /// Refuses a photo or mask that is a FIFO, a device or a directory before anything reads it:
    /// reading one would block forever or never end. (A missing or unreadable photo is left to
    /// the reconstruction, which leaves it out and says so.)
    func refuseIrregularFiles() throws {
        for path in sources.flatMap({ [$0.path, $0.maskPath].compactMap { $0 } }) {
            do throws(RecordsError) {
                try RegularFile.check(path)
            } catch {
                if case .notARegularFile = error { throw error }
            }
        }
    }

    enum ReadFailure: Error {
        case failed(RecordsError)
        case output(OutputError)
    }

    /// Names are file names, unless two photos share one; then the paths as given. COLMAP's text
    /// format cannot hold spaces or control characters in a name, so those become `_` (with a
    /// warning). Masks are looked up as COLMAP does (`photo.jpg.png`), then as `photo.png` and
    /// `photo.jpg`.
    static func sources(paths: [String], masks: String?, notes: inout [String]) -> [CaptureSource] {
        let names = paths.map { ($0 as NSString).lastPathComponent }
        let unique = Set(names.map(COLMAPTextModel.safeName)).count == names.count
        var renamed: [String] = []
        var missing: [String] = []
        let sources = paths.enumerated().map { index, path -> CaptureSource in
            let given = unique ? names[index] : path
            let name = COLMAPTextModel.safeName(given)
            if name != given { renamed.append(name) }
            var mask: String?
            if let masks {
                let stem = (names[index] as NSString).deletingPathExtension
                mask = [names[index] + ".png", stem + ".png", names[index]].map { masks + "/" + $0 }
                    .first { FileManager.default.fileExists(atPath: $0) }
                if mask == nil { missing.append(names[index]) }
            }
            return CaptureSource(name: name, path: path, maskPath: mask)
        }
        if !renamed.isEmpty {
            notes.append("\(renamed.count) photo name\(renamed.count == 1 ? "" : "s") with spaces or control characters renamed in the model, which cannot hold them (\(renamed.prefix(3).joined(separator: ", "))\(renamed.count > 3 ? ", …" : ""))")
        }
        if !missing.isEmpty {
            notes.append("no mask in \(masks!) for \(missing.count) photo\(missing.count == 1 ? "" : "s") (\(missing.prefix(3).joined(separator: ", "))\(missing.count > 3 ? ", …" : "")); used unmasked")
        }
        return sources
    }
}
