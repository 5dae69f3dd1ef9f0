import Crypto
import Foundation
import XCTest
@testable import AtelierTransfer

/// `BatchReceiver` against a malicious sender, in process over loopback TCP: a manifest whose
/// path would escape the destination (or smuggle a NUL or a control character) is refused
/// before anything is written, and the sender is told why.
///
/// The real sender cannot produce such a manifest (`ManifestPath` refuses it when built), so
/// the fake sender seals a hand-encoded manifest frame with `SecureConnection.sendUnchecked`.
final class BatchReceiverHostileManifestTests: XCTestCase {
    var base: String!

    override func setUpWithError() throws {
        base = NSTemporaryDirectory() + "atelier-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base + "/deep/er", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: base) }

    func testUnsafePathsAreRefusedAndNothingIsWritten() throws {
        let cases: [(path: String, reason: String)] = [
            ("../../etc/passwd", "'.' and '..' components are not allowed"),
            ("/etc/passwd", "absolute paths are not allowed"),
            ("shoe/../../../x.jpg", "'.' and '..' components are not allowed"),
            ("shoe/\u{0}.jpg", "it contains a NUL byte"),
            ("shoe\n{\"type\":\"batch\"}.jpg", "it contains a control character"),
            ("\u{1B}[2Jshoe.jpg", "it contains a control character"),
        ]
        for (path, reason) in cases {
            // A good entry first: even it must not be written when the manifest is refused.
            let (receiverError, senderSaw) = try run(entries: [("ok.jpg", Array("hello".utf8)), (path, Array("root::0:0".utf8))])
            XCTAssertEqual(receiverError as? TransferError, .unsafePath(path, reason: reason), path.debugDescription)
            // The sender hears why (atl-send prints it and exits 65, like atl-recv).
            guard case .abort(.badManifest, let message)? = senderSaw else {
                XCTFail("\(path.debugDescription): the sender got \(String(describing: senderSaw))")
                continue
            }
            XCTAssertTrue(message.contains(path.debugDescription), message)
            XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: base), ["deep", "deep/er"], "nothing written anywhere under \(base!)")
        }
    }

    func testBadUTF8PathIsRefused() throws {
        let (receiverError, senderSaw) = try run(rawEntries: [([0x61, 0xFF, 0x2E, 0x6A], Array("x".utf8))])
        guard case .unsafePath(_, let reason)? = receiverError as? TransferError else { return XCTFail("\(String(describing: receiverError))") }
        XCTAssertEqual(reason, "not valid UTF-8")
        guard case .abort(.badManifest, _)? = senderSaw else { return XCTFail("\(String(describing: senderSaw))") }
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: base), ["deep", "deep/er"])
    }

    /// Regression: data past a file's declared size was refused as "file 0 at offset 0,
    /// expected 0", a contradiction; the message now says what was wrong.
    func testDataPastTheDeclaredSizeIsRefusedSayingSo() throws {
        let (receiverError, senderSaw) = try run(rawEntries: [(Array("a.jpg".utf8), Array("hello".utf8))]) { connection in
            guard case .resume = try connection.receive() else { throw TransferError.unexpectedMessage(expected: "resume", got: "another message") }
            try connection.send(.data(entry: 0, offset: 0, bytes: Array("hello, and more".utf8)[...]))
        }
        XCTAssertEqual(receiverError as? TransferError,
                       .malformedMessage("data", reason: "file 0 would grow to 15 bytes at offset 0, past the 5 its manifest entry declares"))
        guard case .abort(_, let message)? = senderSaw else { return XCTFail("the sender got \(String(describing: senderSaw))") }
        XCTAssertTrue(message.contains("past the 5 its manifest entry declares"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/deep/er/into/a.jpg"), "nothing of the file is in place")
    }

    // MARK: The fake sender

    /// Runs a `BatchReceiver` (into `base/deep/er/into`) against a sender that pairs properly,
    /// then sends a manifest of `entries` (path, content) encoded by hand. Returns what the
    /// receiver threw and the first message the sender got back after the manifest.
    func run(entries: [(path: String, content: [UInt8])]) throws -> (receiverError: Error?, senderSaw: TransferMessage?) {
        try run(rawEntries: entries.map { (Array($0.path.utf8), $0.content) })
    }

    /// `afterManifest`, when given, goes on as the sender once the manifest is sent (the
    /// receiver then accepts it, so its events are not checked).
    func run(rawEntries entries: [(path: [UInt8], content: [UInt8])],
             afterManifest: (@Sendable (SecureConnection) throws -> Void)? = nil) throws -> (receiverError: Error?, senderSaw: TransferMessage?) {
        let code = try PairingCode(parsing: "7-crane-orbit")
        let listener = try TCPListener("127.0.0.1:0")
        let port = listener.address.port
        let senderResult = SenderResult()
        let senderDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { senderDone.signal() }
            do {
                let socket = try TCPConnection.connect(to: SocketAddress.resolve(host: "127.0.0.1", port: port), timeoutSeconds: 10)
                let connection = try SecureConnection.pairAsSender(socket, code: code)
                try connection.send(.hello(Hello(role: .sender, software: "evil-send")))
                guard case .hello = try connection.receive() else { return }
                try connection.sendUnchecked(plaintext: Self.manifestPlaintext(entries))
                try afterManifest?(connection)
                senderResult.set(try connection.receive())
            } catch {
                senderResult.set(error)
            }
        }
        let receiverError = try receive(listener, code: code, expectingEvents: afterManifest != nil)
        XCTAssertEqual(senderDone.wait(timeout: .now() + 10), .success, "the fake sender finished")
        if let error = senderResult.error { XCTFail("the fake sender failed: \(error)") }
        return (receiverError, senderResult.message)
    }

    /// Accepts one sender and runs a `BatchReceiver` into `base/deep/er/into`; returns what it
    /// threw. The connection is closed on return, as when atl-recv exits.
    func receive(_ listener: TCPListener, code: PairingCode, expectingEvents: Bool = false) throws -> Error? {
        let socket = try listener.accept(timeoutSeconds: 10, connectionTimeoutSeconds: 10)
        let connection = try SecureConnection.pairAsReceiver(socket, code: code)
        var events: [String] = []
        defer { if !expectingEvents { XCTAssertEqual(events, [], "no event for a refused manifest") } }
        do {
            try BatchReceiver(into: base + "/deep/er/into").run(connection) { events.append("\($0)") }
        } catch {
            return error
        }
        return nil
    }

    /// A manifest message (type 0x02, version 2: path and size per entry) in one part, batch
    /// `b_hostile`, encoded as docs/transfer-protocol.md describes, with paths as raw bytes.
    static func manifestPlaintext(_ entries: [(path: [UInt8], content: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [0x02]
        func u16(_ v: Int) { out += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) { out += (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        func u64(_ v: Int) { out += (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        let batch = Array("b_hostile".utf8)
        u16(batch.count); out += batch
        u32(entries.count)
        u64(entries.reduce(0) { $0 + $1.content.count })
        u32(0)
        u32(entries.count)
        for entry in entries {
            u16(entry.path.count); out += entry.path
            u64(entry.content.count)
        }
        return out
    }
}

/// What the fake sender's thread saw.
private final class SenderResult: @unchecked Sendable {
    private let lock = NSLock()
    private var _message: TransferMessage?
    private var _error: Error?
    var message: TransferMessage? { lock.withLock { _message } }
    var error: Error? { lock.withLock { _error } }
    func set(_ message: TransferMessage) { lock.withLock { _message = message } }
    func set(_ error: Error) { lock.withLock { _error = error } }
}
