import AtelierRecords
import GRDB
import XCTest
@testable import AtelierCatalog

/// Outfits' computed tone and value, `--available`, and their tags as a field of their own.
final class OutfitFieldsTests: XCTestCase {
    var dir = ""
    var path: String { dir + "/catalog.sqlite" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atelier-outfits-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func outfits(available: Bool = false) throws -> [JSONObject] {
        try Catalog(path: path, create: false).read { reader in
            var query = CatalogQuery(type: "outfit", today: ISODate.parseDay("2026-11-21")!)
            query.availableOnly = available
            var out: [JSONObject] = []
            try reader.run(query) { out.append($0) }
            return out
        }
    }

    func testToneValueAndAvailability() throws {
        let red = "g_01jv6k00000000000000000b01", navy = "g_01jv6k00000000000000000b02", camel = "g_01jv6k00000000000000000b03"
        try Catalog(path: path, create: true).write { writer in
            for record: JSONObject in [
                ["type": "garment", "id": .string(red), "name": "Red", "category": "top", "color": "#c8102e", "price": ["amount": 20, "currency": "EUR"]],
                ["type": "garment", "id": .string(navy), "name": "Navy", "category": "bottom", "color": "#1f2a44", "price": ["amount": 30.5, "currency": "EUR"]],
                ["type": "garment", "id": .string(camel), "name": "Camel", "category": "outerwear", "color": "#c19a6b", "state": "toWash", "price": ["amount": 100, "currency": "GBP"]],
                ["type": "outfit", "name": "Warm", "garments": [.string(red), .string(navy), .string(camel)], "tags": ["autumn", "work"]],
                ["type": "outfit", "name": "Even", "garments": [.string(red), .string(navy)]],
            ] { _ = try writer.apply(record) }
            return true
        }
        let all = try outfits()
        XCTAssertEqual(all.map { $0["tone"] }, ["warm", "neutral"])
        XCTAssertEqual(all[0]["value"], ["EUR": 50.5, "GBP": 100])
        XCTAssertEqual(all[0]["tags"], ["autumn", "work"])
        XCTAssertEqual(try outfits(available: true).map { $0["name"] }, ["Even"], "the camel coat is in the wash")
        let columns = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT coalesce(tags, '-') || ' ' || coalesce(extra, '-') FROM outfits ORDER BY rowid") }
        XCTAssertEqual(columns, ["[\"autumn\",\"work\"] -", "- -"], "tags in their column, tone and value never stored")
    }

    func testMigrationFourMovesTagsOutOfTheUnknownFields() throws {
        try DatabaseQueue(path: path).write { db in
            for version in 0 ..< 3 { try db.execute(sql: CatalogSchema.migrations[version]) }
            try db.execute(sql: "PRAGMA application_id = \(CatalogSchema.applicationID); PRAGMA user_version = 3")
            try db.execute(sql: """
                INSERT INTO outfits (id, name, extra, created_at, updated_at) VALUES
                    ('o_a', 'Tagged', '{"tags":["gym"],"mood":"calm"}', 'x', 'x'),
                    ('o_b', 'Only tags', '{"tags":["x"]}', 'x', 'x'),
                    ('o_c', 'Odd', '{"tags":"not a list"}', 'x', 'x');
                """)
        }
        _ = try Catalog(path: path, create: true)
        let rows = try DatabaseQueue(path: path).read { try Row.fetchAll($0, sql: "SELECT tags, extra FROM outfits ORDER BY id") }
        XCTAssertEqual(rows.map { $0["tags"] as String? }, ["[\"gym\"]", "[\"x\"]", nil])
        XCTAssertEqual(rows.map { $0["extra"] as String? }, ["{\"mood\":\"calm\"}", nil, "{\"tags\":\"not a list\"}"])
    }
}
