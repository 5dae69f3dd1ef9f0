import Foundation
import XCTest

/// atl-send's hash cache (`send-hashes.tsv`) never gets a send stuck or wrong: a file rewritten
/// with its size and modification time put back starts over, a line that still turns out stale
/// is corrected by the send that reads the file, and a cache that cannot be saved is a warning.
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
        XCTAssertEqual(try sh.run("cat .cache/atelier/send-hashes.tsv 2>/dev/null | wc -l").out.trimmingCharacters(in: .whitespaces), "0\n",
                       "a hash is noted once the receiver verified the file, and this one never finished")
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
    /// names another sha256 is only a hint since the sha256 travels at each file's end: a send
    /// into an empty directory never needs it and corrects it; one into a directory that has
    /// the files compares, finds it differs from what the receiver offers, reads the file and
    /// keeps what is there (nothing sent again, nothing refused).
    func testAStaleLineIsCorrectedBySendingAndNeverFailsASend() throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 2 200000")
        let forged = try sh.run("""
            mkdir -p .cache/atelier && for f in src/*; do
              stat -c $'%d\\t%i\\t%s\\t%Y\\t%.9Y\\t%Z\\t%.9Z' "$f" | awk -F'\\t' -v OFS='\\t' '{ split($5, m, "."); split($7, c, "."); print $1, $2, $3, $4, m[2]+0, $6, c[2]+0, "\(String(repeating: "ab", count: 32))" }'
            done > .cache/atelier/send-hashes.tsv && cat .cache/atelier/send-hashes.tsv
            """)
        XCTAssertEqual(forged.status, 0, forged.err)
        XCTAssertEqual(forged.lines.count, 2, forged.out)
        let first = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src")
        try assertSucceeded(first)
        let batch = try XCTUnwrap(first.recv.records.last?["id"] as? String)
        try assertTreeEqual("src", "dst/\(batch)/src")
        XCTAssertEqual(try sh.run("grep -c abababab .cache/atelier/send-hashes.tsv").out, "0\n", "both lines corrected")
        let real = try sh.run("sha256sum src/file-00.bin | cut -c1-64").out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try sh.run("grep -c \(real) .cache/atelier/send-hashes.tsv").out, "1\n")

        // Stale again, and the receiver has the files: each is read, found the same, and kept.
        try sh.run("sed -i 's/\t[0-9a-f]\\{64\\}$/\t\(String(repeating: "ab", count: 32))/' .cache/atelier/send-hashes.tsv")
        XCTAssertEqual(try sh.run("grep -c abababab .cache/atelier/send-hashes.tsv").out, "2\n")
        let again = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src")
        try assertSucceeded(again)
        XCTAssertEqual(again.send.records.dropLast().map { $0["status"] as? String }, ["present", "present"])
        XCTAssertEqual(again.send.records.last?["sent"] as? Int, 0)
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
