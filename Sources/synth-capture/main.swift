import ArgumentParser
import AtelierCLI
import AtelierImaging
import AtelierSynthetic
import Foundation

/// `synth-capture`: renders a synthetic capture with exact ground truth, for testing and
/// benchmarking reconstruction. Test support, not one of the shipped atl-* tools.
struct SynthCaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth-capture",
        abstract: "Render a synthetic capture of a garment, with its exact cameras and surface, for testing reconstruction.",
        discussion: """
            Renders a textured, draped garment on a turntable from cameras on one or two rings, \
            with studio lighting, mild vignetting and sensor noise, and writes img_0001.jpg … \
            (JPEG with EXIF, including FocalLengthIn35mmFilm) and the ground truth in DIR/truth: \
            cameras.txt, images.txt and points3D.txt (COLMAP text, PINHOLE), scene.json and mesh.ply \
            (metres, +Y up). The same options and seed always give the same bytes. Prints one line \
            per image on stderr and one JSON summary on stdout. See docs/synthetic-captures.md.

            PRESETS
              textured-24  printed fabric, 24 views on one ring at 25°
              fabric-30    plain low-texture weave, 30 views on two rings of 15 (15° and 40°)
              small-12     printed fabric, 12 views on one ring at 25°

            EXAMPLES
              synth-capture --preset textured-24 --out captures/textured-24
              synth-capture --preset small-12 --out /tmp/small --width 640 --height 480 --seed 7
              synth-capture --preset fabric-30 --out fabric --views 40 --quality 85
              synth-capture --preset small-12 --texture shirt-print.jpg --out photo-print
            """,
        version: AtelierVersion.string)

    @Option(name: .long, help: ArgumentHelp("Which capture to make (see PRESETS).", valueName: "name"))
    var preset: CapturePreset = .textured24

    @Option(name: [.short, .long], help: ArgumentHelp("Directory to write (created; must be empty unless --overwrite).", valueName: "dir"),
            completion: .directory)
    var out: String

    @Option(name: .long, help: ArgumentHelp("Image width in pixels.", valueName: "pixels"))
    var width: Int = 1024

    @Option(name: .long, help: ArgumentHelp("Image height in pixels.", valueName: "pixels"))
    var height: Int = 768

    @Option(name: .long, help: ArgumentHelp("Seed of everything random: folds, print, camera jitter, noise.", valueName: "n"))
    var seed: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("JPEG quality, 1–100.", valueName: "q"))
    var quality: Int = 92

    @Option(name: .long, help: ArgumentHelp("Number of views in all (default: the preset's), shared between its rings.", valueName: "n"))
    var views: Int?

    @Option(name: .customLong("focal35"), help: ArgumentHelp("35 mm equivalent focal length in whole millimetres.", valueName: "mm"))
    var focal35: Int = 35

    @Option(name: .long, help: ArgumentHelp("Ring radius: distance from the garment's centre to the cameras.", valueName: "metres"))
    var radius: Double = CapturePreset.ringRadiusMetres

    @Option(name: .long, help: ArgumentHelp("Samples per pixel along each axis (anti-aliasing), 1–8.", valueName: "n"))
    var supersampling: Int = 3

    @Option(name: .customLong("texture-size"), help: ArgumentHelp("Side of the generated garment texture in texels.", valueName: "texels"))
    var textureSize: Int = 2048

    @Option(name: .long, help: ArgumentHelp("Print this JPEG or PNG on the garment instead of a generated texture.", valueName: "image"),
            completion: .file(extensions: ["jpg", "jpeg", "png"]))
    var texture: String?

    @Flag(name: .customLong("write-texture"), help: "Also write the garment's texture to DIR/truth/texture.png.")
    var writeTexture = false

    @Flag(name: .long, help: "Replace a previous capture in DIR (only img_NNNN.jpg and the truth files are removed).")
    var overwrite = false

    @Flag(name: [.short, .long], help: "No progress lines on stderr.")
    var quiet = false

    func run() throws {
        do {
            try render()
        } catch {
            throw Diagnostics.exitCode(for: error)
        }
    }

    private func render() throws {
        var spec = CaptureSpec(preset: preset)
        spec.width = width
        spec.height = height
        spec.seed = seed
        spec.jpegQuality = quality
        spec.views = views
        spec.focalLength35mm = focal35
        spec.ringRadiusMetres = radius
        spec.supersampling = supersampling
        spec.textureSize = textureSize
        if let texture { spec.photoTexture = try Self.loadTexture(texture) }

        let started = Date()
        let capture = try SyntheticCapture(spec: spec)
        if !quiet {
            Diagnostics.warn(String(format: "scene ready in %.1f s: %d triangles, %d views of %d×%d", Date().timeIntervalSince(started),
                                    capture.scene.mesh.triangles.count, capture.cameras.count, width, height))
        }
        let summary = try CaptureWriter.write(capture, to: out, overwrite: overwrite, includeTexture: writeTexture) { progress in
            if !quiet {
                Diagnostics.warn(String(format: "%@ %d/%d (%.2f s)", progress.name, progress.index, progress.total, progress.seconds))
            }
        }
        if !quiet { Diagnostics.warn(String(format: "done in %.1f s", Date().timeIntervalSince(started))) }
        print(Self.json(summary))
    }

    static func loadTexture(_ path: String) throws -> Image {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolFailure("\(path): cannot read the texture image (missing or unreadable)", .noInput)
        }
        do {
            return try data.withUnsafeBytes { bytes throws(ImagingError) in try ImageDecoder.decode(bytes).image }
        } catch {
            throw ToolFailure("\(path): ", wrapping: error)
        }
    }

    /// The summary record: hand-written, keys in a fixed order.
    static func json(_ s: CaptureWriter.Summary) -> String {
        func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        return "{\"type\":\"synthetic-capture\",\"dir\":\(quoted(s.directory)),\"truth\":\(quoted(s.directory + "/truth")),"
            + "\"preset\":\(quoted(s.preset)),\"surface\":\(quoted(s.surface)),\"images\":\(s.images),\"width\":\(s.width),"
            + "\"height\":\(s.height),\"seed\":\(s.seed),\"focalLengthPixels\":\(s.focalLengthPixels)}"
    }
}

extension CapturePreset: ExpressibleByArgument {}

SynthCaptureCommand.runAsTool()
