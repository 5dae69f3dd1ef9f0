import Crypto

/// CPace with the cipher suite CPACE-X25519-SHA512, as draft-irtf-cfrg-cpace specifies it
/// (Abdalla, Haase, Hesse; the -21 text of April 2026, whose appendix B.1 test vectors
/// CPaceTests reproduces), in the initiator-responder setting.
///
///     g   = Elligator2(decodeUCoordinate(SHA-512(generator_string(DSI, PRS, CI, sid))[0..<32]))
///     Y   = X25519(y, g)                       y: 32 random bytes (X25519 clamps them)
///     K   = X25519(y, Y_peer)                  abort when K is all zero (low-order Y_peer)
///     ISK = SHA-512(lv_cat(DSI ‖ "_ISK", sid, K) ‖ lv_cat(Ya, ADa) ‖ lv_cat(Yb, ADb))
///
/// with DSI = "CPace255" and generator_string = lv_cat(DSI, PRS, zero_bytes(len_zpad), CI, sid),
/// the zero padding filling SHA-512's first 128-byte block. X25519 is swift-crypto's
/// `Curve25519.KeyAgreement`, which takes any 32-byte u-coordinate (bit 255 ignored, as RFC
/// 7748 says). K never leaves this type: it only feeds the ISK hash.
struct CPace: Sendable {
    static let dsi: [UInt8] = Array("CPace255".utf8)
    /// SHA-512's input block size, which the zero padding of the generator string fills.
    static let hashBlockBytes = 128
    static let shareBytes = 32

    /// This party's public share Y (Ya for the initiator, Yb for the responder).
    let share: [UInt8]
    private let scalar: [UInt8]
    private let sid: [UInt8]

    /// Runs the first half of CPace: derives the generator from the password and channel
    /// inputs and computes this party's share with `scalar` (32 bytes; fresh random bytes
    /// for every run, never reused). Throws `.weakPeerKey` only if the generator were a
    /// low-order point, which a hash output does not hit in practice.
    init(prs: [UInt8], ci: [UInt8], sid: [UInt8], scalar: [UInt8]) throws {
        precondition(scalar.count == 32, "a CPace X25519 scalar is 32 bytes")
        let generator = Self.generator(prs: prs, ci: ci, sid: sid)
        self.scalar = scalar
        self.sid = sid
        self.share = try Self.x25519(scalar, generator)
    }

    /// 32 bytes from the system CSPRNG: G_X25519.sample_scalar().
    static func sampleScalar() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return randomBytes(32, using: &generator)
    }

    /// The intermediate session key of the initiator-responder setting, from the peer's share
    /// and both sides' associated data (ADa is the initiator's). Throws `.weakPeerKey` when K
    /// is the neutral element, `.malformedHandshake` when the share is not 32 bytes.
    func intermediateSessionKey(peerShare: [UInt8], isInitiator: Bool, ownData: [UInt8] = [], peerData: [UInt8] = []) throws -> [UInt8] {
        guard peerShare.count == Self.shareBytes else { throw TransferError.malformedHandshake("a key share must be 32 bytes") }
        let k = try Self.x25519(scalar, peerShare)
        var input = Self.lvCat([Self.dsi + Array("_ISK".utf8), sid, k])
        input += isInitiator
            ? Self.transcriptIR(share, ownData, peerShare, peerData)
            : Self.transcriptIR(peerShare, peerData, share, ownData)
        return Array(SHA512.hash(data: input))
    }

    // MARK: The draft's building blocks

    /// prepend_len: the LEB128 length of `data`, then `data`.
    static func prependLength(_ data: [UInt8]) -> [UInt8] {
        var length = data.count
        var encoded: [UInt8] = []
        repeat {
            encoded.append(length < 128 ? UInt8(length) : UInt8(length & 0x7F) | 0x80)
            length >>= 7
        } while length > 0
        return encoded + data
    }

    /// lv_cat: the length-value concatenation of its arguments.
    static func lvCat(_ parts: [[UInt8]]) -> [UInt8] {
        parts.flatMap(prependLength)
    }

    /// transcript_ir(Ya, ADa, Yb, ADb) = lv_cat(Ya, ADa) ‖ lv_cat(Yb, ADb).
    static func transcriptIR(_ ya: [UInt8], _ ada: [UInt8], _ yb: [UInt8], _ adb: [UInt8]) -> [UInt8] {
        lvCat([ya, ada]) + lvCat([yb, adb])
    }

    /// generator_string(DSI, PRS, CI, sid, s_in_bytes) with SHA-512's block size.
    static func generatorString(prs: [UInt8], ci: [UInt8], sid: [UInt8]) -> [UInt8] {
        let padding = max(0, hashBlockBytes - 1 - prependLength(prs).count - prependLength(dsi).count)
        return lvCat([dsi, prs, [UInt8](repeating: 0, count: padding), ci, sid])
    }

    /// G_X25519.calculate_generator: the generator's u-coordinate, 32 bytes.
    static func generator(prs: [UInt8], ci: [UInt8], sid: [UInt8]) -> [UInt8] {
        let hash = Array(SHA512.hash(data: generatorString(prs: prs, ci: ci, sid: sid)).prefix(32))
        return Elligator2.map(bytes: hash)
    }

    /// G_X25519.scalar_mult_vfy: X25519(scalar, u), throwing `.weakPeerKey` for the neutral
    /// element G.I (all zero), which every low-order u on the curve or its twist gives.
    static func x25519(_ scalar: [UInt8], _ u: [UInt8]) throws -> [UInt8] {
        let result: [UInt8]
        do {
            let privateKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar)
            let publicKey = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: u)
            let secret = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
            result = secret.withUnsafeBytes { Array($0) }
        } catch {
            // swift-crypto refuses the all-zero result itself (BoringSSL's X25519 returns 0).
            throw TransferError.weakPeerKey
        }
        var accumulated: UInt8 = 0
        for byte in result { accumulated |= byte }
        guard result.count == 32, accumulated != 0 else { throw TransferError.weakPeerKey }
        return result
    }

    static func randomBytes(_ count: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        for i in stride(from: 0, to: count, by: 8) {
            var word = generator.next()
            for j in i..<min(i + 8, count) {
                bytes[j] = UInt8(truncatingIfNeeded: word)
                word >>= 8
            }
        }
        return bytes
    }
}
