import ArgumentParser
import AtelierCLI
import AtelierCareLabels
import AtelierImaging
import AtelierRecords
import AtelierWardrobe
import Foundation

/// `atl-classify`: look at photos and say what is in them.
public struct ClassifyCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "atl-classify",
        abstract: "Look at photos and say what is in them: care-label symbols, perceptual hashes, photo quality, garment colours.",
        discussion: """
            Reads photos named as arguments (files, or directories searched for JPEG and PNG), or \
            image and capture records on standard input (their "path" is read); other records pass \
            through untouched, in order. Prints one record per photo.

            --task care prints a care record per photo: the laundry care symbols on a care-label \
            photo (a whole label, or a crop of one symbol), in reading order, each with its code \
            (atelier(7) lists the 62), a confidence from 0 to 1 and its box [x, y, width, height] \
            in pixels, and the constraints they imply together (lowest wash temperature, gentlest \
            process, no bleach, ...). A photo without care symbols gives an empty list; symbols \
            below --min-confidence (default 0.5) are left out. With --garment, atl-import stores \
            the codes as that garment's care. The four small networks that read the symbols ship \
            with the tools (ATELIER_MODELS names another directory of them).

            --task hash adds a 64-bit pHash and dHash to each image record (as Python's imagehash \
            computes them) and the pHashes of 48 windows of the photo (phashWindows, how a crop of \
            it is found), for 'atl-query - duplicates'; piped into atl-import, the catalog keeps them.

            --task quality prints a quality record per photo, as a photo coach would: scores from 0 \
            to 1 for exposure, sharpness, noise, framing and colour cast, the measures behind them \
            (clipped highlights, mean level, sharpness, noise sigma, how much of the frame the \
            garment fills and whether it is cut off), a verdict (good, fair or poor) and advice a \
            person can act on. Capture photos for reconstruction are checked the same way.

            --task color prints a color record per photo: the garment's dominant colours (the plain \
            backdrop left out) as hex, a colour name, their share and the laundry colour group \
            (whites, darks, pastels, vibrant), the largest first as color, colorName and colorGroup. \
            Piped into atl-import with a garment (--garment, or the photo's own), it sets the \
            garment's colour.

            CARE SYMBOL CODES (ISO 3758 and ASTM D5489; atelier(7) says what each means)
            \(CareSymbol.Family.allCases.map { family in
                "  \(family.rawValue): " + CareSymbol.all.filter { $0.family == family }.map(\.code).joined(separator: ", ")
            }.joined(separator: "\n"))

            A photo that cannot be read stops the run with exit 65 and a message naming it, unless \
            --skip-invalid reports it and goes on.

            EXAMPLES
              atl-classify --task care label.jpg
              atl-classify --task care label.jpg --garment "$(atl-query garments --limit 1 --fields id | jq -r .id)" | atl-import
              atl-query images | atl-classify --task care --min-confidence 0.8 | jq -r '.symbols[].code'
              atl-query images | atl-classify --task hash | atl-import
              atl-query images | atl-classify --task hash | atl-query - duplicates
              atl-classify --task hash photo.jpg
              atl-classify --task quality photos | jq -r 'select(.verdict != "good") | "\\(.path): \\(.advice | join("; "))"'
              atl-classify --task color photo.jpg --garment "$(atl-query garments --limit 1 --fields id | jq -r .id)" | atl-import
            """,
        version: AtelierVersion.string)

    /// What --task takes: the one list help, completions, man page and dispatch are made from.
    public enum Task: String, ExpressibleByArgument, CaseIterable, Sendable { case care, hash, quality, color }

    @Argument(help: ArgumentHelp("Photos or directories of them (default: records on standard input).", valueName: "photo"),
              completion: .file(extensions: ["jpg", "jpeg", "png"]))
    var photos: [String] = []

    @Option(name: .long, help: ArgumentHelp("What to say about each photo.", valueName: "task"))
    var task: Task

    @Option(name: .long, help: ArgumentHelp("Name this garment in every record printed, so that 'atl-import' attaches the reading to it.", valueName: "id"))
    var garment: String?

    @Option(name: .long, help: ArgumentHelp("--task care: report symbols read with at least this confidence (0 to 1).", valueName: "p"))
    var minConfidence: Double = 0.5

    @Flag(name: .long, help: "Report photos that cannot be read on stderr and go on.")
    var skipInvalid = false

    @Option(name: .long, help: ArgumentHelp("Refuse photos of more pixels than this (a bound on memory).", valueName: "n"))
    var maxPixels: Int = Image.defaultMaxPixels

    @OptionGroup var output: OutputOptions
    @OptionGroup var progress: ProgressOptions

    public init() {}

    public func validate() throws {
        if !(0 ... 1).contains(minConfidence) { throw ValidationError("--min-confidence takes a number from 0 to 1") }
        if maxPixels < 1 { throw ValidationError("--max-pixels must be positive") }
        if let garment, !(garment.hasPrefix("g_") && garment.count > 2) { throw ValidationError("--garment takes a garment id (g_…)") }
    }

    public func run() throws {
        let out = RecordOutput(lineBuffered: output.lineBuffered)
        do {
            let classifier = PhotoClassifier(task: try photoTask(), garment: garment, skipInvalid: skipInvalid, maxPixels: maxPixels, progress: progress.progress)
            if photos.isEmpty {
                if isatty(0) == 1 {
                    throw ToolFailure("atl-classify reads photos named as arguments, or image records on standard input; try: atl-query images | atl-classify --task \(task.rawValue)", .usage)
                }
                try classifier.run(LineReader(path: "-"), out: out)
            } else {
                try classifier.run(paths: PhotoFiles.expand(photos), out: out)
            }
            try out.flush()
        } catch {
            throw Diagnostics.exitCode(for: error)
        }
    }
}

extension ClassifyCommand {
    func photoTask() throws -> any PhotoTask {
        switch task {
        case .care:
            do {
                return CareTask(reader: try CareLabelReader(), minConfidence: minConfidence)
            } catch CareLabelError.modelsMissing(let searched) {
                throw CareLabelError.modelsMissing(searched: searched)
            } catch {
                throw ToolFailure("cannot load the care-symbol networks: ", wrapping: error)
            }
        case .hash: return HashTask()
        case .quality: return QualityTask()
        case .color: return ColorTask()
        }
    }
}
