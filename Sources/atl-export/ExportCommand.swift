import AtelierBackup
import AtelierCLI
import ArgumentParser
import AtelierCatalog
import AtelierCharts
import AtelierFormats
import AtelierRecords
import Foundation

/// `atl-export`: turn records into the files other programs read.
public struct ExportCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "atl-export",
        abstract: "Write records as NDJSON, a JSON array or CSV, statistics as SVG or PNG charts, the wardrobe as a web site, models as USDZ, glTF, OBJ or PLY, or the whole catalog as a backup archive.",
        discussion: """
            Reads records from standard input (or files) and writes them in the chosen format to \
            standard output or, with -o, to a file that appears only once complete (written beside \
            it, flushed to disk, then renamed into place). The backup format reads the catalog \
            itself, not standard input; restore it with 'atl-import --restore'.

            CSV follows RFC 4180: the header holds every field of the first 1,000 records (or the \
            --columns given); money becomes price.amount and price.currency, lists are joined with \
            ';', compositions read 'cotton 80;elastane 20'. 'atl-import --format csv' reads it back.

            The mesh formats take the model records atl-reconstruct prints and write each model's \
            textured mesh as USDZ (a UsdPreviewSurface material; passes Pixar's usdchecker; opens in \
            AR Quick Look), GLB (glTF 2.0, the texture embedded), OBJ with its MTL and PNG, or binary \
            PLY with its PNG. -o names the file, or a directory (existing, or ending in /) where the \
            file is named Garment_<yyyyMMdd_HHmmss>.<format>; the default is Models/. An existing \
            file is replaced only with --overwrite. The model record is printed with the new file \
            in its files, so '| atl-import' records it; other records pass through.

            The chart formats draw the stats records of 'atl-query stats' as one chart: bars of \
            each group (--by category, brand, season, …), a donut of their shares (the seven \
            largest, the rest as one "N more" slice), a line over \
            time (--by month, weekday) or a ranking of garments, each bar in the garment's own \
            colour (--by garment). --value picks the field (garments, wears, value, costPerWear, \
            spent, …; money in the currency with the largest total), --chart the kind, --title, \
            --width and --height the rest. SVG keeps its text as text and gives every bar its \
            label and value (data-label, data-value); PNG is the same SVG drawn by librsvg.

            The html format writes the lookbook, a static web site, into the directory -o names: \
            an index of the garments as a grid of square photos (or colour swatches) with filters \
            by category, season, colour and state that work from file:// (the address keeps them: \
            index.html#category=top) and leave plain links without JavaScript; a page per garment \
            (photos, facts, cost per wear, the care symbols drawn with what each means, its outfits \
            and laundry state), a page per outfit, an insights page of charts, the laundry (loads \
            in the wash and today's plan), the groups of near-duplicate photos, and a page per 3D \
            model (and on its garment's page) where the model turns and zooms in the browser: \
            three.js from Debian's libjs-three (or the directory ATELIER_THREE_JS names) is copied \
            into js/ with its licence and the GLB is embedded, so it works from file:// with no \
            server; a still is shown while it loads (or alone, without three.js or WebGL), and a \
            rel="ar" link opens the USDZ in AR Quick Look. It reads the catalog itself, or with \
            '-' only the records on standard input. The site appears \
            whole or not at all, a second export rewrites only the files that changed and says \
            how many, and a directory that is not a lookbook is never replaced (exit 73). It \
            prints the site's file:// address.

            EXAMPLES
              atl-query garments | atl-export --format csv -o garments.csv
              atl-query outfits --expand | atl-export --format json -o outfits.json
              atl-query garments --where category=footwear | atl-export --format csv --columns name,brand,price.amount
              atl-export --format backup -o wardrobe.atelier
              atl-export --format html -o lookbook
              atl-query garments --where 'season has winter' | atl-export --format html -o winter -
              atl-query stats --by category | atl-export --format svg -o categories.svg
              atl-query stats --by brand | atl-export --format png --chart donut --value value --title 'Where the money went' -o brands.png
              atl-query stats --by month --since 1y | atl-export --format svg -o wears-by-month.svg
              atl-query stats --by garment --since 90d | atl-export --format png --value wears --title 'Most worn this season' -o most-worn.png
              atl-reconstruct capture --detail preview --checkpoint capture.ckpt -o model-export | tee model.json | atl-export --format usdz -o Models/ | jq -r .files.usdz
              atl-export --format glb -o shirt.glb < model.json > /dev/null
              atl-reconstruct capture --detail preview --checkpoint capture.ckpt --garment "$(atl-query garments --limit 1 --fields id | jq -r .id)" -o model-3d | atl-import | jq -r .type
              atl-export --format html -o lookbook
            """,
        version: AtelierVersion.string)

    /// What --format takes: the record formats, and the mesh formats as MeshExport lists them
    /// (one list each, so the help, the completions and the dispatch follow them).
    enum Format: ExpressibleByArgument, CaseIterable, Hashable, Sendable {
        case ndjson, json, csv, backup
        /// Charts of stats records.
        case svg, png
        /// The lookbook web site.
        case html
        case mesh(MeshExport.Format)

        static let recordFormats: [Format] = [.ndjson, .json, .csv, .backup]
        static let chartFormats: [Format] = [.svg, .png]
        static var allCases: [Format] { recordFormats + chartFormats + [.html] + MeshExport.Format.allCases.map(Format.mesh) }

        var rawValue: String {
            switch self {
            case .ndjson: return "ndjson"
            case .json: return "json"
            case .csv: return "csv"
            case .backup: return "backup"
            case .svg: return "svg"
            case .png: return "png"
            case .html: return "html"
            case .mesh(let format): return format.rawValue
            }
        }

        init?(argument: String) {
            guard let format = Self.allCases.first(where: { $0.rawValue == argument }) else { return nil }
            self = format
        }

        var isMesh: Bool {
            if case .mesh = self { return true }
            return false
        }

        var isChart: Bool { self == .svg || self == .png }

        static var allValueStrings: [String] { allCases.map(\.rawValue) }
        var defaultValueDescription: String { rawValue }

        /// "ndjson, json, csv, backup, or for model records usdz, glb, obj or ply", for the help.
        static var helpList: String {
            let meshes = MeshExport.Format.allCases.map(\.rawValue)
            return recordFormats.map(\.rawValue).joined(separator: ", ") + ", for stats records svg or png (a chart), html (the lookbook, a web site), or for model records "
                + meshes.dropLast().joined(separator: ", ") + " or " + meshes.last!
        }
    }

    @Argument(help: ArgumentHelp("NDJSON files to read ('-' for standard input, the default; for html, '-' reads standard input instead of the catalog).", valueName: "file"),
              completion: .file(extensions: ["ndjson", "jsonl"]))
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Output format: \(Format.helpList).", valueName: "format"))
    var format: Format = .ndjson

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (atomically) instead of standard output; for a mesh format, a file or a directory (default Models/); for html, the site's directory.", valueName: "path"),
            completion: .file())
    var output: String?

    @Option(name: .long, help: ArgumentHelp("For CSV: the columns, comma-separated (default: every field seen).", valueName: "list"))
    var columns: String?

    @Flag(name: .long, help: "For a mesh format: replace an existing file.")
    var overwrite = false

    @Option(name: .long, help: ArgumentHelp("For svg and png: bars, donut, line or ranking (default: line by month, ranking by garment, else bars).", valueName: "kind"),
            completion: .list(ChartKind.allCases.map(\.rawValue)))
    var chart: ChartKind?

    @Option(name: .long, help: ArgumentHelp("For svg and png: the stats field to chart: garments, wears, value, costPerWear, spent, bought, outfits… (default: garments per group, wears over time, cost per wear per garment).", valueName: "field"))
    var value: String?

    @Option(name: .long, help: ArgumentHelp("For svg and png: the chart's title (default: what it shows).", valueName: "text"))
    var title: String?

    @Option(name: .long, help: ArgumentHelp("For svg and png: the width in pixels (default 800).", valueName: "px"))
    var width: Int = 800

    @Option(name: .long, help: ArgumentHelp("For svg and png: the height in pixels (default 480).", valueName: "px"))
    var height: Int = 480

    @OptionGroup var catalog: CatalogOptions
    @OptionGroup var outputOptions: OutputOptions

    public init() {}

    public func validate() throws {
        if format == .backup && output == nil { throw ValidationError("--format backup needs -o FILE (for example -o wardrobe.atelier)") }
        if format == .backup && !files.isEmpty { throw ValidationError("--format backup reads the catalog, not files") }
        if format == .html && output == nil { throw ValidationError("--format html needs -o DIR, the directory of the site (for example -o lookbook)") }
        if format == .html && !files.isEmpty && files != ["-"] { throw ValidationError("--format html reads the catalog, or with '-' the records on standard input") }
        if columns != nil && format != .csv { throw ValidationError("--columns applies to --format csv only") }
        if let columns { _ = try parseFieldList(columns, option: "--columns") }
        if !format.isChart && (chart != nil || value != nil || title != nil || width != 800 || height != 480) {
            throw ValidationError("--chart, --value, --title, --width and --height apply to --format svg and png")
        }
        if !(200 ... 8000).contains(width) || !(150 ... 8000).contains(height) {
            throw ValidationError("--width must be from 200 to 8000 pixels and --height from 150 to 8000")
        }
        if format == .png && output == nil && isatty(1) == 1 {
            throw ValidationError("--format png writes binary data: give -o FILE.png or redirect standard output")
        }
        if overwrite && !format.isMesh {
            throw ValidationError("--overwrite applies to the mesh formats (\(MeshExport.Format.allCases.map(\.rawValue).joined(separator: ", "))); -o already replaces a \(format.rawValue) file atomically")
        }
    }

    public func run() throws {
        Diagnostics.prepareProcess()
        do {
            try export()
        } catch {
            throw Diagnostics.exitCode(for: error)
        }
    }

    private func export() throws {
        if format == .backup {
            let counts = try CatalogBackup.export(catalogPath: catalog.path, to: output!, toolVersion: AtelierVersion.string)
            if isatty(2) == 1 {
                Diagnostics.warn("wrote \(output!): \(counts.filter { $0.value > 0 }.map { "\($0.value) \($0.key)s" }.sorted().joined(separator: ", "))")
            }
            return
        }
        if format == .html {
            try exportLookbook()
            return
        }
        if files.isEmpty && isatty(0) == 1 {
            throw ToolFailure("atl-export reads records on standard input; try: atl-query garments | atl-export --format \(format.rawValue)", .usage)
        }
        if case .mesh(let meshFormat) = format {
            try exportMeshes(meshFormat)
            return
        }
        if format.isChart {
            try exportChart()
            return
        }
        let target = try OutputTarget(path: output)
        do {
            let sink = RecordOutput(fd: target.fd, destination: target.destination, lineBuffered: outputOptions.lineBuffered)
            switch format {
            case .ndjson: try forEachRecord { _, line in try sink.writeLine(line) }
            case .json: try writeJSONArray(sink)
            case .csv: try writeCSV(sink)
            case .backup, .mesh, .svg, .png, .html: break
            }
            try sink.flush()
            try target.commit()
        } catch {
            target.abandon()
            throw error
        }
    }

    /// Model records become mesh files; every record goes on to standard output, models with the
    /// new file added.
    private func exportMeshes(_ meshFormat: MeshExport.Format) throws {
        var exporter = MeshExport(format: meshFormat, output: output, overwrite: overwrite)
        let sink = RecordOutput(lineBuffered: outputOptions.lineBuffered)
        var models = 0
        try forEachRecord(numbered: true) { record, line, source, number in
            guard case .string("model")? = record["type"] else { return try sink.writeLine(line) }
            try sink.write(try exporter.export(record, source: source, line: number, index: models))
            models += 1
        }
        try sink.flush()
        if models == 0 { Diagnostics.warn("no model records in the input: nothing exported") }
    }

    func forEachRecord(_ body: (JSONObject, UnsafeRawBufferPointer) throws -> Void) throws {
        try forEachRecord(numbered: false) { record, line, _, _ in try body(record, line) }
    }

    private func forEachRecord(numbered: Bool, _ body: (JSONObject, UnsafeRawBufferPointer, String, Int) throws -> Void) throws {
        var failure: (any Error)?
        for file in files.isEmpty ? ["-"] : files {
            let reader = try LineReader(path: file)
            do {
                try reader.forEachLine { (line, number) throws(RecordsError) in
                    do {
                        try body(try JSONParser.parseObject(line), line, reader.source, number)
                    } catch let error as RecordsError {
                        // A syntax or field error is placed at this line; others keep their place.
                        throw error.at(reader.source, line: number)
                    } catch let error as ExitCodedError {
                        // An output's or a library's own error (a full disk, a closed pipe, a
                        // damaged mesh): carried out of the typed-throws reader with its exit
                        // code and rethrown below.
                        failure = error
                        throw RecordsError.input(.io, source: reader.source, line: number, message: error.description)
                    } catch {
                        throw RecordsError.input(.io, source: reader.source, line: number, message: "\(error)")
                    }
                }
            } catch {
                if let failure { throw failure }
                throw error.inputError
            }
        }
    }

    private func writeJSONArray(_ sink: RecordOutput) throws {
        var first = true
        try sink.writeRaw(Array("[".utf8))
        try forEachRecord { record, _ in
            var bytes: [UInt8] = Array((first ? "\n  " : ",\n  ").utf8)
            JSONWriter.appendPretty(.object(record), indent: 1, to: &bytes)
            first = false
            try sink.writeRaw(bytes)
        }
        try sink.writeRaw(Array((first ? "]\n" : "\n]\n").utf8))
    }

    private func writeCSV(_ sink: RecordOutput) throws {
        var head: [JSONObject] = []
        var writer: CSVRecordWriter? = columns.map { CSVRecordWriter(columns: $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
        var warned = Set<String>()
        func emit(_ record: JSONObject) throws {
            for missing in writer!.missingColumns(record) where columns == nil && warned.insert(missing).inserted {
                Diagnostics.warn("field \"\(missing)\" first appears after the first 1,000 records and is left out; name it with --columns")
            }
            try sink.writeRaw(Array(writer!.row(record).utf8))
        }
        func start() throws {
            if writer == nil { writer = CSVRecordWriter(inferringFrom: head) }
            try sink.writeRaw(Array(writer!.header.utf8))
            for record in head { try emit(record) }
            head = []
        }
        var started = false
        try forEachRecord { record, _ in
            if started { try emit(record); return }
            head.append(record)
            if head.count >= 1000 { try start(); started = true }
        }
        // No records and no --columns: an empty file, not a header of no columns.
        if !started && !(head.isEmpty && columns == nil) { try start() }
    }
}

/// Standard output, a device or FIFO written in place, or a regular file written atomically
/// (`AtomicFile.Stream`: a temporary beside `path` that `commit` renames into place).
struct OutputTarget {
    let fd: Int32
    let path: String?
    private let stream: AtomicFile.Stream?

    init(path: String?) throws {
        guard let path, path != "-" else {
            fd = 1
            self.path = nil
            stream = nil
            return
        }
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw ToolFailure("cannot write \(path): it is a directory", .cannotCreate)
            case S_IFREG:
                break
            default:
                // A device or a FIFO (/dev/stdout, a named pipe): write into it, never rename over it.
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw ToolFailure("cannot write \(path): \(String(cString: strerror(errno)))", .cannotCreate) }
                self.fd = fd
                self.path = path
                stream = nil
                return
            }
        }
        let stream = try AtomicFile.Stream(path: path)
        fd = stream.fd
        self.path = path
        self.stream = stream
    }

    /// What the output is called in messages.
    var destination: String { path ?? "standard output" }

    func commit() throws {
        guard path != nil else { return }
        guard let stream else {
            close(fd)
            return
        }
        try stream.commit()
    }

    func abandon() {
        guard let stream else {
            if path != nil { close(fd) }
            return
        }
        stream.abandon()
    }
}
