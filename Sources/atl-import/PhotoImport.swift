import AtelierCLI
import AtelierCatalog
import AtelierImaging
import AtelierRecords
import Crypto
import Dispatch
import Foundation

/// `atl-import --images`: photos into the content-addressed store and `image` records into the
/// catalog, on every core.
///
/// Each photo is read once, hashed (its sha256 is its id), decoded once at the smallest DCT
/// scale that serves the thumbnails, and written to the store only if it is not there yet.
/// Photos already in the catalog are not decoded again. Like every import it is all or nothing:
/// at the first bad photo (unless bad ones are skipped) the files this run stored are removed
/// and the catalog is not touched.
struct PhotoImport {
    var catalog: Catalog
    var garment: String?
    var skipInvalid: Bool
    var dryRun: Bool
    var maxPixels: Int
    var progress: ProgressMode

    /// What became of one photo.
    private enum Outcome {
        /// Decoded and stored now: the record to insert.
        case new(JSONObject)
        /// Already in the catalog under this id.
        case known(String)
        case failed(String)
        /// The store could not take the photo (a full disk, no permission): not the photo's
        /// fault, so the import stops whatever `--skip-invalid` says.
        case cannotStore(CatalogError)

        var failure: String? {
            if case .failed(let message) = self { return message }
            return nil
        }
    }

    struct Summary {
        var new = 0
        var known = 0
        var skipped = 0
    }

    /// Imports the photos under `paths`, printing their records (as stored) on `out` once the
    /// transaction has committed.
    func run(paths: [String], out: RecordOutput) throws -> Summary {
        let files = try PhotoFiles.expand(paths)
        try checkGarment()
        let known = try knownImages()
        let store = catalog.store
        let staging = dryRun ? nil : try ImageStoreStaging(store: store)
        let work = SharedWork(count: files.count, bar: ProgressReporter(mode: progress, stage: "importing photos", unit: "photos", total: files.count))
        let stopAtFirstFailure = !skipInvalid
        Self.processAll(files, known: known, staging: staging, maxPixels: maxPixels, stopAtFirstFailure: stopAtFirstFailure, work: work)
        work.bar.finish(done: work.done)

        let outcomes = work.outcomes.compactMap { $0 }
        for case .cannotStore(let error) in outcomes {
            staging?.discard()
            throw error
        }
        if stopAtFirstFailure, let message = outcomes.lazy.compactMap(\.failure).first {
            staging?.discard()
            throw ToolFailure("\(message); nothing was imported", .dataError)
        }
        // The files are durable and in place before the catalog names them.
        let published = try staging?.publish() ?? []
        let spool = OutputSpool()
        let summary: Summary
        do {
            summary = try insert(outcomes, spool: spool)
        } catch {
            published.forEach(store.remove)
            throw error
        }
        do throws(OutputError) {
            try spool.drain(to: out)
        } catch {
            // A reader that went away (`| head`) is not an error; a full disk is.
            if case .closed = error {} else { throw error }
        }
        return summary
    }

    /// Runs `process` over the files on every core, each worker taking the next file as it is free.
    private static func processAll(_ files: [String], known: Set<String>, staging: ImageStoreStaging?, maxPixels: Int,
                                   stopAtFirstFailure: Bool, work: SharedWork) {
        DispatchQueue.concurrentPerform(iterations: max(1, min(ProcessInfo.processInfo.activeProcessorCount, files.count))) { _ in
            while let index = work.next() {
                let outcome = process(files[index], known: known, staging: staging, maxPixels: maxPixels)
                work.finish(index, outcome, stop: stopAtFirstFailure)
            }
        }
    }

    private func checkGarment() throws {
        guard let garment else { return }
        let exists = try catalog.read { reader in try reader.contains(type: "garment", id: garment) }
        guard exists else { throw ToolFailure("no garment \(garment) in the catalog", .dataError) }
    }

    private func knownImages() throws -> Set<String> {
        let ids = try catalog.read { reader in try reader.ids(type: "image") }
        return Set(ids)
    }

    /// Inserts the new records and links the known ones in one transaction, spooling what to print.
    private func insert(_ outcomes: [Outcome], spool: OutputSpool) throws -> Summary {
        var summary = Summary()
        let garment = self.garment
        var inserted = Set<String>()
        try catalog.write { writer in
            for var outcome in outcomes {
                // The same photo given twice (a copy under another name) is new only once.
                if case .new(let record) = outcome, case .string(let id)? = record["id"], !inserted.insert(id).inserted { outcome = .known(id) }
                switch outcome {
                case .failed(let message):
                    Diagnostics.warn("\(message) (skipped)")
                    summary.skipped += 1
                case .cannotStore(let error):
                    throw error  // not reached: `run` throws before the transaction
                case .new(var record):
                    summary.new += 1
                    if let garment { record["garment"] = .string(garment) }
                    for stored in try writer.apply(record) { try spool.append(stored) }
                case .known(let id):
                    summary.known += 1
                    var update: JSONObject = ["type": "image", "id": .string(id)]
                    if let garment { update["garment"] = .string(garment) }
                    for stored in try writer.apply(update) { try spool.append(stored) }
                }
            }
            return !dryRun
        }
        return summary
    }

