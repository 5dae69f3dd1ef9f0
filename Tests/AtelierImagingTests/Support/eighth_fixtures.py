#!/usr/bin/env python3
"""Writes JPEGs of the kinds the eighth-scale decoder takes and of those it leaves to libjpeg.

Usage: eighth_fixtures.py OUTDIR

Each file is named NAME.jpg; OUTDIR/index.json lists them with whether the eighth-scale decoder
is expected to take it (baseline, one scan, grey or 4:4:4 or 4:2:0) or to leave it to libjpeg
(progressive, 4:2:2). Sizes that are not multiples of a block or an MCU, restart intervals of one
block, seven blocks and one row, optimised Huffman tables and qualities 50 to 100.
"""
import json
import random
import sys
from pathlib import Path

from PIL import Image

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
rng = random.Random(20261129)


def picture(width, height, mode):
    """Gradients with noisy patches: many nonzero AC terms, in luma and in chroma."""
    image = Image.new("RGB", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            noisy = (x // 5 + y // 3) % 4 == 0
            pixels[x, y] = ((x * 7 + y * 3) % 256, (x * x // (y + 1)) % 256, rng.randrange(256) if noisy else (y * 5) % 256)
    return image if mode == "RGB" else image.convert(mode)


index = []
for width, height in [(1, 1), (7, 9), (16, 16), (17, 33), (203, 151), (640, 427)]:
    for mode in ("RGB", "L"):
        base = picture(width, height, mode)
        for quality in (50, 90, 100):
            for subsampling in ((0, 1, 2) if mode == "RGB" else (None,)):
                for extra in ({}, {"restart_marker_blocks": 1}, {"restart_marker_blocks": 7}, {"restart_marker_rows": 1},
                              {"optimize": True}, {"progressive": True}):
                    options = dict(quality=quality, **extra)
                    if subsampling is not None:
                        options["subsampling"] = subsampling
                    name = f"{width}x{height}-{mode}-q{quality}-s{subsampling}-{'-'.join(f'{k}{v}' for k, v in extra.items()) or 'plain'}"
                    try:
                        base.save(out / f"{name}.jpg", **options)
                    except OSError:  # Pillow cannot write some progressive files ("suspension not allowed")
                        (out / f"{name}.jpg").unlink(missing_ok=True)
                        continue
                    index.append({"name": name, "eighth": not extra.get("progressive") and subsampling != 1})


# Files written by hand, with an AC table of our own in which the zero-run code (ZRL, 16 zeros)
# is one bit long, so twelve bits can hold twelve of them: "zrl-legal" uses up to three in a row,
# as a block allows; the "zrl-overrun" files carry runs of 4 to 12, past a block's 63 terms, which
# libjpeg reads on into the next block's DC code. Their outcome must be libjpeg's, whichever
# decoder gives it ("outcomeOnly").
class BitWriter:
    def __init__(self):
        self.bits = []

    def put(self, code, length):
        self.bits += [(code >> (length - 1 - i)) & 1 for i in range(length)]

    def bytes(self):
        bits = self.bits + [1] * (-len(self.bits) % 8)
        out = bytearray()
        for i in range(0, len(bits), 8):
            byte = int("".join(map(str, bits[i:i + 8])), 2)
            out.append(byte)
            if byte == 0xFF:
                out.append(0)
        return bytes(out)


def canonical_codes(counts, values):
    codes, code, k = {}, 0, 0
    for length in range(1, 17):
        for _ in range(counts[length - 1]):
            codes[values[k]] = (code, length)
            code += 1
            k += 1
        code <<= 1
    return codes


DC_COUNTS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]  # the standard luminance DC table
DC_VALUES = list(range(12))
AC_COUNTS = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
AC_VALUES = [0xF0, 0x00, 0x01, 0xE1, 0x11]  # ZRL '0', EOB '10', (0,1) '110', (14,1) '1110', (1,1) '11110'


def magnitude(value):
    size = abs(value).bit_length()
    return size, (value if value >= 0 else value + (1 << size) - 1)


def hand_jpeg(width, height, blocks):
    """A baseline grey JPEG, quantisers all 1, each block given as (DC, [AC symbols]) where an AC
    symbol is "ZRL", "EOB" or (run, value)."""
    dc_codes, ac_codes = canonical_codes(DC_COUNTS, DC_VALUES), canonical_codes(AC_COUNTS, AC_VALUES)
    writer, previous = BitWriter(), 0
    for dc, acs in blocks:
        size, bits = magnitude(dc - previous)
        previous = dc
        writer.put(*dc_codes[size])
        if size:
            writer.put(bits, size)
        for symbol in acs:
            if symbol == "ZRL":
                writer.put(*ac_codes[0xF0])
            elif symbol == "EOB":
                writer.put(*ac_codes[0x00])
            else:
                run, value = symbol
                size, bits = magnitude(value)
                writer.put(*ac_codes[run << 4 | size])
                writer.put(bits, size)

    def segment(marker, payload):
        return bytes([0xFF, marker]) + (len(payload) + 2).to_bytes(2, "big") + payload

    return (b"\xFF\xD8"
            + segment(0xDB, bytes([0]) + bytes([1] * 64))
            + segment(0xC0, bytes([8]) + height.to_bytes(2, "big") + width.to_bytes(2, "big") + bytes([1, 1, 0x11, 0]))
            + segment(0xC4, bytes([0x00] + DC_COUNTS + DC_VALUES))
            + segment(0xC4, bytes([0x10] + AC_COUNTS + AC_VALUES))
            + segment(0xDA, bytes([1, 1, 0x00, 0, 63, 0]))
            + writer.bytes() + b"\xFF\xD9")


# 32x16: eight blocks; DC terms spread over the grey levels (a DC term is 8 times a level's offset).
levels = [-900, -400, 0, 350, 700, 1000, -150, 60]
legal = [
    ["ZRL", "ZRL", "ZRL", (14, 1)],            # 3 ZRLs then the 63rd term: no EOB needed
    ["ZRL", (0, -1), "EOB"],
    [(0, 1), (0, 1), (0, -1), "ZRL", "ZRL", "EOB"],
    ["ZRL", "ZRL", (1, 1), (14, -1), "EOB"],   # 16 + 16 + 2 + 15 = 49 terms
    ["EOB"],
    ["ZRL", "ZRL", "ZRL", (1, 1), (0, 1), (0, -1), "EOB"],
    [(14, 1), (14, -1), (14, 1), (14, 1)],     # 4 x 15 = 60 terms, then EOB
    ["ZRL", "ZRL", "ZRL", (0, 1), (0, 1), (0, 1), (0, 1), (0, -1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1)],
]
legal[6].append("EOB")
(out / "zrl-legal.jpg").write_bytes(hand_jpeg(32, 16, list(zip(levels, legal))))
index.append({"name": "zrl-legal", "eighth": True})
for run in (4, 5, 8, 12):
    acs = [["ZRL"] * run + ["EOB"] if i % 3 == 1 else legal[i] for i in range(8)]
    (out / f"zrl-overrun-{run}.jpg").write_bytes(hand_jpeg(32, 16, list(zip(levels, acs))))
    index.append({"name": f"zrl-overrun-{run}", "eighth": True, "outcomeOnly": True})
(out / "index.json").write_text(json.dumps(index))
