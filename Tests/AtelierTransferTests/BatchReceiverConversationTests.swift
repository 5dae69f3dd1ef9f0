import Crypto
import Foundation
import XCTest
@testable import AtelierTransfer

/// `BatchReceiver` through whole conversations with a `BatchSender` (or a sender that stops or
/// lies part way), paired over a socketpair in this process: no network, no port, no mDNS, so
/// these run anywhere. What each side reports, in order, and what lands on disk: a fresh
/// batch, the same batch again, a file cut off and resumed, one that changed between the runs,
/// a file in place with other bytes, a fileEnd whose sha256 differs from what arrived, and a
/// peer of the older protocol version.
final class BatchReceiverConversationTests: XCTestCase {
    var base: String!
    static let code = try! PairingCode(parsing: "7-crane-orbit")

    override func setUpWithError() throws {
        base = NSTemporaryDirectory() + "atelier-conversation-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base + "/src/sub", withIntermediateDirectories: true)
        // A file of several data frames, an empty one, and one in a subdirectory.
        let big = (0 ..< (BatchSender.chunkBytes * 2 + 12345)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try Data(big).write(to: URL(fileURLWithPath: base + "/src/big.bin"))
        try Data().write(to: URL(fileURLWithPath: base + "/src/empty.txt"))
        try Data("a small file\n".utf8).write(to: URL(fileURLWithPath: base + "/src/sub/small.txt"))
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: base) }

    var batch: LocalBatch {
        get throws { try makeBatch() }
    }

    func makeBatch(id: String? = nil) throws -> LocalBatch {
        try LocalBatch.make(["big.bin", "empty.txt", "sub/small.txt"].map { LocalBatch.Item(localPath: base + "/src/" + $0, name: $0) }, batchID: id)
    }

    func testAFreshBatchArrivesWholeWithItsEventsInOrder() throws {
        let batch = try batch
        let (received, sent) = try converse { try BatchSender().run(batch, over: $0, onEvent: $1) }
        XCTAssertNil(received.error)
        XCTAssertNil(sent.error)
        let total = batch.manifest.totalBytes
        let directory = base + "/into/" + batch.manifest.batchID
        XCTAssertEqual(received.events.first, "accepted \(batch.manifest.batchID) \(directory) 3 \(total) \(total)")
        XCTAssertEqual(received.events.last, "complete \(batch.manifest.batchID) \(directory) 3 \(total)")
        XCTAssertEqual(received.events.filter { $0.hasPrefix("file") },
                       ["file 0 big.bin from 0", "file 1 empty.txt from 0", "file 2 sub/small.txt from 0"])
        let counts = received.events.filter { $0.hasPrefix("received") }.map { UInt64($0.split(separator: " ")[1])! }
        XCTAssertEqual(counts, counts.sorted(), "a running total")
        XCTAssertEqual(counts.last, total)
        XCTAssertEqual(sent.events.first, "resumed \(total) 3")
        XCTAssertEqual(sent.events.filter { $0.hasPrefix("verified") }, ["verified 0 from 0", "verified 1 from 0", "verified 2 from 0"])
        XCTAssertEqual(sent.events.last, "complete")
        for name in ["big.bin", "empty.txt", "sub/small.txt"] {
            XCTAssertEqual(FileManager.default.contents(atPath: directory + "/" + name), FileManager.default.contents(atPath: base + "/src/" + name), name)
        }
    }

    func testTheSameBatchAgainIsAllPresentAndNothingIsSent() throws {
        let batch = try batch
        _ = try converse { try BatchSender().run(batch, over: $0, onEvent: $1) }
        let (received, sent) = try converse { try BatchSender().run(batch, over: $0, onEvent: $1) }
        XCTAssertNil(received.error)
        XCTAssertNil(sent.error)
        let id = batch.manifest.batchID, directory = base + "/into/" + id, total = batch.manifest.totalBytes
        XCTAssertEqual(received.events, ["accepted \(id) \(directory) 3 \(total) 0", "file 0 big.bin present", "file 1 empty.txt present",
                                         "file 2 sub/small.txt present", "complete \(id) \(directory) 3 \(total)"])
        XCTAssertEqual(sent.events, ["resumed 0 0", "verified 0 present", "verified 1 present", "verified 2 present", "complete"])
    }

