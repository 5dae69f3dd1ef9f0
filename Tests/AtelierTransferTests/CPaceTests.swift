import AtelierRecords
import AtelierTestSupport
import XCTest
@testable import AtelierTransfer

/// CPACE-X25519-SHA512 against draft-irtf-cfrg-cpace (the -21 text, April 2026, from the
/// cfrg/draft-irtf-cfrg-cpace repository): appendix A.1 (prepend_len, lv_cat), A.3.5
/// (transcript_ir) and B.1 (generator, shares, K, ISK, low-order points), values as printed there.
final class CPaceTests: XCTestCase {
    // B.1.1 inputs.
    let prs = Array("Password".utf8)
    let ci = hex("0b415f696e69746961746f720b425f726573706f6e646572")
    let sid = hex("7e4b4791d6a8ef019b936c79fb7f2c57")
    let ya = hex("21b4f4bd9e64ed355c3eb676a28ebedaf6d8f17bdc365995b319097153044080")
    let yb = hex("848b0779ff415f0af4ea14df9dd1d3c29ac41d836c7808896c4eba19c51ac40a")

    func testStringFunctionsMatchAppendixA() {
        XCTAssertEqual(hex(CPace.prependLength([])), "00")
        XCTAssertEqual(hex(CPace.prependLength(Array("1234".utf8))), "0431323334")
        XCTAssertEqual(Array(CPace.prependLength(Array(0..<127)).prefix(2)), [0x7F, 0x00])
        XCTAssertEqual(Array(CPace.prependLength(Array(0..<128)).prefix(3)), [0x80, 0x01, 0x00])
        XCTAssertEqual(CPace.prependLength(Array(0..<128)).count, 130)
        XCTAssertEqual(hex(CPace.lvCat([Array("1234".utf8), Array("5".utf8), [], Array("678".utf8)])), "043132333401350003363738")
        XCTAssertEqual(hex(CPace.transcriptIR(Array("123".utf8), Array("PartyA".utf8), Array("234".utf8), Array("PartyB".utf8))),
                       "03313233065061727479410332333406506172747942")
    }

    func testGeneratorMatchesB11() {
        let generatorString = CPace.generatorString(prs: prs, ci: ci, sid: sid)
        XCTAssertEqual(generatorString.count, 170)
        XCTAssertEqual(hex(generatorString), """
            0843506163653235350850617373776f72646d000000000000000000\
            00000000000000000000000000000000000000000000000000000000\
            00000000000000000000000000000000000000000000000000000000\
            00000000000000000000000000000000000000000000000000000000\
            00000000000000000000000000000000180b415f696e69746961746f\
            720b425f726573706f6e646572107e4b4791d6a8ef019b936c79fb7f\
            2c57
            """)
        XCTAssertEqual(hex(Field25519(bytes: hex("03998087bdb1a2617bbe25ef5a7c18cd4f84f902328701790958755ee4aed1d3")).bytes),
                       "03998087bdb1a2617bbe25ef5a7c18cd4f84f902328701790958755ee4aed153", "decodeUCoordinate clears bit 255")
        XCTAssertEqual(hex(CPace.generator(prs: prs, ci: ci, sid: sid)), "d04bf6d41f6a289632a2e929fa29bebd51092512a7829fdde7d314b62f05a73f")
    }

