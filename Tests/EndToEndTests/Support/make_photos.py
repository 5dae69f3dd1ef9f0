#!/usr/bin/env python3
"""Makes a small, deterministic set of garment-like photos for the end-to-end tests.

Usage: make_photos.py OUTDIR

OUTDIR/wardrobe/            five distinct "garments" on plain backdrops (JPEG, one PNG), with EXIF
OUTDIR/wardrobe/copies/     near-duplicates of the first two: re-encoded, resized, brightened
OUTDIR/bad/                 a zero-byte .jpg, a truncated JPEG, text named .jpg, a JPEG declaring
                            60000x60000 pixels, a PNG with a broken CRC
"""
import io
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageEnhance, ImageFilter

out = Path(sys.argv[1])
(out / "wardrobe" / "copies").mkdir(parents=True, exist_ok=True)
(out / "bad").mkdir(parents=True, exist_ok=True)


def garment(seed, size=(640, 480)):
    """A garment-like shape on a plain backdrop; each seed gets its own cut, place and print."""
    rng = random.Random(seed)
    w, h = size
    image = Image.new("RGB", size, tuple(rng.randrange(170, 250) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    colour = tuple(rng.randrange(20, 200) for _ in range(3))
    cx, cy = w * rng.uniform(0.3, 0.7), h * rng.uniform(0.4, 0.6)
    sx, sy = w * rng.uniform(0.15, 0.3), h * rng.uniform(0.25, 0.4)
    kind = seed % 3
    if kind == 0:  # a shirt: torso and sleeves
        draw.polygon([(cx - sx, cy - sy), (cx + sx, cy - sy), (cx + sx * 1.1, cy + sy), (cx - sx * 1.1, cy + sy)], fill=colour)
        draw.polygon([(cx - sx, cy - sy), (cx - sx * 2, cy), (cx - sx * 1.6, cy + sy * 0.3), (cx - sx, cy - sy * 0.3)], fill=colour)
        draw.polygon([(cx + sx, cy - sy), (cx + sx * 2, cy), (cx + sx * 1.6, cy + sy * 0.3), (cx + sx, cy - sy * 0.3)], fill=colour)
    elif kind == 1:  # trousers
        draw.polygon([(cx - sx, cy - sy), (cx + sx, cy - sy), (cx + sx * 1.2, cy + sy * 1.2), (cx + sx * 0.2, cy + sy * 1.2), (cx, cy), (cx - sx * 0.2, cy + sy * 1.2), (cx - sx * 1.2, cy + sy * 1.2)], fill=colour)
    else:  # a dress
        draw.polygon([(cx - sx * 0.5, cy - sy), (cx + sx * 0.5, cy - sy), (cx + sx * 1.5, cy + sy * 1.1), (cx - sx * 1.5, cy + sy * 1.1)], fill=colour)
    pattern = rng.randrange(3)
    ink = tuple(rng.randrange(256) for _ in range(3))
    for k in range(rng.randrange(8, 20)):
        if pattern == 0:
            y = cy - sy + k * rng.uniform(8, 20)
            draw.line([(cx - sx, y), (cx + sx, y)], fill=ink, width=rng.randrange(2, 6))
        elif pattern == 1:
            x = cx - sx + k * rng.uniform(8, 20)
            draw.line([(x, cy - sy), (x, cy + sy)], fill=ink, width=rng.randrange(2, 6))
        else:
            x, y, r = rng.uniform(cx - sx, cx + sx), rng.uniform(cy - sy, cy + sy), rng.uniform(4, 16)
            draw.ellipse([x - r, y - r, x + r, y + r], fill=ink)
    return image.filter(ImageFilter.GaussianBlur(0.6))


def exif(i):
    data = Image.Exif()
    data[0x010F] = "Atelier Test Camera"  # Make
    data[0x0110] = f"Model {i}"  # Model
    sub = data.get_ifd(0x8769)
    sub[0x9003] = f"2026:11:{10 + i:02d} 09:30:00"  # DateTimeOriginal
    sub[0x920A] = 4.2  # FocalLength
    sub[0xA405] = 26  # FocalLengthIn35mmFilm
    return data


originals = []
for i in range(5):
    image = garment(100 + i)
    originals.append(image)
    if i == 4:
        image.save(out / "wardrobe" / f"garment-{i}.png")
    else:
        image.save(out / "wardrobe" / f"garment-{i}.jpg", quality=90, exif=exif(i))

for i in range(2):
    base = originals[i]
    base.save(out / "wardrobe" / "copies" / f"garment-{i}-q60.jpg", quality=60)
    base.resize((320, 240), Image.LANCZOS).save(out / "wardrobe" / "copies" / f"garment-{i}-small.jpg", quality=85)
    ImageEnhance.Brightness(base).enhance(1.15).save(out / "wardrobe" / "copies" / f"garment-{i}-bright.jpg", quality=88)

good = io.BytesIO()
originals[0].save(good, "JPEG", quality=90)
data = good.getvalue()
(out / "bad" / "empty.jpg").write_bytes(b"")
(out / "bad" / "truncated.jpg").write_bytes(data[: len(data) // 2])
(out / "bad" / "notes.jpg").write_text("this is not a photo\n")
sof = data.index(b"\xff\xc0")
huge = bytearray(data)
huge[sof + 5:sof + 9] = b"\xea\x60\xea\x60"
(out / "bad" / "bomb.jpg").write_bytes(bytes(huge))
png = io.BytesIO()
originals[1].save(png, "PNG")
broken = bytearray(png.getvalue())
broken[len(broken) // 2] ^= 0xFF
(out / "bad" / "broken.png").write_bytes(bytes(broken))
