#!/usr/bin/env python3
"""Re-derives the test vector of docs/transfer-protocol.md from scratch, independently of the
Swift code: Elligator 2 and X25519 (the RFC 7748 ladder) on Python integers, hashlib and hmac for
SHA-2, HMAC and HKDF, and PyPI's `cryptography` for ChaCha20-Poly1305 only. It first checks
itself against draft-irtf-cfrg-cpace B.1.1, then prints every value the document lists.

    python3 docs/transfer-protocol-vector.py      (needs: pip install cryptography)
"""
import hashlib, hmac
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
p = 2**255 - 19; A = 486662
def leb(n):
    out = b""
    while True:
        out += bytes([n if n < 128 else (n & 0x7f) | 0x80]); n >>= 7
        if n == 0: return out
def lv(*xs): return b"".join(leb(len(x)) + x for x in xs)
def x25519(k, u):
    k = bytearray(k); k[0] &= 248; k[31] &= 127; k[31] |= 64; k = int.from_bytes(k, 'little')
    u = int.from_bytes(u, 'little') & (2**255 - 1)
    x1, x2, z2, x3, z3, swap = u, 1, 0, u, 1, 0
    for t in reversed(range(255)):
        kt = (k >> t) & 1; swap ^= kt
        if swap: x2, x3, z2, z3 = x3, x2, z3, z2
        swap = kt
        a = x2 + z2; aa = a * a; b = x2 - z2; bb = b * b; e = aa - bb; c = x3 + z3; d = x3 - z3
        da = d * a; cb = c * b
        x3 = (da + cb) ** 2 % p; z3 = x1 * (da - cb) ** 2 % p; x2 = aa * bb % p; z2 = e * (aa + 121665 * e) % p
    if swap: x2, x3, z2, z3 = x3, x2, z3, z2
    return (x2 * pow(z2, p - 2, p) % p).to_bytes(32, 'little')
def elligator2(r):
    v = (-A * pow(1 + 2 * r * r, p - 2, p)) % p
    e = pow((v**3 + A * v * v + v) % p, (p - 1) // 2, p)
    return ((e * v - (1 - e) * (A // 2)) % p).to_bytes(32, 'little')
def generator(prs, ci, sid):
    dsi = b"CPace255"; pad = max(0, 128 - 1 - len(leb(len(prs))) - len(prs) - len(leb(len(dsi))) - len(dsi))
    h = hashlib.sha512(lv(dsi, prs, bytes(pad), ci, sid)).digest()[:32]
    return elligator2(int.from_bytes(h, 'little') & (2**255 - 1))
def hkdf(ikm, salt, info, n):
    prk = hmac.new(salt, ikm, 'sha256').digest(); out = b""; t = b""; i = 1
    while len(out) < n:
        t = hmac.new(prk, t + info + bytes([i]), 'sha256').digest(); out += t; i += 1
    return out[:n]
# Draft B.1 first, as a sanity check of this script.
g = generator(b"Password", bytes.fromhex("0b415f696e69746961746f720b425f726573706f6e646572"), bytes.fromhex("7e4b4791d6a8ef019b936c79fb7f2c57"))
assert g.hex() == "d04bf6d41f6a289632a2e929fa29bebd51092512a7829fdde7d314b62f05a73f", g.hex()
ya = bytes.fromhex("21b4f4bd9e64ed355c3eb676a28ebedaf6d8f17bdc365995b319097153044080")
yb = bytes.fromhex("848b0779ff415f0af4ea14df9dd1d3c29ac41d836c7808896c4eba19c51ac40a")
# The Atelier vector.
prs = b"7-crane-orbit"; nonceR = bytes(range(16)); nonceS = bytes(range(16, 32)); sid = nonceR + nonceS
ci = lv(b"atelier-transfer", bytes([1, 1]), b"sender", b"receiver")
g = generator(prs, ci, sid); Ya = x25519(ya, g); Yb = x25519(yb, g); K = x25519(ya, Yb); assert K == x25519(yb, Ya)
isk = hashlib.sha512(lv(b"CPace255_ISK", sid, K) + lv(Ya, b"") + lv(Yb, b"")).digest()
greeting = b"ATLR" + bytes([1, 1, 1, 0]) + nonceR
initiate = b"ATLS" + bytes([1, 1, 0, 0]) + nonceS + Ya
th = hashlib.sha256(greeting + initiate + b"ATLK" + Yb).digest()
k = lambda label, n=32: hkdf(isk, th, b"atelier-transfer v1 " + label, n)
tagR = hmac.new(k(b"confirm receiver"), th, 'sha256').digest()
response = b"ATLK" + Yb + tagR
tagS = hmac.new(k(b"confirm sender"), hashlib.sha256(greeting + initiate + response).digest(), 'sha256').digest()
fp = k(b"fingerprint", 8).hex()
s2r = k(b"key sender to receiver"); r2s = k(b"key receiver to sender")
hello = bytes([1, 2, 1]) + (1 << 20 | 64).to_bytes(4, 'big') + len(b"atl-send 1.0").to_bytes(2, 'big') + b"atl-send 1.0"
def seal(key, n, pt):
    prefix = (len(pt) + 16).to_bytes(4, 'big')
    return prefix + ChaCha20Poly1305(key).encrypt(bytes(4) + n.to_bytes(8, 'big'), pt, prefix)
for name, value in [("ci", ci), ("g", g), ("greeting", greeting), ("initiate", initiate), ("response", response),
                    ("confirm", b"ATLC" + tagS), ("isk", isk), ("th", th), ("s2r", s2r), ("r2s", r2s),
                    ("hello plaintext", hello), ("frame0", seal(s2r, 0, hello)), ("frame1", seal(s2r, 1, bytes([0x7f])))]:
    print(name, value.hex())
print("fingerprint", "-".join(fp[i:i + 4] for i in range(0, 16, 4)))
