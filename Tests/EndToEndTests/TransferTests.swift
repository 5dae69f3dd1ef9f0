import Foundation
import XCTest

/// `atl-send` and `atl-recv` end to end, on loopback: the happy path, pipes, resume after a
/// cut, a kill -9 or a tampered stream, a wrong code, bad input and a full disk. Every run
/// checks the records both tools print, the exit codes and messages, and the received files
/// byte for byte against their sources.
final class TransferTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws { sh = try Shell() }
    override func tearDown() { sh.remove() }

    static let code = "7-crane-orbit"
    static let support = Shell.root + "/Tests/EndToEndTests/Support"

    // MARK: The happy path

    func testThirtyNestedFilesArriveByteIdenticalThenASecondRunSendsNothing() throws {
        try sh.run("python3 \(Self.support)/make_tree.py nested src")
        let port = try Self.freePort()
        let first = try transfer(port: port, recv: "--into dst", send: "src")
        try assertSucceeded(first)
        let expected = try sourceFiles("src")
        XCTAssertEqual(expected.count, 30)
        XCTAssertEqual(expected["src/empty.txt"]?.bytes, 0)
        XCTAssertEqual(expected["src/big/scan-4mb.bin"]?.bytes, 4_000_000)
        let batch = try assertRecords(first, expected: expected, recvStatus: "received", sendStatus: "sent")
        XCTAssertEqual(first.send.records.last?["sent"] as? Int, expected.values.reduce(0) { $0 + $1.bytes })
        try assertTreeEqual("src", "dst/\(batch)/src")
        XCTAssertEqual(try sh.run("cd dst && find . -mindepth 1 -maxdepth 2 | sort").lines, ["./\(batch)", "./\(batch)/src"],
                       "only the batch directory, nothing temporary left")

        // The same commands again: everything is there, verified, and nothing moves.
        let second = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src")
        try assertSucceeded(second)
        XCTAssertEqual(try assertRecords(second, expected: expected, recvStatus: "present", sendStatus: "present"), batch)
        XCTAssertEqual(second.send.records.last?["sent"] as? Int, 0)
        try assertTreeEqual("src", "dst/\(batch)/src")
    }

    func testImportedPhotosPipeIntoSendAndReceivedRecordsPipeIntoJq() throws {
        let made = try sh.run("python3 \(Shell.root)/Tests/EndToEndTests/Support/make_photos.py .")
        XCTAssertEqual(made.status, 0, "make_photos.py needs Pillow (make test installs it): \(made.err)")
        let port = try Self.freePort()
        let sides = try together([
            "recv": "timeout 60 atl-recv --listen 127.0.0.1:\(port) --code \(Self.code) --into dst | jq -c .",
            "send": "atl-import --images wardrobe | tee imported.ndjson | timeout 60 atl-send --to 127.0.0.1:\(port) --code \(Self.code)",
        ])
        let recv = sides["recv"]!, send = sides["send"]!
        XCTAssertEqual(recv.status, 0, recv.err)
        XCTAssertEqual(send.status, 0, send.err)
        let images = Shell.records(try sh.run("cat imported.ndjson"))
        XCTAssertEqual(images.count, 11)
        let sent = send.records.filter { $0["type"] as? String == "capture" }
        XCTAssertEqual(sent.count, images.count)
        // Each file sent is the stored photo the record names, under its original name, and
        // the image id is its sha256 (used as is, not hashed again).
        for image in images {
            let record = try XCTUnwrap(sent.first { $0["path"] as? String == image["path"] as? String }, "\(image)")
            XCTAssertEqual("sha256:" + (record["sha256"] as? String ?? ""), image["id"] as? String)
            XCTAssertEqual(record["status"] as? String, "sent")
        }
        XCTAssertEqual(Set(sent.compactMap { $0["name"] as? String }).count, 11, "names made unique")
        // jq saw every capture record, then the batch record.
        XCTAssertEqual(recv.records.dropLast().map { $0["type"] as? String }, Array(repeating: "capture", count: 11))
        let batch = try XCTUnwrap(recv.records.last)
        XCTAssertEqual(batch["type"] as? String, "batch")
        XCTAssertEqual(batch["status"] as? String, "complete")
        XCTAssertEqual(batch["count"] as? Int, 11)
        for record in recv.records.dropLast() {
            let source = try XCTUnwrap(sent.first { $0["sha256"] as? String == record["sha256"] as? String })
            XCTAssertEqual(try sh.run("cmp '\(source["path"]!)' '\(record["path"]!)'").status, 0, "\(record)")
            XCTAssertEqual(record["name"] as? String, source["name"] as? String)
        }
    }

    func testDiscoveryFindsTheReceiverByTheCodeNumber() throws {
        // A number of its own, so that another receiver on this network is not found instead.
        let code = "\(Int.random(in: 100...999))-crane-orbit"
        try sh.run("python3 \(Self.support)/make_tree.py flat src 3 100000")
        let sides = try together([
            "recv": "timeout 60 atl-recv --code \(code) --into dst --wait 30",
            "send": "timeout 60 atl-send --code \(code) --wait 20 src",
        ])
        let recv = sides["recv"]!, send = sides["send"]!
        XCTAssertEqual(send.status, 0, send.err)
        XCTAssertEqual(recv.status, 0, recv.err)
        XCTAssertEqual(recv.records.map { $0["status"] as? String }, ["received", "received", "received", "complete"])
        let batch = try XCTUnwrap(recv.records.last?["id"] as? String)
        try assertTreeEqual("src", "dst/\(batch)/src")
    }

    // MARK: Pairing

    func testARecordWhoseFileChangedSinceItsIdIsCaughtBySender() throws {
        // An image record's id spares hashing the file first, so it is checked as it is sent.
        try sh.run("python3 \(Self.support)/make_tree.py flat src 2 300000")
        let stale = try sh.run("""
            for f in src/*; do printf '{"type":"image","id":"sha256:%s","path":"%s"}\\n' "$(sha256sum < "$f" | cut -c1-64)" "$f"; done > records.ndjson
            printf 'X' | dd of=src/file-01.bin bs=1 seek=1000 conv=notrunc 2>/dev/null
            """)
        XCTAssertEqual(stale.status, 0, stale.err)
        let sides = try transfer(port: try Self.freePort(), recv: "--into dst", send: "< records.ndjson")
        XCTAssertEqual(sides.send.status, 65, sides.send.err)
        XCTAssertEqual(sides.send.err, "atl-send: src/file-01.bin changed since its sha256 was noted in its record; import it again, or send the file by name\n")
        XCTAssertEqual(sides.recv.status, 69, sides.recv.err)
        XCTAssertTrue(sides.recv.err.contains("file-01.bin changed on the sender since it was recorded"), sides.recv.err)
        XCTAssertEqual(try sh.run("find dst -type f -not -path '*/.atl-partial/*' -name 'file-01.bin'").out, "", "the changed file is not published")
    }

    func testASecondSendTakesHashesFromTheCacheAndStillChecksThem() throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 3 200000")
        try assertSucceeded(try transfer(port: try Self.freePort(), recv: "--into first", send: "src"))
        XCTAssertEqual(try sh.run("wc -l < .cache/atelier/send-hashes.tsv").out.trimmingCharacters(in: .whitespaces), "3\n")
        // Changed and given a new time: hashed afresh (and noted with that time).
        try sh.run("printf 'X' | dd of=src/file-02.bin bs=1 seek=99 conv=notrunc 2>/dev/null")
        try sh.run("python3 -c \"import os; os.utime('src/file-02.bin', ns=(1700000000000000000, 1700000000000000000))\"")
        try assertSucceeded(try transfer(port: try Self.freePort(), recv: "--into second", send: "src"))
        // Changed again, same size and modification time: the change time, which nobody can
        // put back, tells the cache it no longer vouches; hashed afresh, it goes through
        // (SendHashCacheTests has the stale line that slips past even that).
        try sh.run("printf 'Y' | dd of=src/file-02.bin bs=1 seek=99 conv=notrunc 2>/dev/null")
        try sh.run("python3 -c \"import os; os.utime('src/file-02.bin', ns=(1700000000000000000, 1700000000000000000))\"")
        let fresh = try transfer(port: try Self.freePort(), recv: "--into fourth", send: "src")
        try assertSucceeded(fresh)
        let batch = try XCTUnwrap(fresh.recv.records.last?["id"] as? String)
        try assertTreeEqual("src", "fourth/\(batch)/src")
    }

    func testKnockingOnThePortDoesNotStopTheReceiver() throws {
        // A port scanner or a stray client is not a guess at the code: the receiver says so
        // and keeps waiting for the real sender.
        try sh.run("python3 \(Self.support)/make_tree.py flat src 2 1000")
        let port = try Self.freePort()
        let sides = try together([
            "recv": "timeout 60 atl-recv --listen 127.0.0.1:\(port) --code \(Self.code) --into dst --wait 30",
            "send": """
                for i in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/\(port)) 2>/dev/null && break; sleep 0.05; done
                bash -c 'exec 3<>/dev/tcp/127.0.0.1/\(port); head -c 56 /dev/zero >&3; sleep 0.2'
                timeout 60 atl-send --to 127.0.0.1:\(port) --code \(Self.code) --wait 30 src
                """,
        ])
        let recv = sides["recv"]!, send = sides["send"]!
        XCTAssertEqual(recv.status, 0, recv.err)
        XCTAssertEqual(send.status, 0, send.err)
        XCTAssertEqual(recv.err.components(separatedBy: "connected but did not pair").count - 1, 2, recv.err)
        XCTAssertTrue(recv.err.contains("initiate message does not start with ATLS"), recv.err)
        XCTAssertEqual(recv.records.last?["status"] as? String, "complete")
    }

    func testWrongCodeFailsBothSidesWith77AndWritesNothing() throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 2 1000")
        let sides = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src", sendCode: "7-crane-ocean")
        XCTAssertEqual(sides.recv.status, 77)
        XCTAssertEqual(sides.send.status, 77)
        XCTAssertEqual(sides.recv.err, "atl-recv: wrong pairing code: the two sides typed different codes; nothing was transferred\n")
        XCTAssertEqual(sides.send.err, "atl-send: wrong pairing code: the two sides typed different codes; nothing was transferred\n")
        XCTAssertEqual(sides.recv.out + sides.send.out, "")
        XCTAssertEqual(try sh.run("find dst 2>/dev/null").out, "", "not even the batch directory")
    }

    // MARK: Damaged streams

    func testFlippedByteInFlightFailsBothSidesAndDamagesNothingThenResumes() throws {
        // The receiver detects it and tells the sender, which reports the peer's reason.
        try damagedStreamThenResume(proxy: "--flip-at 5000000", recvMessage: "failed authentication: the stream was tampered with, reordered or replayed\n",
                                    sendStatus: 69, sendMessages: ["atl-send: the peer aborted: protocol error: frame "])
    }

    func testCutConnectionFailsBothSidesAndDamagesNothingThenResumes() throws {
        try damagedStreamThenResume(proxy: "--cut-at 3000000", recvMessage: "the stream ended before the peer closed it", sendStatus: 74,
                                    sendMessages: ["atl-send: the stream ended before the peer closed it", "atl-send: the connection broke: "])
    }

    /// Runs the nested tree through `transfer_proxy.py` with `proxy` damage, checks that both
    /// sides fail sensibly and that every file in the destination is complete and correct,
    /// then runs again without the proxy and checks the batch completes.
    func damagedStreamThenResume(proxy: String, recvMessage: String, sendStatus: Int32, sendMessages: [String],
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        try sh.run("python3 \(Self.support)/make_tree.py nested src")
        let receiverPort = try Self.freePort(), proxyPort = try Self.freePort()
        let sides = try together([
            "recv": "timeout 60 atl-recv --listen 127.0.0.1:\(receiverPort) --code \(Self.code) --into dst --timeout 10",
            "proxy": "timeout 60 python3 \(Self.support)/transfer_proxy.py \(proxyPort) \(receiverPort) \(proxy)",
            "send": "timeout 60 atl-send --to 127.0.0.1:\(proxyPort) --code \(Self.code) --timeout 10 src",
        ])
        let recv = sides["recv"]!, send = sides["send"]!
        XCTAssertTrue(sides["proxy"]!.err.hasPrefix("damaged at"), sides["proxy"]!.err, file: file, line: line)
        XCTAssertEqual(recv.status, 74, recv.err, file: file, line: line)
        XCTAssertTrue(recv.err.hasPrefix("atl-recv: ") && recv.err.contains(recvMessage), recv.err, file: file, line: line)
        XCTAssertEqual(recv.err.filter { $0 == "\n" }.count, 1, "one line: \(recv.err)", file: file, line: line)
        XCTAssertEqual(send.status, sendStatus, send.err, file: file, line: line)
        XCTAssertTrue(sendMessages.contains { send.err.hasPrefix($0) }, send.err, file: file, line: line)
        XCTAssertEqual(send.err.filter { $0 == "\n" }.count, 1, "one line: \(send.err)", file: file, line: line)
        XCTAssertNil(recv.records.first { $0["type"] as? String == "batch" }, "no END_BATCH", file: file, line: line)
        XCTAssertNil(send.records.first { $0["type"] as? String == "batch" }, file: file, line: line)
        // Whatever landed is whole and right; the rest is only under .atl-partial.
        let landed = try assertNothingDamaged(source: "src", destination: "dst", file: file, line: line)
        XCTAssertEqual(Set(recv.records.compactMap { $0["name"] as? String }), landed, "a record for each file in place", file: file, line: line)
        XCTAssertLessThan(landed.count, 30, file: file, line: line)
        let partial = Int(try sh.run("find dst -path '*/.atl-partial/*' -name '*.part' -size +0 -type f | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines))

        let again = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src")
        try assertSucceeded(again, file: file, line: line)
        let statuses = again.recv.records.dropLast().compactMap { $0["status"] as? String }
        XCTAssertEqual(statuses.filter { $0 == "present" }.count, landed.count, file: file, line: line)
        XCTAssertEqual(statuses.filter { $0 == "resumed" }.count, partial, "a partial file continues", file: file, line: line)
        let batch = try XCTUnwrap(again.recv.records.last?["id"] as? String)
        try assertTreeEqual("src", "dst/\(batch)/src", file: file, line: line)
    }

    // MARK: Interrupted transfers

    func testReceiverKilledHalfwayThenBothRerunResumes() throws {
        try killHalfwayThenResume(victim: "recv", survivorMessages: ["atl-send: the connection broke: ", "atl-send: the stream ended before the peer closed it"])
    }

    func testSenderKilledHalfwayThenBothRerunResumes() throws {
        try killHalfwayThenResume(victim: "send", survivorMessages: ["atl-recv: the connection broke: ", "atl-recv: the stream ended before the peer closed it"])
    }

    /// Sends 4 files of 3 MB at 4 MB/s, kills `victim` with SIGKILL once one file is in place
    /// and the next has bytes in `.atl-partial`, checks the other side fails at once with one
    /// line (starting with one of `survivorMessages`: a reset or an end of stream, depending on
    /// what the kernel saw first) and nothing in place is damaged, then reruns both:
    /// files in place are "present", a partial one "resumed", and fewer bytes move.
    func killHalfwayThenResume(victim: String, survivorMessages: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 4 3000000")
        let port = try Self.freePort()
        // No `timeout` wrapper around the tools here: $! must be the tool itself, for kill -9;
        // --wait and --timeout bound them instead.
        let script = """
            atl-recv --listen 127.0.0.1:\(port) --code \(Self.code) --into dst --wait 30 --timeout 5 --line-buffered > .t-recv.out 2> .t-recv.err & recv=$!
            atl-send --to 127.0.0.1:\(port) --code \(Self.code) --wait 30 --timeout 5 --limit-rate 4M --line-buffered src > .t-send.out 2> .t-send.err & send=$!
            for i in $(seq 400); do
                [ "$(grep -c '"capture"' .t-recv.out)" -ge 1 ] && [ -n "$(find dst -path '*/.atl-partial/*' -name '*.part' -size +0 2>/dev/null)" ] && break
                sleep 0.05
            done
            kill -9 $\(victim)
            wait $recv; echo $? > .t-recv.status
            wait $send; echo $? > .t-send.status
            """
        let started = Date()
        let run = try sh.run(script)
        XCTAssertEqual(run.status, 0, run.err, file: file, line: line)
        let dead = try side(victim), survivor = try side(victim == "recv" ? "send" : "recv")
        XCTAssertEqual(dead.status, 128 + 9, dead.err, file: file, line: line)
        XCTAssertEqual(survivor.status, 74, survivor.err, file: file, line: line)
        XCTAssertTrue(survivorMessages.contains { survivor.err.hasPrefix($0) }, survivor.err, file: file, line: line)
        XCTAssertEqual(survivor.err.filter { $0 == "\n" }.count, 1, "one line: \(survivor.err)", file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "the survivor noticed at once, no hang", file: file, line: line)
        let landed = try assertNothingDamaged(source: "src", destination: "dst", file: file, line: line)
        XCTAssertGreaterThanOrEqual(landed.count, 1, file: file, line: line)
        XCTAssertLessThan(landed.count, 4, file: file, line: line)
        let partial = try sh.run("find dst -path '*/.atl-partial/*' -name '*.part' -size +0 -type f | wc -l").out
        XCTAssertEqual(partial, "1\n", "one file was cut short", file: file, line: line)

        let again = try transfer(port: try Self.freePort(), recv: "--into dst", send: "src")
        try assertSucceeded(again, file: file, line: line)
        for (records, fresh) in [(again.recv.records, "received"), (again.send.records, "sent")] {
            let statuses = records.dropLast().map { $0["status"] as? String ?? "" }
            XCTAssertEqual(statuses.filter { $0 == "present" }.count, landed.count, "\(statuses)", file: file, line: line)
            XCTAssertEqual(statuses.filter { $0 == "resumed" }.count, 1, "\(statuses)", file: file, line: line)
            XCTAssertEqual(statuses.filter { $0 == fresh }.count, 3 - landed.count, "\(statuses)", file: file, line: line)
        }
        let sent = try XCTUnwrap(again.send.records.last?["sent"] as? Int, file: file, line: line)
        XCTAssertLessThanOrEqual(sent, 12_000_000 - landed.count * 3_000_000 - 1 << 20, "a resumed file continues, it does not start over", file: file, line: line)
        let batch = try XCTUnwrap(again.recv.records.last?["id"] as? String, file: file, line: line)
        try assertTreeEqual("src", "dst/\(batch)/src", file: file, line: line)
    }

    /// With a batch named by --batch (not by its content), a file that changed between an
    /// interrupted run and the rerun must start over, not continue the old file's bytes.
    func testChangedFileUnderTheSameBatchNameStartsOverInsteadOfResuming() throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 1 3000000")
        let receiverPort = try Self.freePort(), proxyPort = try Self.freePort()
        let cut = try together([
            "recv": "timeout 60 atl-recv --listen 127.0.0.1:\(receiverPort) --code \(Self.code) --into dst --timeout 10",
            "proxy": "timeout 60 python3 \(Self.support)/transfer_proxy.py \(proxyPort) \(receiverPort) --cut-at 2500000",
            "send": "timeout 60 atl-send --to 127.0.0.1:\(proxyPort) --code \(Self.code) --timeout 10 --batch scans src",
        ])
        XCTAssertEqual(cut["recv"]!.status, 74, cut["recv"]!.err)
        XCTAssertEqual(try sh.run("find dst -path '*/.atl-partial/*' -name '*.part' -size +0 -type f | wc -l").out, "1\n", "a partial file is left")
        // The photo is retaken: same name, same size, other bytes.
        try sh.run("rm -r src && mkdir other && python3 \(Self.support)/make_tree.py flat other 1 3000000 && python3 \(Self.support)/make_tree.py flat src 2 3000000 && rm src/file-01.bin")
        XCTAssertNotEqual(try sh.run("cmp -s src/file-00.bin other/file-00.bin").status, 0, "other bytes than before")
        let again = try transfer(port: try Self.freePort(), recv: "--into dst", send: "--batch scans src")
        try assertSucceeded(again)
        XCTAssertEqual(again.recv.records.first?["status"] as? String, "received", "started over")
        XCTAssertEqual(again.send.records.last?["sent"] as? Int, 3_000_000)
        try assertTreeEqual("src", "dst/scans/src")
        XCTAssertEqual(try sh.run("cd dst && find . | sort").lines, [".", "./scans", "./scans/src", "./scans/src/file-00.bin"], "the stale partial file is gone")
    }

    func testStalledReceiverTimesOutTheSender() throws {
        try sh.run("python3 \(Self.support)/make_tree.py flat src 4 3000000")
        let port = try Self.freePort()
        let script = """
            atl-recv --listen 127.0.0.1:\(port) --code \(Self.code) --into dst --wait 30 --timeout 5 --line-buffered > .t-recv.out 2> .t-recv.err & recv=$!
            timeout 60 atl-send --to 127.0.0.1:\(port) --code \(Self.code) --wait 30 --timeout 2 --limit-rate 4M src > .t-send.out 2> .t-send.err & send=$!
            for i in $(seq 400); do [ "$(grep -c '"capture"' .t-recv.out)" -ge 1 ] && break; sleep 0.05; done
            kill -STOP $recv
            wait $send; echo $? > .t-send.status
            kill -CONT $recv
            wait $recv; echo $? > .t-recv.status
            """
        let started = Date()
        XCTAssertEqual(try sh.run(script).status, 0)
        let send = try side("send"), recv = try side("recv")
        XCTAssertEqual(send.status, 75, send.err)
        XCTAssertTrue(send.err.hasPrefix("atl-send: timed out after 2 s "), send.err)
        XCTAssertEqual(send.err.filter { $0 == "\n" }.count, 1, send.err)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        XCTAssertEqual(recv.status, 74, "the receiver, woken up, finds the sender gone: \(recv.err)")
        _ = try assertNothingDamaged(source: "src", destination: "dst")
    }

    // MARK: The receiver's disk

    func testExistingFileIsNotOverwrittenUnlessAsked() throws {
        try sh.run("mkdir -p dst/mine && printf other > dst/mine/photo.jpg && printf 'the photo' > photo.jpg")
        let refused = try transfer(port: try Self.freePort(), recv: "--into dst", send: "--batch mine photo.jpg")
        XCTAssertEqual(refused.recv.status, 73)
        XCTAssertEqual(refused.recv.err, "atl-recv: dst/mine/photo.jpg exists with other content (use --overwrite to replace it)\n")
        XCTAssertEqual(refused.send.status, 73)
        XCTAssertEqual(refused.send.err, "atl-send: the peer aborted: refused to overwrite an existing file: dst/mine/photo.jpg exists with other content (use --overwrite to replace it)\n")
        XCTAssertEqual(try sh.run("cd dst && find . | sort; cat mine/photo.jpg").lines, [".", "./mine", "./mine/photo.jpg", "other"], "untouched")

        let replaced = try transfer(port: try Self.freePort(), recv: "--into dst --overwrite", send: "--batch mine photo.jpg")
        try assertSucceeded(replaced)
        XCTAssertEqual(replaced.recv.records.first?["status"] as? String, "received")
        XCTAssertEqual(try sh.run("cmp photo.jpg dst/mine/photo.jpg && cd dst && find . | sort").lines, [".", "./mine", "./mine/photo.jpg"])
    }

    func testFullDiskIsRefusedUpFrontAndTheSenderHearsWhy() throws {
        // A 2 MB tmpfs in a mount namespace of its own (root only, as in CI).
        guard try sh.run("unshare -m true").status == 0 else { throw XCTSkip("needs unshare -m (root)") }
        try sh.run("python3 \(Self.support)/make_tree.py flat src 1 5000000 && mkdir small")
        let port = try Self.freePort()
        let sides = try together([
            "recv": "unshare -m sh -c 'mount -t tmpfs -o size=2m none small && timeout 60 atl-recv --listen 127.0.0.1:\(port) --code \(Self.code) --into small/dst --wait 30; s=$?; find small -mindepth 1 > small.list; exit $s'",
            "send": "timeout 60 atl-send --to 127.0.0.1:\(port) --code \(Self.code) --wait 30 src",
        ])
        let recv = sides["recv"]!, send = sides["send"]!
        XCTAssertEqual(recv.status, 73, recv.err)
        XCTAssertTrue(recv.err.hasPrefix("atl-recv: not enough space in small: the batch needs 5.0 MB more, "), recv.err)
        XCTAssertTrue(recv.err.hasSuffix(" free\n"), recv.err)
        XCTAssertEqual(send.status, 73, send.err)
        XCTAssertEqual(send.err, "atl-send: the peer aborted: not enough disk space: " + recv.err.dropFirst("atl-recv: ".count))
        XCTAssertEqual(recv.out + send.out, "")
        XCTAssertEqual(try sh.run("cat small.list").out, "", "nothing written on the small disk")
    }

    // MARK: Bad input

    func testBadArgumentsAndInputAreNamedWithTheirExitCodes() throws {
        try sh.run("printf x > a.jpg")
        let port = try Self.freePort()
        let send = "timeout 60 atl-send --code \(Self.code) --to 127.0.0.1:\(port)"
        let cases: [(command: String, status: Int32, message: String)] = [
            ("\(send) a.jpg missing.jpg", 66, "atl-send: missing.jpg: No such file or directory\n"),
            ("timeout 60 atl-send --code 7-crane-orbt --to 127.0.0.1:\(port) a.jpg", 64, "atl-send: --code: \"orbt\" is not a pairing-code word"),
            ("timeout 60 atl-recv --code 7-crane-orbt", 64, "atl-recv: --code: \"orbt\" is not a pairing-code word"),
            ("timeout 60 atl-send --code \(Self.code) --to no-port a.jpg", 64, "atl-send: \"no-port\" is not HOST:PORT"),
            ("timeout 60 atl-recv --code \(Self.code) --listen 127.0.0.1:http", 64, "atl-recv: \"127.0.0.1:http\" is not HOST:PORT"),
            ("printf '{\"path\":\"a.jpg\"}\\n{\"path\": a.jpg}\\n' | \(send)", 65, "atl-send: stdin:2:"),
            ("\(send) --wait 1 a.jpg", 69, "atl-send: cannot connect to 127.0.0.1:\(port): Connection refused\n"),
            ("timeout 60 atl-recv --code \(Self.code) --listen 127.0.0.1:\(port) --wait 1", 75, "atl-recv: timed out after 1 s waiting for the sender to connect\n"),
        ]
        for (command, status, message) in cases {
            let result = try sh.run(command)
            XCTAssertEqual(result.status, status, "\(command): \(result.err)")
            XCTAssertTrue(result.err.hasPrefix(message), "\(command): \(result.err)")
            XCTAssertEqual(result.out, "", command)
        }
    }

    // MARK: Helpers

    /// What one tool printed, and how it ended.
    struct Side {
        var out: String
        var err: String
        var status: Int32
        var records: [[String: Any]] {
            out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// Runs each command (a bash pipeline) at once in the scratch directory and waits for all.
    func together(_ commands: [String: String]) throws -> [String: Side] {
        let names = commands.keys.sorted()
        var script = ""
        for (i, name) in names.enumerated() {
            script += "( \(commands[name]!) ) > .t-\(name).out 2> .t-\(name).err & p\(i)=$!\n"
        }
        for (i, name) in names.enumerated() { script += "wait $p\(i); echo $? > .t-\(name).status\n" }
        let run = try sh.run(script)
        XCTAssertEqual(run.status, 0, run.err)
        var sides: [String: Side] = [:]
        for name in names { sides[name] = try side(name) }
        return sides
    }

    /// What the command named `name` left in `.t-NAME.out`, `.err` and `.status`.
    func side(_ name: String) throws -> Side {
        func read(_ ext: String) throws -> String { try String(contentsOfFile: "\(sh.dir)/.t-\(name).\(ext)", encoding: .utf8) }
        return Side(out: try read("out"), err: try read("err"), status: Int32(try read("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
    }

    /// atl-recv on `port` and atl-send to it, with the arguments given (and --code).
    func transfer(port: Int, recv: String, send: String, sendCode: String = code) throws -> (recv: Side, send: Side) {
        let sides = try together([
            "recv": "timeout 60 atl-recv --listen 127.0.0.1:\(port) --code \(Self.code) --wait 30 \(recv)",
            "send": "timeout 60 atl-send --to 127.0.0.1:\(port) --code \(sendCode) --wait 30 \(send)",
        ])
        return (sides["recv"]!, sides["send"]!)
    }

    func assertSucceeded(_ sides: (recv: Side, send: Side), file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(sides.recv.status, 0, sides.recv.err, file: file, line: line)
        XCTAssertEqual(sides.send.status, 0, sides.send.err, file: file, line: line)
        XCTAssertEqual(sides.recv.err, "", "quiet when stderr is not a terminal", file: file, line: line)
        XCTAssertEqual(sides.send.err, "", file: file, line: line)
    }

    /// Checks both sides' records against the source files: one capture record per file with
    /// its name, sha256, size and status, then the batch record (last, complete). Returns the
    /// batch id.
    @discardableResult
    func assertRecords(_ sides: (recv: Side, send: Side), expected: [String: (sha256: String, bytes: Int)], recvStatus: String, sendStatus: String,
                       file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let total = expected.values.reduce(0) { $0 + $1.bytes }
        let recvBatch = try XCTUnwrap(sides.recv.records.last, file: file, line: line)
        let sendBatch = try XCTUnwrap(sides.send.records.last, file: file, line: line)
        let batch = try XCTUnwrap(recvBatch["id"] as? String, file: file, line: line)
        XCTAssertTrue(batch.hasPrefix("b_"), batch, file: file, line: line)
        for (batchRecord, side) in [(recvBatch, "recv"), (sendBatch, "send")] {
            XCTAssertEqual(batchRecord["type"] as? String, "batch", side, file: file, line: line)
            XCTAssertEqual(batchRecord["status"] as? String, "complete", side, file: file, line: line)
            XCTAssertEqual(batchRecord["id"] as? String, batch, side, file: file, line: line)
            XCTAssertEqual(batchRecord["count"] as? Int, expected.count, side, file: file, line: line)
            XCTAssertEqual(batchRecord["bytes"] as? Int, total, side, file: file, line: line)
        }
        XCTAssertEqual(recvBatch["dir"] as? String, "\(sh.dir)/dst/\(batch)", file: file, line: line)
        for (records, status, side) in [(sides.recv.records.dropLast(), recvStatus, "recv"), (sides.send.records.dropLast(), sendStatus, "send")] {
            XCTAssertEqual(records.count, expected.count, side, file: file, line: line)
            XCTAssertEqual(Set(records.compactMap { $0["index"] as? Int }), Set(0..<expected.count), side, file: file, line: line)
            for record in records {
                let name = record["name"] as? String ?? ""
                XCTAssertEqual(record["type"] as? String, "capture", side, file: file, line: line)
                XCTAssertEqual(record["batch"] as? String, batch, side, file: file, line: line)
                XCTAssertEqual(record["sha256"] as? String, expected[name]?.sha256, "\(side) \(name)", file: file, line: line)
                XCTAssertEqual(record["bytes"] as? Int, expected[name]?.bytes, "\(side) \(name)", file: file, line: line)
                XCTAssertEqual(record["status"] as? String, status, "\(side) \(name)", file: file, line: line)
                let path = side == "recv" ? "\(sh.dir)/dst/\(batch)/\(name)" : name
                XCTAssertEqual(record["path"] as? String, path, side, file: file, line: line)
            }
        }
        return batch
    }

    /// sha256 and size of every file under `directory`, by path relative to the scratch dir.
    func sourceFiles(_ directory: String) throws -> [String: (sha256: String, bytes: Int)] {
        let listing = try sh.run("find \(directory) -type f -printf '%s ' -exec sha256sum {} \\;")
        XCTAssertEqual(listing.status, 0, listing.err)
        var files: [String: (sha256: String, bytes: Int)] = [:]
        for line in listing.lines {
            let fields = line.split(separator: " ", maxSplits: 2)
            files[String(fields[2].drop { $0 == " " })] = (String(fields[1]), Int(fields[0])!)
        }
        return files
    }

    /// The two trees hold the same files with the same bytes, and nothing else.
    func assertTreeEqual(_ a: String, _ b: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let diff = try sh.run("diff -r '\(a)' '\(b)' && [ \"$(cd '\(a)' && find . | sort)\" = \"$(cd '\(b)' && find . | sort)\" ]")
        XCTAssertEqual(diff.status, 0, "\(a) and \(b) differ: \(diff.out)\(diff.err)", file: file, line: line)
    }

    /// Every regular file under `destination` outside `.atl-partial` is byte-identical to the
    /// file of the same name under the scratch directory (its source). Returns the names.
    func assertNothingDamaged(source: String, destination: String, file: StaticString = #filePath, line: UInt = #line) throws -> Set<String> {
        let found = try sh.run("cd \(destination) && find . -type f -not -path '*/.atl-partial/*' | sort")
        var names = Set<String>()
        for path in found.lines {
            // ./<batch>/src/… → src/…
            let name = path.split(separator: "/").dropFirst(2).joined(separator: "/")
            XCTAssertTrue(name.hasPrefix(source + "/"), path, file: file, line: line)
            XCTAssertEqual(try sh.run("cmp '\(name)' '\(destination)/\(path)'").status, 0, "\(path) differs from \(name)", file: file, line: line)
            names.insert(name)
        }
        return names
    }

    /// A TCP port on 127.0.0.1 that nothing listens on, and that no earlier call of this run
    /// handed out.
    ///
    /// Regression: the system's choice (bind to port 0, released at once) could give two calls in
    /// a row the same port, so a receiver and its proxy met "Address already in use", and it lies
    /// in the ephemeral range, where any outgoing connection may take it before the tool binds.
    /// So the port is drawn below that range (32768 and up on Linux) and never twice.
    static func freePort() throws -> Int {
        try PortAllocator.shared.next()
    }
}

/// Hands out distinct ports below the ephemeral range that can be bound on 127.0.0.1 now.
final class PortAllocator: @unchecked Sendable {
    static let shared = PortAllocator()
    private let lock = NSLock()
    private var handedOut = Set<Int>()

    func next() throws -> Int {
        try lock.withLock {
            for _ in 0..<500 {
                let port = Int.random(in: 20_000..<32_000)
                guard !handedOut.contains(port), Self.canBind(port) else { continue }
                handedOut.insert(port)
                return port
            }
            throw POSIXError(.EADDRINUSE)
        }
    }

    private static func canBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
