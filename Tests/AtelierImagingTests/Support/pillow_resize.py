#!/usr/bin/env python3
"""pillow_resize.py IN.rgb WIDTH HEIGHT CHANNELS OUT_WIDTH OUT_HEIGHT FILTER OUT.raw

Resizes raw samples (grey or RGB) with Pillow's own resampler, the reference that
`Image.resized` claims to match bit for bit, and writes the raw result."""
import sys
from PIL import Image

src, w, h, c, ow, oh, name, out = sys.argv[1], *map(int, sys.argv[2:7]), sys.argv[7], sys.argv[8]
mode = {1: "L", 3: "RGB"}[c]
filters = {"lanczos3": Image.Resampling.LANCZOS, "bilinear": Image.Resampling.BILINEAR, "box": Image.Resampling.BOX}
with open(src, "rb") as f:
    image = Image.frombytes(mode, (w, h), f.read())
with open(out, "wb") as f:
    f.write(image.resize((ow, oh), filters[name]).tobytes())
