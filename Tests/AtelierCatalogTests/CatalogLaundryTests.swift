import AtelierRecords
import GRDB
import XCTest
@testable import AtelierCatalog

/// The catalog's side of laundry: wears since the last wash, the lifecycle a load's status
/// drives, the refusal of loads that break a label, and the computed `readyToWash`.
final class CatalogLaundryTests: XCTestCase {
    var dir = ""
    var path: String { dir + "/catalog.sqlite" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atelier-laundry-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    @discardableResult
    func store(_ records: [JSONObject], force: Bool = false) throws -> [JSONObject] {
        var out: [JSONObject] = []
        try Catalog(path: path, create: true).write { writer in
            writer.today = ISODate.parseDay("2026-11-21")!
            writer.forcesLabels = force
            for r in records { out += try writer.apply(r) }
            return true
        }
        return out
    }

    func garment(_ id: String) throws -> JSONObject {
        try Catalog(path: path, create: false).read { reader in
            var found: JSONObject?
            try reader.run(CatalogQuery(type: "garment", filters: [try FieldFilter.parse("id=\(id)")], computedFields: true,
                                        today: ISODate.parseDay("2026-11-21")!)) { found = $0 }
            return try XCTUnwrap(found)
        }
    }

    let tee = "g_01jv6k00000000000000000001", wool = "g_01jv6k00000000000000000002"

    func wardrobe() throws {
        try store([
            ["type": "garment", "id": .string(tee), "name": "Tee", "subcategory": "tShirt", "color": "#111111",
             "care": ["wash-30"], "lastWashedOn": "2026-11-10", "state": "onLoan"],
            ["type": "garment", "id": .string(wool), "name": "Wool Trousers", "subcategory": "trousers",
             "care": ["wash-no", "pro-p"], "composition": [["fabric": "wool", "percent": 100]]],
        ])
    }

    func testWearsAfterTheLastWashCountAndWearsBeforeDoNot() throws {
        try wardrobe()
        try store([["type": "wear", "garment": .string(tee), "date": "2026-11-05"],
                   ["type": "wear", "garment": .string(tee), "date": "2026-11-12"],
                   ["type": "wear", "garment": .string(tee), "date": "2026-11-13"]])
        XCTAssertEqual(try garment(tee)["wearsSinceWash"], 2)
        XCTAssertEqual(try garment(tee)["wearCount"], 3)
        try store([["type": "wear", "op": "delete", "garment": .string(tee), "date": "2026-11-05"]])
        XCTAssertEqual(try garment(tee)["wearsSinceWash"], 2, "a wear before the wash was not counted, so deleting it takes nothing")
        try store([["type": "wear", "op": "delete", "garment": .string(tee), "date": "2026-11-13"]])
        XCTAssertEqual(try garment(tee)["wearsSinceWash"], 1)
        // Not ready while on loan, whatever the wears; ready once back.
        XCTAssertEqual(try garment(tee)["readyToWash"], false)
        try store([["type": "garment", "id": .string(tee), "state": "available"]])
        XCTAssertEqual(try garment(tee)["readyToWash"], true)
    }

    func testALoadMovesItsGarmentsAndACancelledOnePutsThemBack() throws {
        try wardrobe()
        let planned = try store([["type": "laundry", "bin": "darks", "temperature": 30, "garments": [.string(tee)]]])[0]
        let id = try XCTUnwrap(planned["id"]?.string)
        XCTAssertEqual(planned["status"], "planned")
        XCTAssertEqual(planned["priorStates"], [tee: "onLoan"])
        XCTAssertEqual(try garment(tee)["state"], "toWash")
        try store([["type": "laundry", "id": .string(id), "status": "washing"]])
        XCTAssertEqual(try garment(tee)["state"], "washing")
        try store([["type": "laundry", "id": .string(id), "status": "cancelled"]])
        XCTAssertEqual(try garment(tee)["state"], "onLoan")
        XCTAssertThrowsError(try store([["type": "laundry", "id": .string(id), "status": "washing"]])) { error in
            XCTAssertTrue("\(error)".contains("is cancelled"), "\(error)")
        }
    }

    func testAFinishedLoadWashesItsGarmentsOnTheDayItFinished() throws {
        try wardrobe()
        try store([["type": "wear", "garment": .string(tee), "date": "2026-11-12"],
                   ["type": "wear", "garment": .string(tee), "date": "2026-11-20"]])
        let load = try store([["type": "laundry", "bin": "darks", "garments": [.string(tee)], "status": "planned"]])[0]
        try store([["type": "laundry", "id": load["id"]!, "status": "done", "finishedAt": "2026-11-15T18:00:00Z"]])
        let washed = try garment(tee)
        XCTAssertEqual(washed["state"], "available")
        XCTAssertEqual(washed["lastWashedOn"], "2026-11-15")
        XCTAssertEqual(washed["wearsSinceWash"], 1, "the wear of the 20th came after the wash")
    }

    func testALoadThatBreaksALabelIsRefusedUnlessForced() throws {
        try wardrobe()
        let load: JSONObject = ["type": "laundry", "bin": "darks", "temperature": 40, "garments": [.string(tee), .string(wool)]]
        XCTAssertThrowsError(try store([load])) { error in
            guard case RecordsError.field(let message)? = error as? RecordsError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("Wool Trousers (\(wool)) says wash-no"), message)
            XCTAssertTrue(message.contains("Tee (\(tee)) says wash-30"), message)
        }
        XCTAssertEqual(try Catalog(path: path, create: false).counts()["laundry"], 0)
        XCTAssertEqual(try garment(tee)["state"], "onLoan", "nothing moved")
        let forced = try store([load], force: true)[0]
        let warnings = (forced["warnings"]?.array ?? []).compactMap(\.object)
        XCTAssertEqual(Set(warnings.filter { $0["breaksLabel"] == true }.compactMap { $0["kind"]?.string }), ["doNotWash", "temperatureTooHigh"])
        XCTAssertEqual(warnings.filter { $0["breaksLabel"] == nil }.compactMap { $0["kind"]?.string }, ["colorUnknown"], "the wool trousers have no colour")
    }

    func testMigrationThreeCountsWearsSinceTheLastWashFromTheLog() throws {
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: CatalogSchema.migrations[0])
            try db.execute(sql: CatalogSchema.migrations[1])
            try db.execute(sql: "PRAGMA application_id = \(CatalogSchema.applicationID); PRAGMA user_version = 2")
            try db.execute(sql: """
                INSERT INTO garments (id, name, category, last_washed_on, created_at, updated_at) VALUES
                    ('g_a', 'Washed', 'top', '2026-11-01', 'x', 'x'), ('g_b', 'Never washed', 'top', NULL, 'x', 'x');
                INSERT INTO wear_log (garment_id, date) VALUES
                    ('g_a', '2026-10-30'), ('g_a', '2026-11-01'), ('g_a', '2026-11-02'), ('g_b', '2026-10-01'), ('g_b', '2026-10-02');
                """)
        }
        _ = try Catalog(path: path, create: true)
        let counts = try DatabaseQueue(path: path).read { try Row.fetchAll($0, sql: "SELECT id, wears_since_wash FROM garments ORDER BY id") }
        XCTAssertEqual(counts.map { $0["wears_since_wash"] as Int }, [1, 2])
        XCTAssertEqual(try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA user_version") }, CatalogSchema.latestVersion)
    }
}
