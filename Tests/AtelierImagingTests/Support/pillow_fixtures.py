#!/usr/bin/env python3
"""Writes test images in every JPEG/PNG flavour Atelier must read, and Pillow's decode of each.

Usage: pillow_fixtures.py OUTDIR

For each case NAME it writes OUTDIR/NAME.jpg|png (the file), OUTDIR/NAME.rgb (Pillow's pixels as
raw 8-bit RGB, alpha composited over white) and a line of OUTDIR/index.json. The pixels are an
independent reference for the Swift decoders: Pillow bundles its own libjpeg and zlib/png code.
"""
import io
import json
import math
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
rng = random.Random(20261123)


def photo(width, height):
    """Smooth gradients, hard edges and fine texture, like a garment on a backdrop."""
    image = Image.new("RGB", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            r = int(128 + 100 * math.sin(x / 17.0) * math.cos(y / 23.0))
            g = int(255 * y / max(1, height - 1))
            b = int(255 * x / max(1, width - 1)) ^ (((x // 4) + (y // 4)) % 2) * 40
            pixels[x, y] = (r, g, b & 255)
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x0, y0 = rng.randrange(width), rng.randrange(height)
        x1, y1 = x0 + rng.randrange(5, width // 2), y0 + rng.randrange(5, height // 2)
        draw.rectangle([x0, y0, x1, y1], fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
        draw.ellipse([y0 % width, x0 % height, (y0 % width) + 30, (x0 % height) + 20], outline=(255, 255, 255), width=2)
    return image


cases = []


def reference(name, image_bytes, kind, draft=None):
    path = out / f"{name}.{kind}"
    path.write_bytes(image_bytes)
    with Image.open(io.BytesIO(image_bytes)) as im:
        if draft:
            im.draft("RGB", (im.width // draft, im.height // draft))
        im.load()
        if im.mode in ("RGBA", "LA") or (im.mode == "P" and "transparency" in im.info):
            rgba = im.convert("RGBA")
            white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            rgb = Image.alpha_composite(white, rgba).convert("RGB")
        elif im.mode == "I;16" or im.mode == "I":
            rgb = im.point(lambda v: v / 257).convert("L").convert("RGB")
        else:
            rgb = im.convert("RGB")
    (out / f"{name}.rgb").write_bytes(rgb.tobytes())
    cases.append({"name": name, "file": path.name, "width": rgb.width, "height": rgb.height,
                  "scale": draft or 1})


base = photo(197, 131)  # odd sizes exercise partial MCUs
buf = io.BytesIO(); base.save(buf, "JPEG", quality=90); reference("baseline", buf.getvalue(), "jpg")
buf = io.BytesIO(); base.save(buf, "JPEG", quality=85, progressive=True); reference("progressive", buf.getvalue(), "jpg")
buf = io.BytesIO(); base.convert("L").save(buf, "JPEG", quality=90); reference("greyscale", buf.getvalue(), "jpg")
buf = io.BytesIO(); base.convert("CMYK").save(buf, "JPEG", quality=95); reference("cmyk", buf.getvalue(), "jpg")
buf = io.BytesIO(); base.save(buf, "JPEG", quality=90, subsampling=0); reference("subsampling444", buf.getvalue(), "jpg")
big = photo(640, 480)
buf = io.BytesIO(); big.save(buf, "JPEG", quality=92)
for scale in (2, 4, 8):
    reference(f"scaled{scale}", buf.getvalue(), "jpg", draft=scale)

buf = io.BytesIO(); base.save(buf, "PNG"); reference("png-rgb8", buf.getvalue(), "png")
rgba = base.convert("RGBA")
alpha = Image.linear_gradient("L").resize(base.size)
rgba.putalpha(alpha)
buf = io.BytesIO(); rgba.save(buf, "PNG"); reference("png-rgba8", buf.getvalue(), "png")
buf = io.BytesIO(); base.convert("P", palette=Image.Palette.ADAPTIVE, colors=64).save(buf, "PNG"); reference("png-palette", buf.getvalue(), "png")
buf = io.BytesIO(); base.convert("L").save(buf, "PNG"); reference("png-grey8", buf.getvalue(), "png")
grey16 = base.convert("L").point(lambda v: v * 257, mode="I").convert("I;16")
buf = io.BytesIO(); grey16.save(buf, "PNG"); reference("png-grey16", buf.getvalue(), "png")


def png_by_hand(width, height, depth, samples, rows, interlace):
    """A PNG Pillow cannot write (16-bit RGB, Adam7 interlaced), from rows of sample values."""
    import struct
    import zlib

    colour_type = {1: 0, 3: 2, 4: 6}[samples]
    size = depth // 8

    def pack(row_values):
        return b"".join(v.to_bytes(size, "big") for v in row_values)

    raw = bytearray()
    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        for x0, y0, dx, dy in passes:
            for y in range(y0, height, dy):
                values = []
                for x in range(x0, width, dx):
                    values += rows[y][x * samples:(x + 1) * samples]
                if values:
                    raw += b"\0" + pack(values)
    else:
        for row in rows:
            raw += b"\0" + pack(row)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 1 if interlace else 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")


rgb = base.tobytes()
rows8 = [list(rgb[y * base.width * 3:(y + 1) * base.width * 3]) for y in range(base.height)]
reference("png-interlaced", png_by_hand(base.width, base.height, 8, 3, rows8, True), "png")
rows16 = [[v * 257 for v in row] for row in rows8]
reference("png-rgb16", png_by_hand(base.width, base.height, 16, 3, rows16, False), "png")

(out / "index.json").write_text(json.dumps(cases, indent=1))
