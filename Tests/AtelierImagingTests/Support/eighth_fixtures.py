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
(out / "index.json").write_text(json.dumps(index))
