import Crypto
import XCTest
@testable import AtelierTransfer

/// The handshake end to end in memory, and the protocol test vector of
/// docs/transfer-protocol.md (recomputed independently by docs/transfer-protocol-vector.py).
final class PairingHandshakeTests: XCTestCase {
    /// The draft's B.1 scalars, reused: ya for the sender (initiator), yb for the receiver.
    static let senderScalar = hex("21b4f4bd9e64ed355c3eb676a28ebedaf6d8f17bdc365995b319097153044080")
    static let receiverScalar = hex("848b0779ff415f0af4ea14df9dd1d3c29ac41d836c7808896c4eba19c51ac40a")

    /// Runs the four messages; returns both outcomes (nil where a side threw) and the errors.
    func pair(senderCode: String, receiverCode: String, tamper: (inout [UInt8], Int) -> Void = { _, _ in })
        throws -> (sender: Result<PairingSession, TransferError>, receiver: Result<PairingSession, TransferError>) {
        var receiver = PairingHandshake.Receiver(code: try PairingCode(parsing: receiverCode))
        var sender = PairingHandshake.Sender(code: try PairingCode(parsing: senderCode))
        var greeting = receiver.greeting; tamper(&greeting, 0)
        var initiate = try sender.initiate(greeting: greeting); tamper(&initiate, 1)
        var response = try receiver.respond(to: initiate); tamper(&response, 2)
        var confirm = try sender.confirm(response: response); tamper(&confirm, 3)
        let receiverOutcome = Result { try receiver.finish(confirmation: confirm) }.mapError { $0 as! TransferError }
        let senderOutcome = Result { try sender.finish() }.mapError { $0 as! TransferError }
        return (senderOutcome, receiverOutcome)
    }

    func testTheSameCodeGivesBothSidesTheSameKeysInOppositeDirections() throws {
        let outcome = try pair(senderCode: "7-crane-orbit", receiverCode: "7 Crane orbi")
        let sender = try outcome.sender.get(), receiver = try outcome.receiver.get()
        XCTAssertEqual(sender.fingerprint, receiver.fingerprint)
        XCTAssertEqual(sender.fingerprint.count, 19)
        XCTAssertEqual(sender.role, .sender)
        XCTAssertEqual(receiver.role, .receiver)
        XCTAssertEqual(sender.sendKey, receiver.receiveKey)
        XCTAssertEqual(sender.receiveKey, receiver.sendKey)
        XCTAssertNotEqual(sender.sendKey, sender.receiveKey)
        let again = try pair(senderCode: "7-crane-orbit", receiverCode: "7-crane-orbit")
        XCTAssertNotEqual(try again.sender.get().fingerprint, sender.fingerprint, "fresh nonces and scalars every time")
    }

    func testAWrongCodeFailsOnBothSides() throws {
        for (senderCode, receiverCode) in [("7-crane-orbit", "7-crane-orchard"), ("7-crane-orbit", "8-crane-orbit"), ("7-crane-orbit", "7-orbit-crane")] {
            let outcome = try pair(senderCode: senderCode, receiverCode: receiverCode)
            XCTAssertEqual(outcome.sender.failure, .wrongCode, senderCode + " vs " + receiverCode)
            XCTAssertEqual(outcome.receiver.failure, .wrongCode, senderCode + " vs " + receiverCode)
        }
    }

    func testAnyTamperedHandshakeByteFailsConfirmation() throws {
        // A flip in a nonce, a share or a tag: both sides end in .wrongCode or a handshake error.
        for (message, index) in [(0, 12), (1, 10), (1, 40), (2, 20), (2, 50), (3, 20)] {
            do {
                let outcome = try pair(senderCode: "7-crane-orbit", receiverCode: "7-crane-orbit") { bytes, which in
                    if which == message { bytes[index] ^= 0x01 }
                }
                XCTAssertNotNil(outcome.receiver.failure, "message \(message) byte \(index)")
                if message < 3 { XCTAssertNotNil(outcome.sender.failure, "message \(message) byte \(index)") }
            } catch {
                XCTAssertTrue(error is TransferError, "\(error)")
            }
        }
    }

    func testHandshakeRefusesMalformedMessagesVersionsAndWeakShares() throws {
        let code = try PairingCode(parsing: "7-crane-orbit")
        var sender = PairingHandshake.Sender(code: code)
        XCTAssertThrowsError(try sender.initiate(greeting: Array("HTTP/1.1 200 OK\r\n\r\nxxxx".utf8))) {
            XCTAssertEqual($0 as? TransferError, .malformedHandshake("greeting does not start with ATLR"))
        }
        var greeting = PairingHandshake.Receiver(code: code).greeting
        greeting[4] = 2; greeting[5] = 3
        XCTAssertThrowsError(try sender.initiate(greeting: greeting)) {
            XCTAssertEqual($0 as? TransferError, .unsupportedVersion(ours: 1...1, theirs: 2...3))
        }
        XCTAssertThrowsError(try sender.initiate(greeting: Array(greeting.prefix(20))))
        var receiver = PairingHandshake.Receiver(code: code)
        var other = PairingHandshake.Sender(code: code)
        var initiate = try other.initiate(greeting: receiver.greeting)
        initiate.replaceSubrange(24..<56, with: [UInt8](repeating: 0, count: 32))
        XCTAssertThrowsError(try receiver.respond(to: initiate)) { XCTAssertEqual($0 as? TransferError, .weakPeerKey) }
        XCTAssertThrowsError(try receiver.finish(confirmation: Array("ATLC".utf8) + [UInt8](repeating: 0, count: 32))) {
            XCTAssertEqual($0 as? TransferError, .handshakeOutOfOrder("finish(confirmation:) before respond(to:)"))
        }
        XCTAssertThrowsError(try PairingHandshake.Sender(code: code).finish())
    }

