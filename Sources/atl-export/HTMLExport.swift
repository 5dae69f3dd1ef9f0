import AtelierCLI
import AtelierCatalog
import AtelierFormats
import AtelierLookbook
import AtelierRecords
import Foundation

extension ExportCommand {
    /// `--format html -o DIR`: the lookbook of the catalog (or, given '-', of the records on
    /// standard input), published whole and incrementally (`SiteWriter`).
    func exportLookbook() throws {
        var data = LookbookData()
        if files == ["-"] {
            var ignored = 0
            try forEachRecord { record, _ in if !data.add(record) { ignored += 1 } }
            if ignored > 0 { Diagnostics.warn("\(ignored) record\(ignored == 1 ? "" : "s") of other types left out of the lookbook") }
        } else {
            let store = try Catalog(path: catalog.path, create: false)
            try store.read { reader in
                let today = ISODate.today()
                for type in ["garment", "outfit", "image", "laundry", "model"] {
                    _ = try reader.run(CatalogQuery(type: type, computedFields: true, today: today)) { _ = data.add($0) }
                }
                for (by, window) in [(WardrobeStats.Dimension.category, nil), (.month, (today - 364) ... today), (.garment, nil)] as [(WardrobeStats.Dimension, ClosedRange<Int>?)] {
                    for record in try WardrobeStats(by: by, today: today, window: window).compute(reader) { _ = data.add(record) }
                }
            }
        }
        let workspace = try prepareModels(&data)
        defer { if let workspace { try? FileManager.default.removeItem(atPath: workspace) } }
        let threeJS = ThreeJS.find()
        if threeJS == nil && !data.modelAssets.isEmpty {
            Diagnostics.warn("three.js was not found (apt-get install libjs-three, or set ATELIER_THREE_JS to its directory): the model pages show a still instead of the 3D view")
        }
        let site = Lookbook(data, threeJS: threeJS).files()
        let summary = try SiteWriter.publish(site, to: output!)
        let pages = site.contents.keys.filter { $0.hasSuffix(".html") }.count
        let photos = site.copies.keys.filter { $0.hasPrefix("img/") }.count
        Diagnostics.warn("wrote the lookbook \(output!): \(pages) pages, \(photos) images and \(data.modelAssets.count) 3D model\(data.modelAssets.count == 1 ? "" : "s"); \(summary.written) file\(summary.written == 1 ? "" : "s") written, \(summary.unchanged) unchanged, \(summary.removed) removed")
        print("file://" + URL(fileURLWithPath: output!).standardizedFileURL.path + "/index.html")
    }

    /// Makes each model's files for the site (`ModelAssets`: the GLB for the viewer, the USDZ and
    /// a still) in a work directory beside the site, with progress, and returns that directory.
    /// A model whose mesh cannot be read is warned about and shown without its page.
    private func prepareModels(_ data: inout LookbookData) throws -> String? {
        let models = data.models.filter { $0["id"]?.string != nil && $0["files"]?.object?["mesh"] != nil }
        guard !models.isEmpty else { return nil }
        let parent = URL(fileURLWithPath: output!).standardizedFileURL.deletingLastPathComponent().path
        let prefix = ".atl-lookbook-models-"
        let workspace = parent + "/" + prefix + "\(getpid())"
        AtomicFile.removeLeftovers(in: parent, prefix: prefix, ownToo: true)  // what a killed export left
        do {
            try FileManager.default.createDirectory(atPath: workspace, withIntermediateDirectories: true)
        } catch {
            throw ToolFailure("\(parent): cannot make a work directory for the 3D models: \((error as NSError).localizedDescription)", .cannotCreate)
        }
        let colours = Dictionary(data.garments.compactMap { g in g["id"]?.string.map { ($0, g["color"]?.string) } }, uniquingKeysWith: { a, _ in a })
        let progress = ProgressReporter(mode: .auto, stage: "3D models", unit: "models", total: models.count)
        var reused = 0
        for (index, model) in models.enumerated() {
            let id = model["id"]!.string!
            do {
                let colour = model["garment"]?.string.flatMap { colours[$0] ?? nil }
                let source = ModelAssets.source(of: model, colour: colour, version: AtelierVersion.string)!
                if let made = ModelAssets.reuse(id, source: source, site: output!) {
                    data.modelAssets[id] = made
                    reused += 1
                } else {
                    data.modelAssets[id] = try ModelAssets.make(model, colour: colour, source: source, in: workspace)
                }
            } catch {
                Diagnostics.warn("\(error); the lookbook leaves this model out")
            }
            progress.update(done: index + 1)
        }
        progress.finish(done: models.count)
        if reused > 0 { Diagnostics.warn("3D models unchanged since the last export, not made again: \(reused) of \(models.count)") }
        return workspace
    }
}
