@testable import AtelierBackup
import AtelierRecords
import GRDB
import XCTest
@testable import AtelierCatalog

final class CatalogTests: XCTestCase {
    var dir = ""
    var path: String { dir + "/catalog.sqlite" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atelier-catalog-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    @discardableResult
    func store(_ records: [JSONObject], catalog: Catalog? = nil) throws -> [JSONObject] {
        let catalog = try catalog ?? Catalog(path: path, create: true)
        var out: [JSONObject] = []
        try catalog.write { writer in
            writer.today = ISODate.parseDay("2026-11-21")!
            for r in records { out += try writer.apply(r) }
            return true
        }
        return out
    }

    func list(_ type: String, _ conditions: [String] = [], sort: [String] = [], limit: Int? = nil) throws -> [JSONObject] {
        let catalog = try Catalog(path: path, create: false)
        let query = CatalogQuery(type: type, filters: try conditions.map { try FieldFilter.parse($0) }, sort: try sort.map { try SortKey.parse($0) }, limit: limit)
        return try catalog.read { reader in
            var out: [JSONObject] = []
            try reader.run(query) { out.append($0) }
            return out
        }
    }

    func testUpsertCreatesThenUpdatesOnlyNamedFields() throws {
        let created = try store([["type": "garment", "name": "Jeans", "subcategory": "jeans", "brand": "Levi's", "shade": "indigo"]])[0]
        let id = created["id"]!.string!
        XCTAssertTrue(id.hasPrefix("g_"))
        XCTAssertEqual(created["category"], "bottom", "category inferred from subcategory")
        XCTAssertEqual(created["state"], "available")
        XCTAssertEqual(created["shade"], "indigo", "unknown fields are kept")
        let updated = try store([["type": "garment", "id": .string(id), "state": "toWash", "brand": nil, "note2": 1]])[0]
        XCTAssertEqual(updated["name"], "Jeans")
        XCTAssertEqual(updated["state"], "toWash")
        XCTAssertNil(updated["brand"], "null clears a field")
        XCTAssertEqual(updated["shade"], "indigo")
        XCTAssertEqual(updated["note2"], 1)
        XCTAssertEqual(updated["createdAt"], created["createdAt"])
        XCTAssertThrowsError(try store([["type": "garment", "id": "g_nope", "state": "toWash"]])) { error in
            XCTAssertTrue((error as? RecordsError)?.reason.contains("no garment g_nope in the catalog to update") ?? false, "\(error)")
        }
        // A known subcategory filed under another category keeps the category given.
        let filed = try store([["type": "garment", "name": "x", "category": "top", "subcategory": "jeans"]])
        XCTAssertEqual(filed.first?["category"], "top")
        XCTAssertEqual(filed.first?["subcategory"], "jeans")
        try store([["type": "garment", "op": "delete", "id": .string(id)]])
        XCTAssertEqual(try list("garment").count, 1)
    }

    /// New records print what was inserted without reading the row back; that must be exactly
    /// what reading it back gives, for every shape of field.
    func testNewRecordsPrintExactlyWhatTheCatalogListsLater() throws {
        var records = SampleWardrobe.records(today: ISODate.parseDay("2026-11-21")!).filter { $0["type"] != "wear" && $0["type"] != "laundry" }
        for i in 0 ..< 50 {
            var r: JSONObject = ["type": "garment", "name": .string("Odd \(i)"), "category": "top"]
            if i % 2 == 0 { r["price"] = ["amount": i % 4 == 0 ? .int(Int64(i)) : .double(Double(i) + 0.25), "currency": "GBP"] }
            if i % 3 == 0 { r["tags"] = ["a", .string("b\(i)")] }
            if i % 5 == 0 { r["notes"] = .null; r["custom"] = ["nested": [1, 2.5, "x", .null, true]] }
            if i % 7 == 0 { r["wearCount"] = .int(Int64(i)); r["state"] = "toWash"; r["seasons"] = ["winter"] }
            records.append(r)
        }
        records.append(["type": "laundry", "bin": "darks", "temperature": 30, "extraField": "x"])
        records.append(["type": "model", "detail": "preview", "metrics": ["psnr": 31.5]])
        let printed = try store(records)
        let catalog = try Catalog(path: path, create: false)
        for output in printed {
            let type = output["type"]!.string!, id = output["id"]!.string!
            let listed = try catalog.read { reader in
                var found: JSONObject?
                try reader.run(CatalogQuery(type: type, filters: [FieldFilter.parse("id=\(id)")])) { found = $0 }
                return found
            }
            // What is worked out as records are read (an outfit's tone and value) is not stored.
            var stored = listed
            for field in Schemas.byType[type]!.computed { stored?[field] = nil }
            XCTAssertEqual(output, stored, JSONWriter.string(.object(output)))
        }
    }

    func testWearLogCountsOncePerDayAndOutfitsLogTheirGarments() throws {
        let g = try store([["type": "garment", "name": "Shirt", "category": "top"], ["type": "garment", "name": "Chinos", "category": "bottom"]]).map { $0["id"]! }
        let outfit = try store([["type": "outfit", "name": "Office", "garments": .array(g)]])[0]
        XCTAssertEqual(outfit["garments"], .array(g))
        try store([
            ["type": "wear", "outfit": outfit["id"]!, "date": "2026-11-20"],
            ["type": "wear", "outfit": outfit["id"]!, "date": "2026-11-20"],
            ["type": "wear", "garment": g[0], "date": "2026-11-20"],
            ["type": "wear", "garment": g[0]],
        ])
        let garments = try list("garment", sort: ["name"])
        XCTAssertEqual(garments.map { $0["wearCount"] }, [.int(1), .int(2)])
        XCTAssertEqual(garments[1]["lastWornOn"], "2026-11-21", "a wear without a date is today")
        XCTAssertEqual(try list("outfit")[0]["wearCount"], 1)
        XCTAssertEqual(try list("wear").count, 4)
        try store([["type": "wear", "op": "delete", "garment": g[0], "date": "2026-11-21"]])
        let shirt = try list("garment", ["name=Shirt"])[0]
        XCTAssertEqual(shirt["wearCount"], 1)
        XCTAssertEqual(shirt["lastWornOn"], "2026-11-20")
        XCTAssertThrowsError(try store([["type": "wear", "garment": "g_missing"]])) { error in
            XCTAssertEqual((error as? RecordsError)?.reason, "no garment g_missing in the catalog")
        }
        // Deleting a garment removes it from outfits and the log.
        try store([["type": "garment", "op": "delete", "id": g[0]]])
        XCTAssertEqual(try list("outfit")[0]["garments"], .array([g[1]]))
        XCTAssertEqual(try list("wear", ["garment=\(g[0].string!)"]).count, 0)
    }

    func testCareReadingsAndImagesAttachToTheirGarment() throws {
        let id = try store([["type": "garment", "name": "Sweater", "category": "top"]])[0]["id"]!
        let image: JSONValue = .string("sha256:" + String(repeating: "ab", count: 32))
        try store([["type": "image", "id": image, "path": "a.jpg", "width": 10, "height": 10, "garment": id]])
        XCTAssertEqual(try list("garment")[0]["images"], .array([image]))
        let viaImage = try store([["type": "care", "image": image, "symbols": [["code": "wash-30-mild", "confidence": 0.97], ["code": "dry-flat"]]]])[0]
        XCTAssertEqual(viaImage["care"], ["wash-30-mild", "dry-flat"])
        XCTAssertThrowsError(try store([["type": "care", "symbols": ["wash-30"]]]))
        XCTAssertThrowsError(try store([["type": "laundry", "bin": "darks", "garments": [id, "g_nothere"]]])) { error in
            XCTAssertEqual((error as? RecordsError)?.reason, "no garment g_nothere in the catalog")
        }
        let passed = try store([["type": "quality", "verdict": "good"]])
        XCTAssertEqual(passed[0]["verdict"], "good", "unknown types pass through")
    }

    func testQueriesCompileToSQLAndAgreeWithInMemoryFilters() throws {
        var records: [JSONObject] = []
        for i in 0..<200 {
            var r: JSONObject = ["type": "garment", "name": .string("Item \(i)")]
            r["category"] = .string(["top", "bottom", "outerwear"][i % 3])
            r["seasons"] = .array(i % 2 == 0 ? ["winter"] : ["summer"])
            r["wearCount"] = .int(Int64(i % 17))
            r["price"] = ["amount": .double(Double(i) + 0.5), "currency": "EUR"]
            let fabric: JSONValue = i % 5 == 0 ? "wool" : "cotton"
            r["composition"] = [["fabric": fabric, "percent": 100]]
            records.append(r)
        }
        try store(records)
        let stored = try list("garment")
        for condition in ["category=top", "category!=top", "season=winter", "seasons!=winter", "wearCount>10", "price.amount<=50.5",
                          "composition.fabric=wool", "name~1$", "brand!=x", "wearCount=abc"] {
            let filter = try FieldFilter.parse(condition).canonicalized(for: Schemas.garment)
            let expected = stored.filter { filter.matches($0) }.map { $0["id"]! }
            XCTAssertEqual(try list("garment", [condition]).map { $0["id"]! }, expected, condition)
        }
        let top = try list("garment", ["category=outerwear"], sort: ["-wearCount", "name"], limit: 3)
        // Items 50, 101 and 152 are the outerwear worn 16 times; ties fall back to the name.
        XCTAssertEqual(top.map { $0["wearCount"] }, [16, 16, 16])
        XCTAssertEqual(top.map { $0["name"] }, ["Item 101", "Item 152", "Item 50"])
        XCTAssertThrowsError(try list("garment", ["category=outwear"])) { error in
            XCTAssertTrue("\(error)".contains("did you mean \"outerwear\""))
        }
    }

    func testStatsGroupAndTotal() throws {
        try store(SampleWardrobe.records(today: ISODate.parseDay("2026-11-21")!))
        let catalog = try Catalog(path: path, create: false)
        let stats = try catalog.read { try WardrobeStats(by: .category, today: ISODate.parseDay("2026-11-21")!).compute($0) }
        let total = stats.last!
        XCTAssertEqual(total["total"], true)
        XCTAssertEqual(total["garments"], 44)
        let groups = stats.dropLast()
        XCTAssertEqual(groups.map { $0["garments"]!.integer! }.reduce(0, +), 44)
        XCTAssertEqual(groups.map { $0["wears"]!.integer! }.reduce(0, +), total["wears"]!.integer!)
        XCTAssertEqual(Set(groups.map { $0["group"]!.string! }), ["top", "bottom", "outerwear", "onePiece", "footwear", "accessory", "lingerie"])
        let seasons = try catalog.read { try WardrobeStats(by: .season).compute($0) }
        XCTAssertTrue(seasons.contains { $0["group"] == "winter" })
    }

    func testSampleIsRealisticAndIdempotent() throws {
        let today = ISODate.parseDay("2026-11-21")!
        try store(SampleWardrobe.records(today: today))
        let counts1 = try Catalog(path: path, create: false).counts()
        let garments1 = try list("garment").map { $0["wearCount"]! }
        try store(SampleWardrobe.records(today: today))
        XCTAssertEqual(try Catalog(path: path, create: false).counts(), counts1)
        XCTAssertEqual(try list("garment").map { $0["wearCount"]! }, garments1)
        XCTAssertGreaterThanOrEqual(counts1["garment"]!, 40)
        XCTAssertEqual(counts1["outfit"], 10)
        let days = Set(try list("wear").map { $0["date"]!.string! })
        XCTAssertGreaterThan(days.count, 60)
        XCTAssertEqual(days.min(), "2026-08-23")
    }

    func testSampleTellsTheSameStoryWhateverTheDate() {
        func story(_ today: String) -> [String] {
            let day = ISODate.parseDay(today)!
            return SampleWardrobe.records(today: day).map { record in
                var record = record
                for key in ["date", "lastWashedOn", "plannedOn"] {
                    if let date = record[key]?.string { record[key] = .int(Int64(day - ISODate.parseDay(date)!)) }
                }
                for key in ["startedAt", "finishedAt"] {
                    if let instant = record[key]?.string {
                        record[key] = .string("\(day - ISODate.parseDay(String(instant.prefix(10)))!)" + instant.dropFirst(10))
                    }
                }
                return JSONWriter.string(.object(record))
            }
        }
        XCTAssertEqual(story("2026-11-21"), story("2027-03-02"))
        XCTAssertNotEqual(story("2026-11-21"), [])
    }

    func testBackupRestoresIdenticallyAndRefusesDamage() throws {
        try store(SampleWardrobe.records(today: ISODate.parseDay("2026-11-21")!) + [["type": "laundry", "bin": "darks", "temperature": 30, "extraField": "x"]])
        let archive = dir + "/w.atelier"
        try CatalogBackup.export(catalogPath: path, to: archive, toolVersion: "test")
        let restoredPath = dir + "/restored/catalog.sqlite"
        try CatalogBackup.restore(archive: archive, into: restoredPath)
        for type in CatalogQuery.listableTypes {
            let a = try list(type).map { JSONWriter.string($0) }
            let b = try Catalog(path: restoredPath, create: false).read { reader in
                var out: [String] = []
                try reader.run(CatalogQuery(type: type)) { out.append(JSONWriter.string($0)) }
                return out
            }
            XCTAssertEqual(a, b, type)
        }
        // A truncated archive is refused and the catalog left alone.
        let data = try Data(contentsOf: URL(fileURLWithPath: archive))
        let truncated = dir + "/truncated.atelier"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
        let before = try Data(contentsOf: URL(fileURLWithPath: restoredPath))
        XCTAssertThrowsError(try CatalogBackup.restore(archive: truncated, into: restoredPath)) { error in
            guard case .badArchive? = error as? CatalogError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: restoredPath)), before)
        XCTAssertThrowsError(try CatalogBackup.restore(archive: path, into: restoredPath), "an SQLite file is not a backup")
    }

    /// Regression: restore swapped the whole `images/` and `models/` directories beside the
    /// catalog, deleting whatever else a person kept there.
    func testRestoreAddsStoreFilesAndRemovesNothing() throws {
        try store([["type": "garment", "name": "Coat", "category": "outerwear"]])
        // Named by its content's sha256, as a photo in the store is (restore checks it).
        let storeFile = "images/41/e5787e9f28562d07b891b1816b492309d646c0f2829743fa4963a9f9cc1d61.jpg"  // sha256("jpeg")
        try FileManager.default.createDirectory(atPath: dir + "/images/41", withIntermediateDirectories: true)
        try Data("jpeg".utf8).write(to: URL(fileURLWithPath: dir + "/" + storeFile))
        let archive = dir + "/w.atelier"
        try CatalogBackup.export(catalogPath: path, to: archive, toolVersion: "test")

        let home = dir + "/home"
        try FileManager.default.createDirectory(atPath: home + "/images/personal", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: home + "/images/personal/photo.txt"))
        try CatalogBackup.restore(archive: archive, into: home + "/wardrobe.sqlite")
        XCTAssertEqual(try String(contentsOfFile: home + "/images/personal/photo.txt", encoding: .utf8), "mine")
        XCTAssertEqual(try String(contentsOfFile: home + "/" + storeFile, encoding: .utf8), "jpeg")
        XCTAssertEqual(try Catalog(path: home + "/wardrobe.sqlite", create: false).counts()["garment"], 1)
    }

    func testStatsCountOnlyTheGarmentsTheConditionsPick() throws {
        let today = ISODate.parseDay("2026-11-21")!
        try store(SampleWardrobe.records(today: today))
        let catalog = try Catalog(path: path, create: false)
        let tops = try list("garment", ["category=top"])
        for conditions in [["category=top"], ["category=top", "name~."]] {  // in SQL, and partly in memory
            let filters = try conditions.map { try FieldFilter.parse($0) }
            let stats = try catalog.read { try WardrobeStats(by: .brand, today: today, filters: filters).compute($0) }
            XCTAssertEqual(stats.last?["garments"], .int(Int64(tops.count)), "\(conditions)")
            XCTAssertEqual(stats.last?["wears"], .int(tops.reduce(0) { $0 + ($1["wearCount"]?.integer ?? 0) }))
            XCTAssertEqual(stats.dropLast().reduce(0) { $0 + ($1["garments"]?.integer ?? 0) }, Int64(tops.count))
        }
    }

    func testConcurrentWritersBothSucceed() throws {
        _ = try Catalog(path: path, create: true)
        let path = self.path
        let failures = try XCTUnwrap(NSMutableArray() as NSMutableArray?)
        nonisolated(unsafe) let shared = failures
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
                do {
                    let catalog = try Catalog(path: path, create: true)
                    for batch in 0..<10 {
                        try catalog.write { writer in
                            for i in 0..<50 { _ = try writer.apply(["type": "garment", "name": .string("w\(worker)-\(batch)-\(i)"), "category": "top"]) }
                            return true
                        }
                    }
                } catch { shared.add("\(error)") }
        }
        XCTAssertEqual(failures.count, 0, "\(failures)")
        XCTAssertEqual(try Catalog(path: path, create: false).counts()["garment"], 1000)
    }

    func testForeignFilesAreRefusedClearly() throws {
        let notDB = dir + "/text.sqlite"
        try "hello".write(toFile: notDB, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Catalog(path: notDB, create: true)) { error in
            guard case .notACatalog? = error as? CatalogError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try Catalog(path: dir + "/missing.sqlite", create: false)) { error in
            guard case .notFound? = error as? CatalogError else { return XCTFail("\(error)") }
        }
    }

    func testStrangersDatabasesAndNewerCatalogsAreLeftAlone() throws {
        let foreign = dir + "/foreign.sqlite"
        try DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE notes(text TEXT); INSERT INTO notes VALUES ('keep me')") }
        XCTAssertThrowsError(try Catalog(path: foreign, create: true)) { error in
            XCTAssertTrue("\(error)".contains("without Atelier's tables"), "\(error)")
        }
        XCTAssertEqual(try DatabaseQueue(path: foreign).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master") }, ["notes"])

        _ = try Catalog(path: path, create: true)
        try DatabaseQueue(path: path).write { try $0.execute(sql: "PRAGMA user_version = 99") }
        for create in [true, false] {
            XCTAssertThrowsError(try Catalog(path: path, create: create)) { error in
                guard case .newerSchema? = error as? CatalogError else { return XCTFail("\(error)") }
            }
        }
    }
}
