import Foundation
import XCTest
@testable import AtelierCatalog

/// The staging of an import's photos: every file published whole under its name, nothing left
/// in staging, and the copies not kept in the page cache once they are on disk.
final class ImageStoreStagingTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atelier-staging-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// 20 files of 300 kB, more than the files allowed in flight, so most are waited for and
    /// dropped while staging and the rest at publishing.
    func stageFiles(_ staging: ImageStoreStaging) throws -> [(relative: String, bytes: [UInt8])] {
        var files: [(relative: String, bytes: [UInt8])] = []
        for i in 0 ..< 20 {
            let bytes = (0 ..< 300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i &* 7) }
            let relative = "images/\(String(format: "%02x", i))/photo-\(i).jpg"
            XCTAssertTrue(try bytes.withUnsafeBytes { try staging.stage($0, at: relative) })
            files.append((relative, bytes))
        }
        XCTAssertGreaterThan(files.count, ImageStoreStaging.filesInFlight)
        return files
    }

    func testPublishesEveryFileWholeAndLeavesNoStaging() throws {
        let store = ImageStore(catalogPath: dir + "/catalog.sqlite")
        let staging = try ImageStoreStaging(store: store)
        let files = try stageFiles(staging)
        XCTAssertEqual(Set(try staging.publish()), Set(files.map(\.relative)))
        for file in files {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.absolute(file.relative))), Data(file.bytes), file.relative)
        }
        let images = try FileManager.default.contentsOfDirectory(atPath: store.absolute("images"))
        XCTAssertFalse(images.contains { $0.hasPrefix(".staging-") }, "\(images)")
    }

    func testDiscardLeavesNothing() throws {
        let store = ImageStore(catalogPath: dir + "/catalog.sqlite")
        let staging = try ImageStoreStaging(store: store)
        let files = try stageFiles(staging)
        staging.discard()
        XCTAssertFalse(files.contains { store.exists($0.relative) })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.absolute("images")), [])
    }

    /// `mincore(2)` of each published file: none of its pages stays cached. (A tmpfs holds its
    /// files in those very pages, so there the check does not apply.)
    func testPublishedCopiesDoNotStayInThePageCache() throws {
        guard Self.fileSystemType(of: dir) != "tmpfs" else { throw XCTSkip("the temporary directory is a tmpfs") }
        let store = ImageStore(catalogPath: dir + "/catalog.sqlite")
        let staging = try ImageStoreStaging(store: store)
        let files = try stageFiles(staging)
        _ = try staging.publish()
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = 0, pages = 0
        for file in files {
            let fd = open(store.absolute(file.relative), O_RDONLY)
            XCTAssertGreaterThanOrEqual(fd, 0)
            defer { close(fd) }
            let length = file.bytes.count
            let mapped = try XCTUnwrap(mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0))
            XCTAssertNotEqual(mapped, MAP_FAILED)
            defer { munmap(mapped, length) }
            var vector = [UInt8](repeating: 0, count: (length + page - 1) / page)
            XCTAssertEqual(mincore(mapped, length, &vector), 0)
            resident += vector.filter { $0 & 1 != 0 }.count
            pages += vector.count
        }
        XCTAssertEqual(resident, 0, "\(resident) of \(pages) pages of the published copies are still cached")
    }

    /// The type of the file system holding `path`, from the longest mount point over it in
    /// /proc/mounts (Swift's Glibc module does not declare `statfs`).
    static func fileSystemType(of path: String) -> String? {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return nil }
        let real = (path as NSString).resolvingSymlinksInPath
        var best: (point: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1]).replacingOccurrences(of: "\\040", with: " ")
            let covers = point == "/" || real == point || real.hasPrefix(point + "/")
            if covers, point.count >= best?.point.count ?? 0 { best = (point, String(fields[2])) }
        }
        return best?.type
    }
}
