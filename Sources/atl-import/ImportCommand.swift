import AtelierBackup
import AtelierCLI
import ArgumentParser
import AtelierCatalog
import AtelierFormats
import AtelierImaging
import AtelierRecords
import Foundation

/// `atl-import`: put records into the catalog.
public struct ImportCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "atl-import",
        abstract: "Put garments, outfits, wears, laundry, images and models into the Atelier catalog.",
        discussion: """
            Reads NDJSON records (or CSV with a header row) from files or standard input and stores \
            them in the catalog, one transaction per input: if any record is bad, nothing from that \
            input is stored (exit 65) unless --skip-invalid is given. Records with an "id" update the \
            stored record (only the fields they name); records without one are created with a new \
            id; "op":"delete" removes. Prints the records as stored, with their ids (with standard \
            output on /dev/null it skips making them, which makes a large import faster).

            Words are read as another app may write them: care codes as "hand-wash", "bleach-ok" or \
            "Wash 40°C", states as "lent", "inLaundry" or "sold" (archived). Subcategories and \
            fabrics are open: one it does not know is kept as given, with one notice on stderr \
            ('atl-query stats --by subcategory' lists the words in use). An unknown care code or \
            state is refused, and the code it suggests never says the opposite (atelier(7), VOCABULARY).

            With --images the files are photos, or directories searched for JPEG and PNG: each is \
            stored once in the photo store beside the catalog (named by its sha256), with thumbnails, \
            its EXIF and perceptual hashes, and printed as an image record. Photos already in the \
            catalog are hashed but not decoded or written again; a damaged one stops the import (exit 65), \
            and nothing is kept.

            A laundry record whose status is new for its load moves the load's garments: planned \
            makes them toWash, washing washing, drying drying, done available again with lastWashedOn \
            that day and wearsSinceWash counted afresh, cancelled back to their states before the \
            load; paused leaves them. A load made or changed by hand that breaks a garment's care \
            label (a wash-no garment in a washing load, a 60 °C load with a 30 °C garment, a \
            hand-wash-only garment in a machine load) is refused (exit 65) unless --force.

            EXAMPLES
              atl-import --sample
              echo '{"type":"garment","name":"Navy Blazer","category":"outerwear","brand":"Suitsupply"}' | atl-import
              atl-query garments --where 'name~Blazer' | jq -c '{type: "wear", garment: .id}' | atl-import
              atl-query garments --where brand=Suitsupply | jq -c '{type, id, state: "toWash"}' | atl-import
              atl-query laundry-plan | atl-import
              atl-query laundry --where status=planned --limit 1 --fields id | jq -c '. + {status: "washing"}' | atl-import
              atl-import --dry-run --skip-invalid wardrobe.csv
              atl-import --images photos --garment "$(atl-query garments --limit 1 --fields id | jq -r .id)"
              atl-import --restore wardrobe.atelier
            """,
        version: AtelierVersion.string)

    @Argument(help: ArgumentHelp("NDJSON or CSV files to import ('-' for standard input, the default).", valueName: "file"),
              completion: .file(extensions: ["ndjson", "jsonl", "json", "csv"]))
    var files: [String] = []

    @OptionGroup var catalog: CatalogOptions

    @Option(name: .long, help: ArgumentHelp("Input format: ndjson or csv (default: csv for *.csv files, else ndjson).", valueName: "format"))
    var format: InputFormat?

    @Option(name: .long, help: ArgumentHelp("Record type of CSV rows that have no 'type' column.", valueName: "type"))
    var type: String = "garment"

    @Flag(name: .long, help: "Import the sample wardrobe: 44 garments, 10 outfits and three months of wear log.")
    var sample = false

    @Flag(name: .long, help: "The files are photos (JPEG or PNG) or directories of them: store each once and print an image record per photo.")
    var images = false

    @Option(name: .long, help: ArgumentHelp("With --images: attach the photos to this garment.", valueName: "id"))
    var garment: String?

    @Option(name: .long, help: ArgumentHelp("With --images: refuse photos of more pixels than this (a bound on memory).", valueName: "n"))
    var maxPixels: Int = Image.defaultMaxPixels

    @Option(name: .long, help: ArgumentHelp("Replace the whole catalog with a backup archive made by 'atl-export --format backup'.", valueName: "archive"),
            completion: .file(extensions: ["atelier"]))
    var restore: String?

    @Flag(name: .long, help: "Check and print what would be stored, but store nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Store the good records, report each bad one on stderr, and go on.")
    var skipInvalid = false

    @Flag(name: .long, help: "Store laundry loads that break a care label, with the broken rule among their warnings.")
    var force = false

    @OptionGroup var output: OutputOptions
    @OptionGroup var progress: ProgressOptions

    public init() {}

    /// What --format takes: the record formats atl-import reads.
    public enum InputFormat: String, ExpressibleByArgument, CaseIterable, Sendable { case ndjson, csv }

    public func validate() throws {
        if images && (files.isEmpty || sample || restore != nil || format != nil) {
            throw ValidationError(files.isEmpty ? "--images needs photos or directories to import (for example: atl-import --images ~/Pictures/wardrobe)" : "--images takes photo files and directories only")
        }
        if !images && (garment != nil || maxPixels != Image.defaultMaxPixels) {
            throw ValidationError("--garment and --max-pixels apply to --images")
        }
        if maxPixels < 1 { throw ValidationError("--max-pixels must be positive") }
        if restore != nil && (sample || !files.isEmpty) {
            throw ValidationError("--restore replaces the whole catalog; give it alone, without files or --sample")
        }
    }

    public func run() throws {
        Diagnostics.prepareProcess()
        do {
            try importAll()
        } catch {
            throw Diagnostics.exitCode(for: error)
        }
    }

    private func importAll() throws {
        let path = catalog.path
        if let restore {
            let counts = try CatalogBackup.restore(archive: restore, into: path)
            if isatty(2) == 1 {
                Diagnostics.warn("restored \(counts.map { "\($0.value) \($0.key)s" }.sorted().joined(separator: ", ")) into \(path)")
            }
            return
        }
        let store = try Catalog(path: path, create: true)
        let out = RecordOutput(lineBuffered: output.lineBuffered)
        if images {
            let importer = PhotoImport(catalog: store, garment: garment, skipInvalid: skipInvalid, dryRun: dryRun,
                                       maxPixels: maxPixels, progress: progress.progress)
            let summary = try importer.run(paths: files, out: out)
            try out.flush()
            if summary.known > 0 || summary.skipped > 0 || isatty(2) == 1 {
                var parts = ["\(summary.new) new photo\(summary.new == 1 ? "" : "s") \(dryRun ? "checked" : "stored")"]
                if summary.known > 0 { parts.append("\(summary.known) already in the catalog") }
                if summary.skipped > 0 { parts.append("\(summary.skipped) skipped as unreadable") }
                Diagnostics.warn(parts.joined(separator: ", "))
            }
            return
        }
        var options = RecordImporter.Options()
        options.dryRun = dryRun
        options.skipInvalid = skipInvalid
        options.forceLabels = force
        // Nobody reads the records printed to /dev/null: storing them is all that is asked.
        let printsRecords = !out.discards
        options.wantsStoredRecords = printsRecords
        var outputClosed = false
        var total = RecordImporter.Summary()
        // Each unknown subcategory or fabric is told once, however many inputs use it.
        var announced: Set<String> = []

        func importOne(source: String, totalBytes: Int?, bytesRead: (() -> Int)?, _ body: (RecordImporter) throws -> RecordImporter.Summary) throws {
            let spool = OutputSpool()
            let importer = RecordImporter(catalog: store, options: options)
            let bar = ProgressReporter(mode: progress.progress, stage: "importing \(source)", unit: "records")
            importer.onOutput = { if printsRecords { try spool.append($0) } }
            importer.onSkipped = { Diagnostics.warn("\($0.description) (skipped)") }
            importer.onUnknownWord = { unknown in
                guard announced.insert(unknown.vocabulary.name + "\u{0}" + unknown.word).inserted else { return }
                Diagnostics.warn("\(unknown.source):\(unknown.line): notice: \(unknown.message)")
            }
            // Unowned: the importer keeps this closure, and a cycle would keep the catalog open
            // to the end of the process, which then leaves the WAL unchecked and growing.
            importer.onProgress = { [unowned importer] done in
                guard bar.isActive else { return }
                let read = importer.bytesDone ?? bytesRead
                let fraction = totalBytes.flatMap { t in read.map { t > 0 ? Double($0()) / Double(t) : 1 } }
                bar.update(done: done, fraction: fraction)
            }
            let summary: RecordImporter.Summary
            do {
                summary = try body(importer)
            } catch RecordsError.input(.data, let input, let line, let column, let message) {
                let note = options.dryRun ? "" : "; nothing from \(source) was imported"
                throw RecordsError.input(.data, source: input, line: line, column: column, message: message + note)
            }
            bar.finish(done: summary.records + summary.skipped)
            total.skipped += summary.skipped
            for (k, v) in summary.stored { total.stored[k, default: 0] += v }
            if !outputClosed {
                do { try spool.drain(to: out); try out.flush() } catch OutputError.closed { outputClosed = true }
            }
        }

        if sample {
            try importOne(source: "sample", totalBytes: nil, bytesRead: nil) { importer in
                try importer.importRecords(SampleWardrobe.records(), source: "sample")
            }
        }
        let inputs = files.isEmpty && !sample ? ["-"] : files
        for file in inputs {
            let isCSV = format == .csv || (format == nil && file.lowercased().hasSuffix(".csv"))
            let reader = try LineReader(path: file)
            reader.waitForInput()
            try importOne(source: reader.source, totalBytes: reader.totalBytes, bytesRead: { reader.bytesRead }) { importer in
                if isCSV {
                    let csv = CSVRecordReader(reader: reader, defaultType: type)
                    return try importer.importProduced(source: reader.source) { handle in try csv.forEachRecord(handle) }
                }
                return try importer.importLines(from: reader)
            }
        }
        if total.skipped > 0 {
            Diagnostics.warn("skipped \(total.skipped) invalid record\(total.skipped == 1 ? "" : "s")")
        }
        if dryRun && isatty(2) == 1 {
            Diagnostics.warn("dry run: nothing was stored")
        }
    }
}