    func testSharesSecretAndISKMatchB12ToB15() throws {
        let a = try CPace(prs: prs, ci: ci, sid: sid, scalar: ya)
        let b = try CPace(prs: prs, ci: ci, sid: sid, scalar: yb)
        XCTAssertEqual(hex(a.share), "1d13c89278cdadd826f6d8d7f887701430f8380ddc17611cdd6dc989ce0c9f32")
        XCTAssertEqual(hex(b.share), "248cccf6d5cdc3646f0ad593f9e6cef4e69d4945f8372e623512ecea32185623")
        let k = "5b067effbdc0b2a0e1d907b21ebb25cfedb96a852179a847c37e43ee71322c6b"
        XCTAssertEqual(hex(try CPace.x25519(ya, b.share)), k)
        XCTAssertEqual(hex(try CPace.x25519(yb, a.share)), k)
        let isk = """
            6e19b875f7a561d6b3ca3dbb9ef42ac55de3e717881018204b8922b4\
            d5e53bb2aa82c300bea7b65d2b671da71922ddf6472301b79bc270ad\
            fa8bf413285f2263
            """
        let ada = Array("ADa".utf8), adb = Array("ADb".utf8)
        XCTAssertEqual(hex(try a.intermediateSessionKey(peerShare: b.share, isInitiator: true, ownData: ada, peerData: adb)), isk)
        XCTAssertEqual(hex(try b.intermediateSessionKey(peerShare: a.share, isInitiator: false, ownData: adb, peerData: ada)), isk)
        // Swapping the roles changes the transcript order, hence the key.
        XCTAssertNotEqual(hex(try b.intermediateSessionKey(peerShare: a.share, isInitiator: true, ownData: adb, peerData: ada)), isk)
    }

    func testDifferentPasswordsGiveDifferentKeys() throws {
        let a = try CPace(prs: prs, ci: ci, sid: sid, scalar: ya)
        let b = try CPace(prs: Array("Passw0rd".utf8), ci: ci, sid: sid, scalar: yb)
        XCTAssertNotEqual(try a.intermediateSessionKey(peerShare: b.share, isInitiator: true),
                          try b.intermediateSessionKey(peerShare: a.share, isInitiator: false))
        XCTAssertNotEqual(CPace.generator(prs: prs, ci: ci, sid: sid), CPace.generator(prs: prs, ci: ci, sid: hex("00")))
    }

    /// B.1.10: u0–u5 and u7 (low order on the curve or the twist, some non-canonical) must abort;
    /// u6, u8–ub (bit 255 set, or ≥ p) give the draft's results.
    func testLowOrderPointsAbortAndNonCanonicalOnesMatchB110() throws {
        let s = hex("af46e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449aff")
        let weak = [
            "0000000000000000000000000000000000000000000000000000000000000000",
            "0100000000000000000000000000000000000000000000000000000000000000",
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
            "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
            "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        ]
        for u in weak {
            XCTAssertThrowsError(try CPace.x25519(s, hex(u)), u) { XCTAssertEqual($0 as? TransferError, .weakPeerKey) }
            let party = try CPace(prs: prs, ci: ci, sid: sid, scalar: ya)
            XCTAssertThrowsError(try party.intermediateSessionKey(peerShare: hex(u), isInitiator: true), u) {
                XCTAssertEqual($0 as? TransferError, .weakPeerKey)
            }
        }
        let valid = [
            ("daffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", "d8e2c776bbacd510d09fd9278b7edcd25fc5ae9adfba3b6e040e8d3b71b21806"),
            ("dbffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", "c85c655ebe8be44ba9c0ffde69f2fe10194458d137f09bbff725ce58803cdb38"),
            ("d9ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", "db64dafa9b8fdd136914e61461935fe92aa372cb056314e1231bc4ec12417456"),
            ("cdeb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b880", "e062dcd5376d58297be2618c7498f55baa07d7e03184e8aada20bca28888bf7a"),
            ("4c9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f11d7", "993c6ad11c4c29da9a56f7691fd0ff8d732e49de6250b6c2e80003ff4629a175"),
        ]
        for (u, q) in valid { XCTAssertEqual(hex(try CPace.x25519(s, hex(u))), q, u) }
    }

    func testElligatorOutputIsAlwaysOnTheCurveOrCanonical() {
        // For random inputs the map's u must make u³ + A·u² + u a square (a curve point).
        var random = SplitMix64(seed: 0xE11)
        for n in 0..<100 {
            let u = Field25519(bytes: Elligator2.map(bytes: random.bytes(32)))
            let value = u.squared * u + Elligator2.curveA * u.squared + u
            XCTAssertEqual(value.legendre.bytes, Field25519.one.bytes, "case \(n)")
        }
    }
}
