import AtelierRecords
import AtelierTestSupport
import XCTest
@testable import AtelierTransfer

/// GF(2^255 − 19) against values computed independently with Python's integers
/// (`pow(x, e, p)`, `(a * b) % p`), pasted as little-endian hex.
final class CPaceFieldTests: XCTestCase {
    let a = Field25519(bytes: hex("b92033eb85a367d10d700db537b81ab7d8630b8cac9558036d04984d07a98b3e"))
    let b = Field25519(bytes: hex("ea15179c1c74d872d8866c9c788280394339581eaf2b8925439a784158369a14"))
    let c = Field25519(bytes: hex("6e833508ff90dec2348d92b6a0dfac05dd75dddc048f70eac9fe7e410a294275"))

    func testArithmeticMatchesPythonIntegers() {
        XCTAssertEqual(hex((a + b).bytes), "a3364a87a2174044e6f67951b03a9bf01b9d63aa5bc1e128b09e108f5fdf2553")
        XCTAssertEqual(hex((a - b).bytes), "cf0a1c4f692f8f5e35e9a018bf359a7d952ab36dfd69cfdd296a1f0caf72f129")
        XCTAssertEqual(hex((b - a).bytes), "1ef5e3b096d070a1ca165fe740ca65826ad54c9202963022d695e0f3508d0e56")
        XCTAssertEqual(hex((a * b).bytes), "b40e2748185eeaea26d1a86d4e9818658675889c70e1479b4b10910a5f6f0709")
        XCTAssertEqual(hex(a.squared.bytes), "4f10bf84517e5d5a1961283c132a72c33ce830cbf04bf3780ce145ecaff1b54d")
        XCTAssertEqual(hex(a.inverted.bytes), "021ddbe2d7231492c61e84a25d51e9a0094c72edea459550fca6af51fcba1140")
        XCTAssertEqual((a * a.inverted).bytes, Field25519.one.bytes)
        XCTAssertEqual(a.legendre.bytes, Field25519.one.bytes)
        XCTAssertEqual(b.legendre.bytes, Field25519.one.bytes)
        XCTAssertEqual(c.legendre.bytes, (-Field25519.one).bytes, "c is not a square")
        XCTAssertEqual(Field25519.zero.legendre.isZero, 1)
        XCTAssertEqual(Field25519.zero.inverted.isZero, 1, "inv0(0) = 0")
    }

    func testNonCanonicalEncodingsReduceAndBit255IsIgnored() {
        let p = hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
        XCTAssertEqual(Field25519(bytes: p).isZero, 1, "p is 0")
        XCTAssertEqual(hex(Field25519(bytes: hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")).bytes),
                       "0100000000000000000000000000000000000000000000000000000000000000", "p + 1 is 1")
        XCTAssertEqual(hex(Field25519(bytes: [UInt8](repeating: 0xFF, count: 32)).bytes),
                       "1200000000000000000000000000000000000000000000000000000000000000", "2^256 − 1 reads as 2^255 − 1 = p + 18")
        let pMinus1 = Field25519(bytes: hex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))
        XCTAssertEqual(hex((pMinus1 * pMinus1).bytes), "0100000000000000000000000000000000000000000000000000000000000000", "(−1)² = 1")
        XCTAssertEqual(hex((pMinus1 + Field25519.one).bytes), hex([UInt8](repeating: 0, count: 32)))
        XCTAssertEqual(Field25519.one.isZero, 0)
    }

    func testRandomIdentitiesHold() {
        var random = SplitMix64(seed: 0xF1E1D)
        for n in 0..<200 {
            let x = Field25519(bytes: random.bytes(32)), y = Field25519(bytes: random.bytes(32)), z = Field25519(bytes: random.bytes(32))
            XCTAssertEqual((x * (y + z)).bytes, (x * y + x * z).bytes, "case \(n): distributivity")
            XCTAssertEqual(((x - y) + y).bytes, x.bytes, "case \(n): subtraction")
            XCTAssertEqual((x * y).bytes, (y * x).bytes, "case \(n): commutativity")
            if x.isZero == 0 { XCTAssertEqual((x * x.inverted).bytes, Field25519.one.bytes, "case \(n): inverse") }
            XCTAssertEqual(x.squared.legendre.bytes, x.isZero == 1 ? Field25519.zero.bytes : Field25519.one.bytes, "case \(n): squares")
            XCTAssertEqual(Field25519.select(x, y, choice: 0).bytes, x.bytes)
            XCTAssertEqual(Field25519.select(x, y, choice: 1).bytes, y.bytes)
        }
    }
}
