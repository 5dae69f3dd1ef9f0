import Foundation
import XCTest

/// atl-send's hash cache (`send-hashes.tsv`) never gets a send stuck: a file rewritten with its
/// size and modification time put back is hashed afresh, a line that still turns out stale is
/// dropped after one failed send, and a cache that cannot be saved is a warning.
extension TransferTests {
    /// The stuck state the hostile tester found: a send cut part-way, then the file rewritten
    /// with the same size and its modification time put back (`touch -d`). Every rerun used to
    /// exit 65 "changed since its sha256 was noted" until send-hashes.tsv was deleted.
    func testRewrittenFileWithItsTimePutBackAfterAnInterruptedSendIsHashedAgainNotStuck() throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 1 3000000")
        let receiverPort = try Self.freePort(), proxyPort = try Self.freePort()
        let cut = try together([
            "recv": "timeout 60 atl-recv --listen 127.0.0.1:\(receiverPort) --code \(Self.code) --into dst --timeout 10",
            "proxy": "timeout 60 python3 \(Self.support)/transfer_proxy.py \(proxyPort) \(receiverPort) --cut-at 2500000",
            "send": "timeout 60 atl-send --to 127.0.0.1:\(proxyPort) --code \(Self.code) --timeout 10 src",
        ])
        XCTAssertEqual(cut["recv"]!.status, 74, cut["recv"]!.err)
        XCTAssertEqual(try sh.run("wc -l < .cache/atelier/send-hashes.tsv").out.trimmingCharacters(in: .whitespaces), "1\n", "the hash was noted")
        // Other bytes, same size, and the old modification time back.
        let rewritten = try sh.run("""
            python3 -c "
            import os
            st = os.stat('src/file-00.bin')
            with open('src/file-00.bin', 'r+b') as f: f.write(b'other bytes')
            os.utime('src/file-00.bin', ns=(st.st_atime_ns, st.st_mtime_ns))
            "
            """)
        XCTAssertEqual(rewritten.status, 0, rewritten.err)
        for attempt in 1...2 {
            let again = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src")
            try assertSucceeded(again)
            let batch = try XCTUnwrap(again.recv.records.last?["id"] as? String)
            try assertTreeEqual("src", "dst/\(batch)/src")
            XCTAssertEqual(again.send.records.first?["status"] as? String, attempt == 1 ? "sent" : "present", "attempt \(attempt)")
        }
    }

    /// A line that matches the file in every way (device, inode, size and both times) and still
    /// names another sha256 fails the one send that finds out, is dropped, and the next send
    /// goes through with the right hash.
    func testAStaleLineIsDroppedWhenTheSendFindsItOutAndTheNextSendGoesThrough() throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 2 200000")
        let forged = try sh.run("""
            mkdir -p .cache/atelier && for f in src/*; do
              stat -c $'%d\\t%i\\t%s\\t%Y\\t%.9Y\\t%Z\\t%.9Z' "$f" | awk -F'\\t' -v OFS='\\t' '{ split($5, m, "."); split($7, c, "."); print $1, $2, $3, $4, m[2]+0, $6, c[2]+0, "\(String(repeating: "ab", count: 32))" }'
            done > .cache/atelier/send-hashes.tsv && cat .cache/atelier/send-hashes.tsv
            """)
        XCTAssertEqual(forged.status, 0, forged.err)
        XCTAssertEqual(forged.lines.count, 2, forged.out)
        let stale = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src")
        XCTAssertEqual(stale.send.status, 75, stale.send.err)
        XCTAssertEqual(stale.send.err, "atl-send: src/file-00.bin changed since its sha256 was noted when it was last sent, though its size and times did not; the note is dropped: run the transfer again (both sides) to send it as it is now\n")
        XCTAssertEqual(stale.recv.status, 69, stale.recv.err)
        XCTAssertEqual(try sh.run("grep -c abababab .cache/atelier/send-hashes.tsv").out, "1\n", "only the line found out is dropped")
        // The other stale line is found out by the next send, then nothing is left to trip on.
        XCTAssertEqual(try transfer(port: try Self.freePort(), recv: "--into dst", send: "src").send.status, 75)
        let fresh = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src")
        try assertSucceeded(fresh)
        let batch = try XCTUnwrap(fresh.recv.records.last?["id"] as? String)
        try assertTreeEqual("src", "dst/\(batch)/src")
        XCTAssertEqual(try sh.run("grep -c abababab .cache/atelier/send-hashes.tsv").out, "0\n")
    }

    /// The cache is written whole through a temporary file and a rename; when that fails the
    /// send still succeeds, and says the cache was not saved.
    func testACacheThatCannotBeSavedIsAWarningNotSilence() throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 1 1000 && mkdir -p .cache/atelier/send-hashes.tsv")
        let sides = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src")
        XCTAssertEqual(sides.send.status, 0, sides.send.err)
        XCTAssertEqual(sides.recv.status, 0, sides.recv.err)
        XCTAssertEqual(sides.send.err, "atl-send: cannot save the hash cache \(sh.dir)/.cache/atelier/send-hashes.tsv: Is a directory; the next send hashes these files again\n")
        XCTAssertEqual(try sh.run("ls -A .cache/atelier").out, "send-hashes.tsv\n", "no temporary file left")
    }
}
