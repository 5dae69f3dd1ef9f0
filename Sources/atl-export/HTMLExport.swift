import AtelierCLI
import AtelierCatalog
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
                for type in ["garment", "outfit", "image", "laundry"] {
                    _ = try reader.run(CatalogQuery(type: type, computedFields: true, today: today)) { _ = data.add($0) }
                }
                for (by, window) in [(WardrobeStats.Dimension.category, nil), (.month, (today - 364) ... today), (.garment, nil)] as [(WardrobeStats.Dimension, ClosedRange<Int>?)] {
                    for record in try WardrobeStats(by: by, today: today, window: window).compute(reader) { _ = data.add(record) }
                }
            }
        }
        let site = Lookbook(data).files()
        let summary = try SiteWriter.publish(site, to: output!)
        let pages = site.contents.keys.filter { $0.hasSuffix(".html") }.count
        Diagnostics.warn("wrote the lookbook \(output!): \(pages) pages and \(site.copies.count) photos; \(summary.written) file\(summary.written == 1 ? "" : "s") written, \(summary.unchanged) unchanged, \(summary.removed) removed")
        print("file://" + URL(fileURLWithPath: output!).standardizedFileURL.path + "/index.html")
    }
}
