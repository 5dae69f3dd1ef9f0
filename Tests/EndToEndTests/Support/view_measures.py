#!/usr/bin/env python3
"""Measures what a 3D view drew, from screenshots, with Pillow and numpy.

    view_measures.py --region X,Y,W,H [--poster PNG] SHOT...

Each SHOT is cropped to the region (the canvas, in CSS pixels of a 1x screenshot); the poster,
if given, is resized to the region's size. The background is the colour of the region's
top-left pixel. Prints JSON:

    {"shots": [{"colours": N, "foreground": share, "mean": [r, g, b] of the foreground}],
     "poster": {...same...} or null,
     "difference": [[mean absolute difference (0-255) between shots i and j]],
     "overlap": [intersection over union of each shot's foreground with the poster's] or null}
"""
import argparse
import json

import numpy as np
from PIL import Image


def measure(pixels, background):
    foreground = np.abs(pixels.astype(int) - background).sum(axis=2) > 24
    colours = len(np.unique(pixels.reshape(-1, 3), axis=0))
    mean = pixels[foreground].mean(axis=0).round(1).tolist() if foreground.any() else None
    return foreground, {"colours": colours, "foreground": round(float(foreground.mean()), 4), "mean": mean}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--region", required=True)
    parser.add_argument("--poster")
    parser.add_argument("shots", nargs="+")
    args = parser.parse_args()
    x, y, w, h = (int(round(float(v))) for v in args.region.split(","))
    crops = [np.asarray(Image.open(s).convert("RGB"))[y:y + h, x:x + w] for s in args.shots]
    background = crops[0][1, 1].astype(int)
    masks, shots = zip(*(measure(c, background) for c in crops))
    out = {"shots": list(shots), "poster": None, "overlap": None}
    out["difference"] = [[round(float(np.abs(a.astype(int) - b.astype(int)).mean()), 2) for b in crops] for a in crops]
    if args.poster:
        poster = np.asarray(Image.open(args.poster).convert("RGB").resize((w, h), Image.BILINEAR))
        mask, out["poster"] = measure(poster, background)
        out["overlap"] = [round(float((m & mask).sum() / max((m | mask).sum(), 1)), 4) for m in masks]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