    /// The sender goes away after part of the first file: what arrived is kept, and the next
    /// run sends only the rest.
    func testAFileCutOffIsResumedFromWhatArrived() throws {
        let batch = try batch
        let kept = 70_000
        let first = Array(try Data(contentsOf: URL(fileURLWithPath: base + "/src/big.bin")).prefix(kept))
        let (cut, _) = try converse { connection, _ in
            try Self.startBatch(batch, over: connection)
            try connection.send(.data(entry: 0, offset: 0, bytes: first[...]))
        }
        XCTAssertNotNil(cut.error, "the receiver saw the sender go")
        XCTAssertFalse(cut.events.contains { $0.hasPrefix("file") || $0.hasPrefix("complete") }, "\(cut.events)")
        let (received, sent) = try converse { try BatchSender().run(batch, over: $0, onEvent: $1) }
        XCTAssertNil(received.error)
        XCTAssertNil(sent.error)
        let total = batch.manifest.totalBytes
        XCTAssertEqual(sent.events.first, "resumed \(total - UInt64(kept)) 3")
        XCTAssertTrue(received.events.first?.hasSuffix(" 3 \(total) \(total - UInt64(kept))") ?? false, "\(received.events)")
        XCTAssertEqual(received.events.filter { $0.hasPrefix("file") },
                       ["file 0 big.bin from \(kept)", "file 1 empty.txt from 0", "file 2 sub/small.txt from 0"])
        XCTAssertEqual(FileManager.default.contents(atPath: base + "/into/" + batch.manifest.batchID + "/big.bin"),
                       FileManager.default.contents(atPath: base + "/src/big.bin"))
    }

