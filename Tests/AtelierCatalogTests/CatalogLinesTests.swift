import AtelierRecords
import GRDB
import GRDBSQLite
import XCTest
@testable import AtelierCatalog

/// `atl-query` prints whole records through `CatalogReader.writeLines`, which writes most rows
/// straight from SQLite (`RowLineWriter`); what it prints must be what the records `run` builds
/// would print, byte for byte, whatever a column holds.
final class CatalogLinesTests: XCTestCase {
    var dir = ""
    var path: String { dir + "/catalog.sqlite" }
    let today = ISODate.parseDay("2026-11-21")!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atelier-lines-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try fill()
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Plain records as atl-import stores them, then rows SQL has put odd values in.
    func fill() throws {
        let catalog = try Catalog(path: path, create: true)
        var records = SampleWardrobe.records(today: today)
        let awkward = "quote \" backslash \\ slash / newline \n tab \t return \r bell \u{7} nul-free \u{1F} del \u{7F} é ß 中 😀 \u{2028}"
        records += [
            ["type": "garment", "id": "g_plain1", "name": .string(awkward), "category": "top", "brand": "Sézane",
             "seasons": ["winter", "autumn"], "composition": [["fabric": "cotton", "percent": 98], ["fabric": "elastane", "percent": 2]],
             "care": ["wash-30", "bleach-no"], "price": ["amount": 0.1, "currency": "GBP"], "purchasedOn": "2025-01-31",
             "wearCount": 12, "lastWornOn": "2026-11-01", "tags": [.string(awkward), "b"], "notes": "Levi's \"501\"\\"],
            ["type": "garment", "id": "g_plain2", "name": "Big", "category": "outerwear", "price": ["amount": 1e21, "currency": "USD"]],
            ["type": "garment", "id": "g_plain3", "name": "Whole", "category": "outerwear", "price": ["amount": 120, "currency": "EUR"]],
            ["type": "garment", "id": "g_plain4", "name": "Half", "category": "bottom", "price": ["amount": 19.99, "currency": "EUR"],
             "seasons": [], "tags": []],
            ["type": "garment", "id": "g_extra", "name": "Extra", "category": "top", "shade": "indigo", "custom": ["nested": [1, 2.5, "x", .null, true]]],
            ["type": "laundry", "id": "l_plain", "bin": "darks", "temperature": 30, "garments": ["g_plain1"], "symbols": ["wash-30"],
             "status": "planned", "plannedOn": "2026-11-22"],
            ["type": "model", "id": "m_plain", "garment": "g_plain1", "dir": "Models/x", "files": ["mesh": "a.ply"], "detail": "preview",
             "points": 12345, "metrics": ["psnr": 31.5]],
        ]
        for n in 0..<20 { records.append(["type": "garment", "id": .string("g_odd\(n)"), "name": .string("Odd \(n)"), "category": "top", "brand": "Uniqlo",
                                            "price": ["amount": 5, "currency": "EUR"], "seasons": ["summer"]]) }
        try catalog.write { writer in
            writer.today = today
            for record in records { _ = try writer.apply(record) }
            return true
        }
        // What SQL (another tool, an older Atelier, a restore) may have left in the columns.
        let odd = [
            "wear_count = 3.5", "wear_count = '7'", "seasons = '[ \"winter\" ]'", "seasons = '[\"w\\u0069nter\"]'",
            "composition = '[{\"fabric\":\"wool\",\"percent\":33.3}]'", "seasons = 'not json'", "seasons = 42", "tags = '[\"a\",\"a\"]'",
            "name = 'a' || char(0) || 'b'", "name = CAST(x'41ff42' AS TEXT)", "brand = x'0102'", "notes = 2.5", "notes = 17",
            "price_amount = NULL", "price_currency = NULL", "price_amount = 'abc'", "price_currency = x'4555'", "price_amount = 20",
            "price_amount = -0.0", "price_amount = 1e300 * 1e300", "last_worn_on = 20261101", "tags = 'null'", "seasons = '{\"a\":1,\"a\":2}'",
        ]
        try catalog.queue.write { db in
            for (n, assignment) in odd.enumerated() { try db.execute(sql: "UPDATE garments SET \(assignment) WHERE id = 'g_odd\(n % 20)'") }
            try db.execute(sql: "UPDATE garments SET price_currency = 'GBP' WHERE id = 'g_odd14'")
            try db.execute(sql: "UPDATE laundry SET temperature = 40.5, garments = '[\"g_plain1\", \"g_plain2\"]' WHERE id <> 'l_plain'")
            try db.execute(sql: "UPDATE wear_log SET date = 20261101 WHERE id = (SELECT min(id) FROM wear_log)")
        }
    }

