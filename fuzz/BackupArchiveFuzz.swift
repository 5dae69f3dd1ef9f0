import Foundation
import ZIPFoundation
@testable import AtelierFormats
@testable import AtelierRecords

// libFuzzer harness for the backup reader (build and run with `fuzz/run.sh backup SECONDS`).
//
// An input is either a zip as it is (first byte even), or, with the first byte odd, a recipe
// for one: members with names, contents, modes and declared sizes taken from the bytes, and a
// metadata.json that lists sha256 checksums for some of them (right, wrong, malformed, or for
// members that are not there), built with StoredZip (Tests/AtelierTestSupport) so that runs
// reach the checks behind the checksums. The archive goes to `BackupArchive.Reader`, and every
// member it accepts is extracted under a target directory. The oracle: the reader throws only
// its own errors; a member it lists has a safe name, a checksum and no twin; an extracted file
// is exactly the bytes that checksum names; and nothing is written anywhere but under the target
// (the sandbox around it holds the archive and the target only). A disagreement aborts;
// AddressSanitizer and Swift's traps catch the rest.
//
// swift-crypto is not built here: the SHA256 below stands in for its type (FIPS 180-4, checked
// against the standard's test vectors as the harness starts).

let sandbox: String = {
    let path = NSTemporaryDirectory() + "atelier-backup-fuzz-\(getpid())"
    try? FileManager.default.removeItem(atPath: path)
    mkdir(path, 0o755)
    precondition(SHA256.selfTest(), "the stand-in SHA256 disagrees with FIPS 180-4's vectors")
    return path
}()

func fail(_ message: String, _ bytes: [UInt8]) -> Never {
    FileHandle.standardError.write(Data("backup fuzz: \(message)\n  input: \(bytes.count) bytes\n".utf8))
    abort()
}

/// The archive a recipe describes.
func recipe(_ input: ArraySlice<UInt8>) -> [UInt8] {
    var bytes = input.makeIterator()
    func next() -> UInt8 { bytes.next() ?? 0 }
    let pieces = ["images/", "tables/", "models/", "ab/", "a", "x.jpg", "garment.ndjson", "../", "..", ".", "/", "\\", "\u{0}",
                  "\u{1F}", "é", "\u{301}", "metadata.json", "//", "thumbs/"]
    var members: [StoredZip.Member] = []
    var sums = JSONObject()
    for _ in 0..<(1 + Int(next() % 6)) {
        let name = (0..<(1 + Int(next() % 5))).map { _ in pieces[Int(next()) % pieces.count] }.joined()
        let content = (0..<Int(next() % 48)).map { _ in next() }
        let flags = next()
        let mode = [0o100644, 0o100644, 0o40755, 0o120777][Int(flags & 3)]
        let declared: Int? = flags & 4 != 0 ? Int(next()) : nil
        members.append(StoredZip.Member(name, content, mode: mode, declaredSize: declared))
        switch (flags >> 3) & 3 {
        case 0, 1: sums[name] = .string(StoredZip.checksum(content))
        case 2: sums[name] = .string(StoredZip.checksum(content + [1]))
        default: sums[name] = .string("sha256:" + String(decoding: (0..<Int(next() % 70)).map { _ in UInt8(ascii: "a") }, as: UTF8.self))
        }
    }
    if next() & 1 == 1 { sums["images/gone.jpg"] = .string(StoredZip.checksum([])) }
    let version = Int64(next() % 3)
    let meta: JSONObject = ["format": "atelier-backup", "formatVersion": .int(version), "checksums": .object(sums)]
    return StoredZip.make(members + [StoredZip.Member("metadata.json", Array(JSONWriter.string(.object(meta)).utf8))])
}

