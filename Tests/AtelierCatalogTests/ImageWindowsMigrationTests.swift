import GRDB
import XCTest
@testable import AtelierCatalog

/// Migration 5: a photo's window pHashes (`phashWindows`) get a column of their own.
final class ImageWindowsMigrationTests: XCTestCase {
    var dir = ""
    var path: String { dir + "/catalog.sqlite" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atelier-windows-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testMigrationFiveMovesWindowsOutOfTheUnknownFields() throws {
        let windows = String(repeating: "0123456789abcdef", count: 48)
        try DatabaseQueue(path: path).write { db in
            for version in 0 ..< 4 { try db.execute(sql: CatalogSchema.migrations[version]) }
            try db.execute(sql: "PRAGMA application_id = \(CatalogSchema.applicationID); PRAGMA user_version = 4")
            try db.execute(sql: """
                INSERT INTO images (id, phash, extra, created_at) VALUES
                    ('sha256:a', 'ffffffffffffffff', '{"phashWindows":"\(windows)","source":"/p/a.jpg"}', 'x'),
                    ('sha256:b', 'ffffffffffffffff', '{"phashWindows":"\(windows)"}', 'x'),
                    ('sha256:c', 'ffffffffffffffff', '{"phashWindows":["not", "text"]}', 'x'),
                    ('sha256:d', 'ffffffffffffffff', NULL, 'x');
                """)
        }
        _ = try Catalog(path: path, create: true)
        let rows = try DatabaseQueue(path: path).read { try Row.fetchAll($0, sql: "SELECT phash_windows, extra FROM images ORDER BY id") }
        XCTAssertEqual(rows.map { $0["phash_windows"] as String? }, [windows, windows, nil, nil])
        XCTAssertEqual(rows.map { $0["extra"] as String? }, ["{\"source\":\"/p/a.jpg\"}", nil, "{\"phashWindows\":[\"not\", \"text\"]}", nil])
        XCTAssertEqual(try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA user_version") }, CatalogSchema.latestVersion)
    }
}
