import Foundation
import XCTest
@testable import AtelierTransfer

/// A receiver busy with a batch turns further connections away with `busy` (24 bytes, "ATLB"),
/// which a sender reports as `receiverBusy`, not as a broken connection.
final class BusyReceiverTests: XCTestCase {
    func testBusyHasTheGreetingsSizeAndItsOwnMagic() {
        XCTAssertEqual(PairingHandshake.busy.count, PairingHandshake.greetingBytes)
        XCTAssertEqual(Array(PairingHandshake.busy.prefix(4)), Array("ATLB".utf8))
    }

    func testASenderGreetedWithBusyReportsTheReceiverIsBusy() throws {
        var sender = PairingHandshake.Sender(code: try PairingCode(parsing: "7-crane-orbit"))
        XCTAssertThrowsError(try sender.initiate(greeting: PairingHandshake.busy)) { error in
            XCTAssertEqual(error as? TransferError, .receiverBusy)
            XCTAssertEqual("\(error)", "the receiver is busy with another batch; try again when it is done")
        }
    }

    func testEveryConnectionWhileBusyIsTurnedAwayUntilStopped() throws {
        let listener = try TCPListener("127.0.0.1:0")
        let addresses = try SocketAddress.resolve(host: "127.0.0.1", port: listener.address.port)
        let seen = Counter()
        let answerer = BusyAnswerer(listener: listener) { _ in seen.add() }
        for _ in 0 ..< 3 {
            let socket = try TCPConnection.connect(to: addresses, timeoutSeconds: 5)
            XCTAssertThrowsError(try SecureConnection.pairAsSender(socket, code: try PairingCode(parsing: "7-crane-orbit"))) { error in
                XCTAssertEqual(error as? TransferError, .receiverBusy)
            }
        }
        answerer.stop()
        XCTAssertEqual(seen.value, 3)
        // Stopped: the listener is the caller's again, and nobody answers a new connection.
        let late = try TCPConnection.connect(to: addresses, timeoutSeconds: 5)
        late.timeoutSeconds = 0.3
        var byte = [UInt8](repeating: 0, count: 1)
        XCTAssertThrowsError(try byte.withUnsafeMutableBytes { try late.read(into: $0) }) { error in
            guard case .timedOut = error as? TransferError else { return XCTFail("\(error)") }
        }
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }
}