/// Every path under `dir`, relative, symbolic links not followed.
func tree(_ dir: String) -> [String] {
    (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String]) ?? []
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackupArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let bytes = input.first.map { $0 & 1 == 1 } == true ? recipe(input.dropFirst()) : input
    let archive = sandbox + "/archive.atelier"
    let target = sandbox + "/target"
    guard FileManager.default.createFile(atPath: archive, contents: Data(bytes)) else { fail("cannot write \(archive)", input) }
    defer { try? FileManager.default.removeItem(atPath: target) }
    let limits = BackupArchive.Limits(metadataBytes: 1 << 20, memberBytes: 1 << 20, totalBytes: 4 << 20, memberCount: 1000)
    let reader: BackupArchive.Reader
    do {
        reader = try BackupArchive.Reader(path: archive, limits: limits)
    } catch BackupError.badArchive {
        return 0
    } catch {
        fail("the reader threw something not its own: \(error)", input)
    }
    var seen = Set<String>()
    for name in reader.members {
        guard BackupArchive.Reader.isSafeMemberName(name) else { fail("member \(name.debugDescription) is listed but unsafe", input) }
        guard seen.insert(name).inserted else { fail("member \(name.debugDescription) is listed twice", input) }
        guard let sum = reader.checksum(of: name) else { fail("member \(name.debugDescription) has no checksum", input) }
        do {
            try reader.extract(name, under: target)
            guard let written = FileManager.default.contents(atPath: target + "/" + name) else { fail("\(name.debugDescription) extracted but not there", input) }
            guard StoredZip.checksum(Array(written)) == sum else { fail("\(name.debugDescription) extracted with other bytes than its checksum names", input) }
        } catch BackupError.badArchive {
        } catch {
            fail("extracting \(name.debugDescription) threw \(error)", input)
        }
    }
    // (On bytes: a name may start with a combining mark, which String's hasPrefix would join to the `/`.)
    let outside = tree(sandbox).filter { $0 != "archive.atelier" && $0 != "target" && !$0.utf8.starts(with: "target/".utf8) }
    if !outside.isEmpty { fail("files written outside the target: \(outside)", input) }
    let parent = (sandbox as NSString).deletingLastPathComponent
    if FileManager.default.fileExists(atPath: parent + "/x") || FileManager.default.fileExists(atPath: parent + "/abs") { fail("a file escaped the sandbox", input) }
    return 0
}

/// SHA-256 (FIPS 180-4), standing in for swift-crypto's with the part of its API the reader uses.
public struct SHA256 {
    public struct Digest: Sequence {
        let bytes: [UInt8]
        public func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    }

    private var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
        0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
        0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    public init() {}

    static func hash<D: DataProtocol>(data: D) -> Digest {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }

    public mutating func update<D: DataProtocol>(data: D) {
        length &+= UInt64(data.count)
        pending.append(contentsOf: data)
        var start = 0
        while pending.count - start >= 64 {
            compress(pending[start..<(start + 64)])
            start += 64
        }
        pending.removeFirst(start)
    }

    public func finalize() -> Digest {
        var copy = self
        let bits = length &* 8
        copy.pending.append(0x80)
        while copy.pending.count % 64 != 56 { copy.pending.append(0) }
        copy.pending += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
        var start = 0
        while start < copy.pending.count {
            copy.compress(copy.pending[start..<(start + 64)])
            start += 64
        }
        return Digest(bytes: copy.state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } })
    }

    private mutating func compress(_ block: ArraySlice<UInt8>) {
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        var w = [UInt32](repeating: 0, count: 64)
        let base = block.startIndex
        for i in 0..<16 {
            w[i] = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(block[base + 4 * i + $1]) }
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for i in 0..<64 {
            let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ Self.k[i] &+ w[i]
            let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        for (i, value) in [a, b, c, d, e, f, g, h].enumerated() { state[i] = state[i] &+ value }
    }

    /// FIPS 180-4's examples: "abc", the empty string, and the 448-bit message.
    static func selfTest() -> Bool {
        func hex(_ text: String) -> String { hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        return hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
            && hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
            && hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    }
}