    /// The bytes `writeLines` gives and those of `run`'s records, with the records.
    func both(_ query: CatalogQuery, chunkBytes: Int = 100) throws -> (lines: [UInt8], expected: [UInt8], records: [JSONObject]) {
        try Catalog(path: path, create: false).read { reader in
            var lines: [UInt8] = []
            var counted = 0
            _ = try reader.writeLines(query, chunkBytes: chunkBytes) { bytes, n in lines += bytes; counted += n }
            var records: [JSONObject] = []
            try reader.run(query) { records.append($0) }
            var expected: [UInt8] = []
            for record in records { JSONWriter.append(record, to: &expected); expected.append(0x0A) }
            XCTAssertEqual(counted, records.count, "lines counted")
            return (lines, expected, records)
        }
    }

    /// A record as JSON can carry it: JSON has no infinity, so the writer writes `null`.
    func printable(_ record: JSONObject) -> JSONObject {
        func value(_ v: JSONValue) -> JSONValue {
            switch v {
            case .double(let d) where !d.isFinite: return .null
            case .array(let items): return .array(items.map(value))
            case .object(let o): return .object(printable(o))
            default: return v
            }
        }
        return JSONObject(record.map { ($0.key, value($0.value)) })
    }

    func parsedLines(_ bytes: [UInt8]) throws -> [JSONObject] {
        try bytes.split(separator: 0x0A).map { line in
            guard case .object(let object) = try Array(line).withUnsafeBytes({ try JSONParser.parse($0) }) else { throw RecordsError.filter("not an object") }
            return object
        }
    }

    /// Every row of every table the direct writer serves, plain and odd: the same line as the
    /// record's, and the plain ones written directly rather than through the record.
    func testEveryRowIsWrittenAsItsRecordWouldBe() throws {
        let catalog = try Catalog(path: path, create: false)
        var direct: Set<String> = []
        var indirect: Set<String> = []
        try catalog.queue.read { db in
            for table in Tables.all {
                guard let writer = RowLineWriter(table) else {
                    XCTAssertFalse(table.derived.isEmpty, "\(table.table): only tables with derived fields go without")
                    continue
                }
                let statement = try db.makeStatement(sql: "SELECT \(table.selectList), \(table.table).rowid FROM \(table.table) ORDER BY rowid")
                let handle = statement.sqliteStatement
                while sqlite3_step(handle) == SQLITE_ROW {
                    let record = table.record { DatabaseValue(sqliteStatement: handle, index: Int32($0)) }
                    let name = "\(table.table):" + (record["id"]?.string ?? "#\(sqlite3_column_int64(handle, sqlite3_column_count(handle) - 1))")
                    var expected: [UInt8] = []
                    JSONWriter.append(record, to: &expected)
                    expected.append(0x0A)
                    var line: [UInt8] = []
                    writer.append(handle, to: &line)
                    XCTAssertEqual(String(decoding: line, as: UTF8.self), String(decoding: expected, as: UTF8.self), name)
                    XCTAssertEqual(line, expected, name)
                    XCTAssertEqual(try parsedLines(line), [printable(record)], name)
                    var scratch: [UInt8] = []
                    if writer.appendDirectly(handle, to: &scratch) { direct.insert(name) } else { indirect.insert(name) }
                }
            }
        }
        // Every plain row goes the direct way; only odd values, unknown fields and JSON in
        // another spelling (the laundry SQL rewrote, a model's fractional metrics) go round.
        for name in indirect {
            XCTAssertTrue(name.hasPrefix("garments:g_odd") || name == "garments:g_extra" || name.hasPrefix("laundry:") || name.hasPrefix("models:"), name)
        }
        XCTAssertTrue(indirect.contains("garments:g_extra"))
        XCTAssertTrue(indirect.contains("models:m_plain"), "\(direct.sorted()) \(indirect.sorted())")
        XCTAssertTrue(direct.isSuperset(of: ["garments:g_plain1", "garments:g_plain2", "garments:g_plain3", "garments:g_plain4", "laundry:l_plain"]))
        XCTAssertGreaterThanOrEqual(indirect.filter { $0.hasPrefix("garments:g_odd") }.count, 6, "\(indirect.sorted())")
        XCTAssertGreaterThanOrEqual(direct.filter { $0.hasPrefix("garments:g_odd") }.count, 8, "odd but vouched for: \(direct.sorted())")
        XCTAssertGreaterThan(direct.filter { $0.hasPrefix("wear_log:") }.count, 0)
    }