    /// The sender's file changed (same size, other first bytes) between the interrupted run
    /// and the rerun, under the same batch name: the prefix digest differs, so the file starts
    /// over instead of continuing the old bytes.
    func testAFileChangedBetweenRunsStartsOverInsteadOfContinuingTheOldPrefix() throws {
        let batch = try makeBatch(id: "scans")
        let first = Array(try Data(contentsOf: URL(fileURLWithPath: base + "/src/big.bin")).prefix(70_000))
        _ = try converse { connection, _ in
            try Self.startBatch(batch, over: connection)
            try connection.send(.data(entry: 0, offset: 0, bytes: first[...]))
        }
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: base + "/src/big.bin"))
        try handle.write(contentsOf: Data("retaken".utf8))
        try handle.close()
        let again = try makeBatch(id: "scans")
        let (received, sent) = try converse { try BatchSender().run(again, over: $0, onEvent: $1) }
        XCTAssertNil(received.error)
        XCTAssertNil(sent.error)
        XCTAssertEqual(sent.events.first, "resumed \(again.manifest.totalBytes) 3")
        XCTAssertEqual(received.events.filter { $0.hasPrefix("file") }, ["file 0 big.bin from 0", "file 1 empty.txt from 0", "file 2 sub/small.txt from 0"])
        XCTAssertEqual(FileManager.default.contents(atPath: base + "/into/scans/big.bin"), FileManager.default.contents(atPath: base + "/src/big.bin"))
    }

    /// A file in place that the sender's differs from (same size, other bytes) is refused
    /// without overwrite, when its data begins, and nothing in place changes; with overwrite
    /// it is replaced.
    func testAFileInPlaceWithOtherBytesIsRefusedUnlessOverwriting() throws {
        let batch = try makeBatch(id: "scans")
        _ = try converse { try BatchSender().run(batch, over: $0, onEvent: $1) }
        let inPlace = base + "/into/scans/sub/small.txt"
        try Data("A small file\n".utf8).write(to: URL(fileURLWithPath: base + "/src/sub/small.txt"))
        let changed = try makeBatch(id: "scans")
        let (refused, sender) = try converse { try BatchSender().run(changed, over: $0, onEvent: $1) }
        XCTAssertEqual(refused.error as? TransferError, .wouldOverwrite(path: inPlace))
        XCTAssertEqual(sender.error as? TransferError, .peerAborted(.refusedOverwrite, message: "\(inPlace) exists with other content (use --overwrite to replace it)"))
        XCTAssertEqual(refused.events.filter { $0.hasPrefix("file") }, ["file 0 big.bin present", "file 1 empty.txt present"])
        XCTAssertEqual(String(decoding: FileManager.default.contents(atPath: inPlace) ?? Data(), as: UTF8.self), "a small file\n")

        let (replaced, _) = try converse(overwrite: true) { try BatchSender().run(changed, over: $0, onEvent: $1) }
        XCTAssertNil(replaced.error)
        XCTAssertEqual(replaced.events.filter { $0.hasPrefix("file") }, ["file 0 big.bin present", "file 1 empty.txt present", "file 2 sub/small.txt from 0"])
        XCTAssertEqual(String(decoding: FileManager.default.contents(atPath: inPlace) ?? Data(), as: UTF8.self), "A small file\n")
    }

    /// A fileEnd whose sha256 is not that of the bytes that arrived (a tampered file, or a
    /// sender that lies) is refused, the sender is told why, the partial file is deleted and
    /// nothing takes the final name.
    func testAFileEndWithAnotherSha256IsRefusedAndNothingTakesTheFinalName() throws {
        let batch = try batch
        let (received, sender) = try converse { connection, _ in
            try Self.startBatch(batch, over: connection)
            try connection.send(.data(entry: 2, offset: 0, bytes: Array("a small file\n".utf8)[...]))
            try connection.send(.fileEnd(entry: 2, sha256: Array(SHA256.hash(data: Data("another file\n".utf8)))))
            throw Stopped(saw: try connection.receive())
        }
        let target = base + "/into/" + batch.manifest.batchID + "/sub/small.txt"
        XCTAssertEqual(received.error as? TransferError, .checksumMismatch(path: target))
        guard case .abort(.verificationFailed, let message)? = (sender.error as? Stopped)?.saw else { return XCTFail("the sender got \(String(describing: sender.error))") }
        XCTAssertEqual(message, "\(target) arrived damaged: its sha256 differs from the sender's")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: base + "/into/" + batch.manifest.batchID + "/.atl-partial")) ?? []
        XCTAssertEqual(leftovers.filter { $0.hasSuffix(".part") }, [], "the damaged partial file is gone too")
    }

    /// A peer of message version 1 (every sha256 in the manifest) and this one cannot talk:
    /// each side refuses the other's hello with `unsupportedVersion`, and the old side hears
    /// why in an abort.
    func testAPeerOfTheOlderVersionIsRefusedSayingSo() throws {
        let (received, sender) = try converse { connection, _ in
            try connection.send(.hello(Hello(version: 1, role: .sender, software: "atl-send 0.9")))
            guard case .hello(let theirs) = try connection.receive(), theirs.version == 2 else {
                throw TransferError.unexpectedMessage(expected: "hello of version 2", got: "another message")
            }
            throw Stopped(saw: try connection.receive())
        }
        XCTAssertEqual(received.error as? TransferError, .unsupportedVersion(ours: 2...2, theirs: 1...1))
        XCTAssertEqual("\(received.error!)", "no common protocol version: we speak 2, the peer 1; update the older side")
        guard case .abort(.unsupportedVersion, let message)? = (sender.error as? Stopped)?.saw else { return XCTFail("the sender got \(String(describing: sender.error))") }
        XCTAssertEqual(message, "message version 1 is not supported (this side speaks 2)")
        XCTAssertEqual(received.events, [], "nothing accepted, nothing written")
    }

    // MARK: The conversation

    /// What one side reported, as short strings, and what it threw.
    struct Side {
        var events: [String] = []
        var error: Error?
    }

    struct Stopped: Error {
        var saw: TransferMessage
    }

    /// Hello and the manifest, as `BatchSender` begins, and the receiver's resume answer.
    static func startBatch(_ batch: LocalBatch, over connection: SecureConnection) throws {
        try connection.send(.hello(Hello(role: .sender, software: "test-send")))
        guard case .hello = try connection.receive() else { throw TransferError.unexpectedMessage(expected: "hello", got: "another message") }
        for part in batch.manifest.parts() { try connection.send(.manifest(part)) }
        guard case .resume = try connection.receive() else { throw TransferError.unexpectedMessage(expected: "resume", got: "another message") }
    }

    /// Pairs two ends of a socketpair, runs a `BatchReceiver` into `base/into` on one and
    /// `sender` on the other (on its own thread), and returns what each reported. The
    /// sender's end is closed when `sender` returns or throws.
    func converse(overwrite: Bool = false, _ sender: @escaping @Sendable (SecureConnection, (BatchSender.Event) throws -> Void) throws -> Void) throws -> (received: Side, sent: Side) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
        let peer = SocketAddress(storage: sockaddr_storage(), length: 0)
        let senderEnd = TCPConnection(fd: fds[0], peer: peer, timeoutSeconds: 10)
        let receiverEnd = TCPConnection(fd: fds[1], peer: peer, timeoutSeconds: 10)
        let sent = SideBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { done.signal() }
            do {
                let connection = try SecureConnection.pairAsSender(senderEnd, code: Self.code)
                try sender(connection) { event in sent.append(Self.describe(event)) }
            } catch {
                sent.fail(error)
            }
            senderEnd.shutdownWrite()
        }
        var received = Side()
        do {
            let connection = try SecureConnection.pairAsReceiver(receiverEnd, code: Self.code)
            try BatchReceiver(into: base + "/into", overwrite: overwrite).run(connection) { received.events.append(Self.describe($0)) }
        } catch {
            received.error = error
        }
        receiverEnd.shutdownWrite()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "the sender finished")
        return (received, sent.side)
    }

    static func describe(_ event: BatchReceiver.Event) -> String {
        switch event {
        case .accepted(let batch, let directory, let files, let bytes, let toReceive): "accepted \(batch) \(directory) \(files) \(bytes) \(toReceive)"
        case .received(let bytes): "received \(bytes)"
        case .file(let file): "file \(file.index) \(file.relativePath) \(file.resumedFrom.map { "from \($0)" } ?? "present")"
        case .complete(let batch, let directory, let files, let bytes): "complete \(batch) \(directory) \(files) \(bytes)"
        }
    }

    static func describe(_ event: BatchSender.Event) -> String {
        switch event {
        case .resumed(let toSend, let files): "resumed \(toSend) \(files)"
        case .sent(let bytes): "sent \(bytes)"
        case .verified(let index, let resumedFrom, _): "verified \(index) \(resumedFrom.map { "from \($0)" } ?? "present")"
        case .complete: "complete"
        }
    }
}

private final class SideBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _side = BatchReceiverConversationTests.Side()
    var side: BatchReceiverConversationTests.Side { lock.withLock { _side } }
    func append(_ event: String) { lock.withLock { _side.events.append(event) } }
    func fail(_ error: Error) { lock.withLock { _side.error = error } }
}
