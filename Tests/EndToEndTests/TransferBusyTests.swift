import Foundation
import XCTest

/// A second sender that connects while atl-recv is receiving a batch is told the receiver is
/// busy (exit 69, one plain line) instead of waiting in the listen queue and getting a bare
/// connection reset; the batch under way is not disturbed.
extension TransferTests {
    func testASecondSenderIsToldTheReceiverIsBusyAndTheFirstBatchCompletes() throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 3 2000000 && mkdir other && printf x > other/a.txt")
        let port = try Self.freePort()
        // The first sender goes slowly (6 MB at 3 MB/s); the second tries once the first file is in.
        let script = """
            atl-recv --listen 127.0.0.1:\(port) --code \(Self.code) --into dst --wait 30 --timeout 10 --line-buffered > .t-recv.out 2> .t-recv.err & recv=$!
            atl-send --to 127.0.0.1:\(port) --code \(Self.code) --wait 30 --timeout 10 --limit-rate 3M src > .t-send.out 2> .t-send.err & send=$!
            for i in $(seq 400); do [ "$(grep -c '"capture"' .t-recv.out)" -ge 1 ] && break; sleep 0.05; done
            timeout 20 atl-send --to 127.0.0.1:\(port) --code \(Self.code) --wait 5 other > .t-second.out 2> .t-second.err; echo $? > .t-second.status
            wait $recv; echo $? > .t-recv.status
            wait $send; echo $? > .t-send.status
            """
        let run = try sh.run(script)
        XCTAssertEqual(run.status, 0, run.err)
        let second = try side("second"), recv = try side("recv"), send = try side("send")
        XCTAssertEqual(second.status, 69, second.err)
        XCTAssertEqual(second.err, "atl-send: the receiver is busy with another batch; try again when it is done\n")
        XCTAssertEqual(second.out, "")
        XCTAssertEqual(recv.status, 0, recv.err)
        XCTAssertEqual(send.status, 0, send.err)
        XCTAssertEqual(recv.err, "atl-recv: 127.0.0.1 connected while this batch is being received; told it to try again when it is done\n")
        let batch = try XCTUnwrap(recv.records.last?["id"] as? String)
        XCTAssertEqual(recv.records.last?["status"] as? String, "complete")
        try assertTreeEqual("src", "dst/\(batch)/src")
        XCTAssertEqual(try sh.run("ls dst").lines, [batch], "nothing of the second sender's")
    }
}