    /// docs/transfer-protocol.md, "Test vector": code 7-crane-orbit, nonceR = 00…0f,
    /// nonceS = 10…1f, the draft's ya (sender) and yb (receiver).
    func testProtocolVector() throws {
        let code = try PairingCode(parsing: "7-crane-orbit")
        var receiver = PairingHandshake.Receiver(code: code, nonce: Array(0..<16), scalar: Self.receiverScalar)
        var sender = PairingHandshake.Sender(code: code, nonce: Array(16..<32), scalar: Self.senderScalar)
        let sid = (0..<32).map { UInt8($0) }
        XCTAssertEqual(hex(PairingHandshake.channelIdentifier(version: 1)), "106174656c6965722d7472616e736665720201010673656e646572087265636569766572")
        XCTAssertEqual(hex(CPace.generator(prs: code.passwordBytes, ci: PairingHandshake.channelIdentifier(version: 1), sid: sid)),
                       "23c21201cf360fef7f01f889b7f5881bfa2802c1e9bd9907f96971831f0b1a4b")
        XCTAssertEqual(hex(receiver.greeting), "41544c5201010100000102030405060708090a0b0c0d0e0f")
        let initiate = try sender.initiate(greeting: receiver.greeting)
        XCTAssertEqual(hex(initiate), "41544c5301010000101112131415161718191a1b1c1d1e1fb92e779fb77f01cd00127e2815512d5abccc74835be9d8baf2eee35e2c955c1b")
        let response = try receiver.respond(to: initiate)
        XCTAssertEqual(hex(response), "41544c4b77b44f73074a26069ed1828db078fdee486d0796da367aa1247153be122ec14471e9109b1a364b2aede0dbeb8ea35f1d62c6c98e0c37cf829e8ab45f51c5fb83")
        let cpace = try CPace(prs: code.passwordBytes, ci: PairingHandshake.channelIdentifier(version: 1), sid: sid, scalar: Self.senderScalar)
        XCTAssertEqual(hex(try cpace.intermediateSessionKey(peerShare: Array(response[4..<36]), isInitiator: true)),
                       "48f436ae8d576ba72515c4cd94b9f9f1e144d119d56d485f521772b172b9facd89566caaac215fb773663573e6791b6ed90b569c7aacf1cb6b227e65a101c6bb")
        XCTAssertEqual(hex(KeySchedule.transcriptHash(receiver.greeting, initiate, Array(response[0..<36]))),
                       "51b143cc9c4595fd172dcfe0d09d6030930508ec73e3998a7558ba6a84981c66")
        let confirm = try sender.confirm(response: response)
        XCTAssertEqual(hex(confirm), "41544c43b88fc69ee1711be12229c1c938ec5e774c6c228d09e4139bb682477fa4ca1acc")
        let senderSession = try sender.finish(), receiverSession = try receiver.finish(confirmation: confirm)
        XCTAssertEqual(senderSession.fingerprint, "e022-349c-f8b1-1fcc")
        XCTAssertEqual(receiverSession.fingerprint, "e022-349c-f8b1-1fcc")
        XCTAssertEqual(senderSession.sendKey.withUnsafeBytes { hex($0) }, "c2d5b3e15d63010ef79869af56210ee13d58e3c40735ee117ae920ea479d5456")
        XCTAssertEqual(senderSession.receiveKey.withUnsafeBytes { hex($0) }, "30009894ee634d236e8d967938de84040fd511ffe43390df77f2242a9e35fe7d")
        var sealer = senderSession.makeSealer()
        var out: [UInt8] = []
        let hello = TransferMessage.hello(Hello(role: .sender, software: "atl-send 1.0"))
        XCTAssertEqual(hex(hello.encoded), "01020100100040000c61746c2d73656e6420312e30")
        try sealer.seal(hello, into: &out)
        XCTAssertEqual(hex(out), "00000025a2fe0067b429e26b54f20d8e931d60aaed9e87a76620e0bff6be353116b5875b0103848489")
        out.removeAll()
        try sealer.seal(.close, into: &out)
        XCTAssertEqual(hex(out), "0000001122fa23f552d3a22f0060c3fd514cd791e2")
    }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { return error } else { return nil } }
}