    /// The queries the fast path serves, and those it leaves to the records: the same bytes.
    func testWriteLinesPrintsWhatTheRecordsWouldForEveryKindOfQuery() throws {
        func query(_ type: String, _ conditions: [String] = [], sort: [String] = [], limit: Int? = nil) throws -> CatalogQuery {
            let query = CatalogQuery(type: type, filters: try conditions.map { try FieldFilter.parse($0) },
                                     sort: try sort.map { try SortKey.parse($0) }, limit: limit, today: today)
            return query
        }
        var expand = try query("outfit")
        expand.expand = true
        var computed = try query("garment")
        computed.computedFields = true
        var available = try query("outfit")
        available.availableOnly = true
        let queries: [(String, CatalogQuery, Int)] = [
            ("all garments", try query("garment"), 64),
            ("category and price", try query("garment", ["category=outerwear", "price.amount>100"]), 2),
            ("regular expression", try query("garment", ["brand~^(Levi|Lee|Sé)"]), 2),
            ("list and date", try query("garment", ["season has winter", "lastWornOn<2026-11-15"]), 1),
            ("sort and limit in SQL", try query("garment", ["category=top"], sort: ["-wearCount", "name"], limit: 7), 7),
            ("wear log", try query("wear", sort: ["date"]), 1),
            ("laundry", try query("laundry"), 1),
            ("models", try query("model"), 1),
            // The slow path: a condition in a list of objects, an in-memory sort, computed fields,
            // outfits (derived and computed fields), expanded outfits, available outfits, images.
            ("residual filter", try query("garment", ["composition.fabric=cotton"]), 1),
            ("in-memory sort", try query("garment", sort: ["tags", "name"], limit: 9), 9),
            ("computed condition", try query("garment", ["readyToWash=true"]), 0),
            ("computed fields", computed, 64),
            ("outfits", try query("outfit"), 10),
            ("expanded outfits", expand, 10),
            ("available outfits", available, 0),
            ("images", try query("image"), 0),
        ]
        for (name, query, atLeast) in queries {
            for chunk in [0, 100, 1 << 16] {
                let (lines, expected, records) = try both(query, chunkBytes: chunk)
                XCTAssertGreaterThanOrEqual(records.count, atLeast, name)
                XCTAssertEqual(String(decoding: lines, as: UTF8.self), String(decoding: expected, as: UTF8.self), "\(name), chunks of \(chunk)")
                XCTAssertEqual(try parsedLines(lines), records.map(printable), name)
            }
        }
    }

    /// SQLite's REGEXP (our function, on SQLite's bytes) says what the in-memory filter says,
    /// and keeps SQL's NULL and the conversions GRDB's function made.
    func testRegexpAgreesWithTheInMemoryFilter() throws {
        let catalog = try Catalog(path: path, create: false)
        let all = try catalog.read { reader in
            var out: [JSONObject] = []
            try reader.run(CatalogQuery(type: "garment", today: today)) { out.append($0) }
            return out
        }
        for condition in ["brand~^(Levi|Lee|Wrangler)", "brand~é", "name~^.$", "notes~\"", "brand!~^U", "name~(?i)odd 1[0-9]"] {
            let filter = try FieldFilter.parse(condition)
            let inSQL = try catalog.read { reader in
                var ids: [JSONValue] = []
                try reader.run(CatalogQuery(type: "garment", filters: [filter], today: today)) { ids.append($0["id"]!) }
                return ids
            }
            XCTAssertEqual(inSQL, all.filter { filter.matches($0) }.map { $0["id"]! }, condition)
        }
        try catalog.queue.read { db in
            func value(_ sql: String) throws -> DatabaseValue { try DatabaseValue.fetchOne(db, sql: "SELECT " + sql)! }
            XCTAssertEqual(try value("42 REGEXP '^4'"), 1.databaseValue)
            XCTAssertEqual(try value("1.5 REGEXP '^1\\.5$'"), 1.databaseValue)
            XCTAssertEqual(try value("x'41' REGEXP 'A'"), 0.databaseValue, "a BLOB never matches")
            XCTAssertEqual(try value("'abc' REGEXP ''"), 1.databaseValue, "the empty pattern matches")
            XCTAssertEqual(try value("'é' REGEXP '^.$'"), 1.databaseValue, "one scalar")
            XCTAssertEqual(try value("CAST(x'ff41' AS TEXT) REGEXP '^.A$'"), 1.databaseValue, "invalid UTF-8 is read repaired")
            XCTAssertEqual(try value("('a' || char(0) || 'b') REGEXP 'b'"), 0.databaseValue, "text ends at a NUL, as it did")
            XCTAssertEqual(try value("'abc' REGEXP '('"), 0.databaseValue, "a pattern that does not compile")
            XCTAssertTrue(try value("NULL REGEXP 'a'").isNull)
            XCTAssertTrue(try value("'a' REGEXP NULL").isNull)
        }
    }
}
