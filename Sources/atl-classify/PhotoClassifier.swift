import AtelierCLI
import AtelierImaging
import AtelierRecords
import Crypto
import Dispatch
import Foundation

/// One thing `atl-classify` can say about a photo.
protocol PhotoTask: Sendable {
    /// The shorter side the task needs; JPEGs are decoded at the smallest DCT scale that keeps it.
    var minimumSide: Int? { get }
    /// The record to print for a decoded photo. `input` is the record it came from (an image
    /// record, or one made from the path with its id), to extend or to refer to.
    func classify(_ photo: ImageDecoder.Decoded, input: JSONObject) throws -> JSONObject
}

/// Runs a `PhotoTask` over photos on every core, printing in input order.
///
/// Input is read in batches; the photos of a batch are decoded and classified in parallel and
/// their records printed in order, with records that are not photos passed through in place.
/// Memory stays bounded by the batch, whatever the number of photos.
struct PhotoClassifier {
    let task: any PhotoTask
    /// Set as `garment` on every record printed (`--garment`).
    let garment: String?
    let skipInvalid: Bool
    let maxPixels: Int
    let progress: ProgressMode
    static let batchSize = 32

    /// An item of input: a photo to look at, or a line to pass through.
    enum Item {
        case photo(path: String, record: JSONObject?)
        case passThrough([UInt8])
    }

    /// Photos named on the command line.
    func run(paths: [String], out: RecordOutput) throws {
        let bar = ProgressReporter(mode: progress, stage: "classifying", unit: "photos", total: paths.count)
        var done = 0
        for start in stride(from: 0, to: paths.count, by: Self.batchSize) {
            let batch = paths[start ..< min(start + Self.batchSize, paths.count)].map { Item.photo(path: $0, record: nil) }
            try process(batch, out: out)
            done += batch.count
            bar.update(done: done)
        }
        bar.finish(done: done)
    }

    /// Records on standard input: image and capture records with a path are photos.
    func run(_ reader: LineReader, out: RecordOutput) throws {
        var batch: [Item] = []
        var failure: Error?
        let bar = ProgressReporter(mode: progress, stage: "classifying", unit: "photos")
        var done = 0
        do throws(LineReaderError<RecordsError>) {
            try reader.forEachLine { (line, number) throws(RecordsError) in
                guard failure == nil else { return }
                let record = try reader.record(line, number: number)
                if case .string(let type)? = record["type"], type == "image" || type == "capture", case .string(let path)? = record["path"] {
                    batch.append(.photo(path: path, record: record))
                } else {
                    batch.append(.passThrough(Array(line.bindMemory(to: UInt8.self))))
                }
                if batch.count >= Self.batchSize {
                    do { try process(batch, out: out) } catch { failure = error }
                    done += batch.count
                    bar.update(done: done)
                    batch = []
                }
            }
        } catch {
            throw error.inputError
        }
        if let failure { throw failure }
        try process(batch, out: out)
        bar.finish(done: done + batch.count)
    }

    private func process(_ batch: [Item], out: RecordOutput) throws {
        guard !batch.isEmpty else { return }
        let results = ResultSlots(count: batch.count)
        let task = self.task, maxPixels = self.maxPixels
        DispatchQueue.concurrentPerform(iterations: batch.count) { index in
            guard case .photo(let path, let record) = batch[index] else { return }
            results.set(index, Self.classify(path: path, record: record, task: task, maxPixels: maxPixels))
        }
        for (index, item) in batch.enumerated() {
            switch item {
            case .passThrough(let line):
                try line.withUnsafeBytes { try out.writeLine($0) }
            case .photo:
                switch results.get(index)! {
                case .success(var record):
                    if let garment { record["garment"] = .string(garment) }
                    try out.write(record)
                case .failure(let failure):
                    guard skipInvalid else { throw failure }
                    Diagnostics.warn("\(failure.message) (skipped)")
                }
            }
        }
    }

    private static func classify(path: String, record: JSONObject?, task: any PhotoTask, maxPixels: Int) -> Result<JSONObject, ToolFailure> {
        do {
            let bytes = try PhotoFiles.read(path)
            var input = record ?? ["type": "image"]
            if record == nil {
                input["id"] = .string("sha256:" + SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
                input["path"] = .string(path)
            }
            let decoded = try bytes.withUnsafeBytes { raw throws(ImagingError) in
                try ImageDecoder.decode(raw, channels: 3, minimumSide: task.minimumSide, maxPixels: maxPixels)
            }
            return .success(try task.classify(decoded, input: input))
        } catch {
            return .failure(ToolFailure("\(path): ", wrapping: error))
        }
    }

    /// One result per photo of a batch, written by the workers, read after they finish.
    private final class ResultSlots: @unchecked Sendable {
        private var slots: [Result<JSONObject, ToolFailure>?]
        private let lock = NSLock()
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ result: Result<JSONObject, ToolFailure>) { lock.withLock { slots[index] = result } }
        func get(_ index: Int) -> Result<JSONObject, ToolFailure>? { lock.withLock { slots[index] } }
    }
}
