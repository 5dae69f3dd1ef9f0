@testable import AtelierRecords
import Dispatch
import Foundation
import XCTest

/// `ParallelArray`: elements made on several threads come back in index order, every one of
/// them, for any split, and class elements are neither leaked nor freed twice.
final class ParallelArrayTests: XCTestCase {
    func testEveryIndexInOrderForAnySplit() {
        for count in [0, 1, 2, 7, 100, 1001] {
            for parts in [1, 2, 3, 8, 64, 5000] {
                let made = ParallelArray.map(count, parts: parts) { $0 * $0 }
                XCTAssertEqual(made, (0 ..< count).map { $0 * $0 }, "\(count) in \(parts) parts")
            }
        }
    }

    func testSlotsFilledOutOfOrderOnManyThreads() {
        let count = 10_000
        let made: [String] = ParallelArray.make(count: count) { slots in
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                // Each worker takes every fourth index, from the end.
                for index in stride(from: count - 1 - worker, through: 0, by: -4) { slots.put("#\(index)", at: index) }
            }
        }
        XCTAssertEqual(made, (0 ..< count).map { "#\($0)" })
    }

    func testElementsAreOwnedOnceByTheArray() {
        final class Tracked: @unchecked Sendable {
            static let lock = NSLock()
            nonisolated(unsafe) static var alive = 0
            init() { Self.lock.withLock { Self.alive += 1 } }
            deinit { Self.lock.withLock { Self.alive -= 1 } }
        }
        do {
            let made = ParallelArray.map(500, parts: 8) { _ in Tracked() }
            XCTAssertEqual(Tracked.alive, 500)
            XCTAssertEqual(Set(made.map(ObjectIdentifier.init)).count, 500)
        }
        XCTAssertEqual(Tracked.alive, 0)
    }
}