    /// Reads, hashes, decodes and stages one photo (`staging` is nil on a dry run). Never
    /// throws: a failure is an outcome.
    private static func process(_ path: String, known: Set<String>, staging: ImageStoreStaging?, maxPixels: Int) -> Outcome {
        let bytes: [UInt8]
        do {
            bytes = try PhotoFiles.read(path)
        } catch {
            return .failed("\(path): \(error)")
        }
        let id = "sha256:" + SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        if known.contains(id) { return .known(id) }
        do {
            let photo = try bytes.withUnsafeBytes { raw throws(ImagingError) in
                try PhotoPreparation.prepare(raw, maxPixels: maxPixels)
            }
            let photoPath = ImageStore.photoPath(id: id, fileExtension: photo.format == .png ? "png" : "jpg")
            let thumbnailPath = ImageStore.thumbnailPath(id: id, side: PhotoPreparation.thumbnailSide, square: false)
            let squarePath = ImageStore.thumbnailPath(id: id, side: PhotoPreparation.thumbnailSide, square: true)
            if let staging {
                for (relative, content) in [(photoPath, bytes), (thumbnailPath, photo.thumbnail), (squarePath, photo.squareThumbnail)] {
                    _ = try content.withUnsafeBytes { raw throws(CatalogError) in try staging.stage(raw, at: relative) }
                }
            }
            return .new(record(id: id, source: path, bytes: bytes.count, photo: photo, paths: (photoPath, thumbnailPath, squarePath)))
        } catch let error as CatalogError {
            return .cannotStore(error)
        } catch {
            return .failed("\(path): \(error)")
        }
    }

    private static func record(id: String, source: String, bytes: Int, photo: PreparedPhoto, paths: (String, String, String)) -> JSONObject {
        var record: JSONObject = ["type": "image", "id": .string(id)]
        record["path"] = .string(paths.0)
        record["width"] = .int(Int64(photo.width))
        record["height"] = .int(Int64(photo.height))
        record["bytes"] = .int(Int64(bytes))
        record["format"] = .string(photo.format.rawValue)
        if let exif = photo.exif {
            if let taken = exif.dateTimeOriginal.flatMap(Self.instant) { record["takenAt"] = .string(taken) }
            if let orientation = exif.orientation { record["orientation"] = .int(Int64(orientation)) }
            var camera = JSONObject()
            if let make = exif.make { camera["make"] = .string(make) }
            if let model = exif.model { camera["model"] = .string(model) }
            if let lens = exif.lensModel { camera["lens"] = .string(lens) }
            if let focal = exif.focalLengthMillimetres { camera["focalLengthMm"] = .double(focal) }
            if let focal35 = exif.focalLength35mmMillimetres { camera["focalLength35mmMm"] = .double(focal35) }
            if let exposure = exif.exposureTimeSeconds { camera["exposureSeconds"] = .double(exposure) }
            if let f = exif.fNumber { camera["fNumber"] = .double(f) }
            if let iso = exif.isoSpeed { camera["iso"] = .int(Int64(iso)) }
            if !camera.isEmpty { record["camera"] = .object(camera) }
        }
        let grey = photo.preview.grey()  // once, for all the hashes
        record["phash"] = .string(PerceptualHash.hex(PerceptualHash.pHash(grey)))
        record["dhash"] = .string(PerceptualHash.hex(PerceptualHash.dHash(grey)))
        record["phashWindows"] = .string(PerceptualHash.hexList(PerceptualHash.windowPHashes(grey)))
        record["thumbnail"] = .string(paths.1)
        record["thumbnailSquare"] = .string(paths.2)
        record["source"] = .string(source.hasPrefix("/") ? source : FileManager.default.currentDirectoryPath + "/" + source)
        return record
    }

    /// EXIF's date-time as an instant: with its own offset when the camera wrote one, else read
    /// in this machine's time zone (cameras keep local time), as photo organisers do.
    static func instant(_ exifDateTime: String) -> String? {
        if let instant = ISODate.normalizeInstant(exifDateTime) { return instant }
        let offset = TimeZone.current.secondsFromGMT()
        let sign = offset < 0 ? "-" : "+"
        return ISODate.normalizeInstant(exifDateTime + String(format: "%@%02d:%02d", sign, abs(offset) / 3600, abs(offset) / 60 % 60))
    }

    /// The queue of photos, their outcomes and the progress bar, shared by the workers.
    private final class SharedWork: @unchecked Sendable {
        private let lock = NSLock()
        private var nextIndex = 0
        private var stopped = false
        private(set) var outcomes: [Outcome?]
        private(set) var done = 0
        let bar: ProgressReporter

        init(count: Int, bar: ProgressReporter) {
            outcomes = Array(repeating: nil, count: count)
            self.bar = bar
        }

        func next() -> Int? {
            lock.withLock {
                guard !stopped, nextIndex < outcomes.count else { return nil }
                defer { nextIndex += 1 }
                return nextIndex
            }
        }

        func finish(_ index: Int, _ outcome: Outcome, stop: Bool) {
            lock.withLock {
                outcomes[index] = outcome
                done += 1
                switch outcome {
                case .failed: if stop { stopped = true }
                case .cannotStore: stopped = true
                case .new, .known: break
                }
                bar.update(done: done)
            }
        }
    }
}
