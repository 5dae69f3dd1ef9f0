#!/usr/bin/env python3
"""make_photos.py N OUTDIR [--size WxH] [--seed S] [--jobs J] [--quality Q]

Deterministic photo-like JPEGs (default 4000x3000, q90): a smooth lighting
gradient backdrop, a garment-like shape (shirt/dress silhouette) carrying a
printed pattern (stripes, dots or checks, parameters from a seeded RNG), soft
shading and mild sensor noise. Not random noise: the JPEGs compress like
camera photos (2-4 MB at 12 MP q90). Same N/seed -> same bytes.
"""
import os, sys, argparse
import numpy as np
from multiprocessing import Pool
from PIL import Image

def render(i, w, h, seed):
    rng = np.random.default_rng([seed, i])
    y = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None]
    x = np.linspace(0.0, 1.0, w, dtype=np.float32)[None, :]
    # backdrop: warm/cool wall colour with a lighting gradient + vignette
    base = rng.uniform(150, 230, 3).astype(np.float32)
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    light = 1.0 + gx * (x - 0.5) + gy * (y - 0.5)
    vig = 1.0 - 0.35 * ((x - 0.5) ** 2 + (y - 0.5) ** 2)
    lum = (light * vig).astype(np.float32)
    # garment silhouette: torso (rounded rect) + two sleeves, position/size seeded
    cx, cy = rng.uniform(0.4, 0.6), rng.uniform(0.45, 0.58)
    tw, th = rng.uniform(0.16, 0.24), rng.uniform(0.28, 0.36)
    ax = np.abs(x - cx) / tw
    ay = np.abs(y - cy) / th
    torso = (ax ** 4 + ay ** 4) < 1.0
    sl = rng.uniform(0.12, 0.2)
    sy = cy - th * 0.55
    sleeve = ((np.abs(y - sy - (np.abs(x - cx) - tw) * 0.6) < 0.07)
              & (np.abs(x - cx) > tw * 0.8) & (np.abs(x - cx) < tw + sl))
    mask = torso | sleeve
    # printed pattern
    kind = i % 3
    c1 = rng.uniform(20, 240, 3).astype(np.float32)
    c2 = rng.uniform(20, 240, 3).astype(np.float32)
    freq = rng.uniform(15, 60)
    ang = rng.uniform(0, np.pi)
    if kind == 0:  # stripes
        u = x * np.cos(ang) * (w / h) + y * np.sin(ang)
        pat = (np.sin(u * freq * 2 * np.pi) > 0)
    elif kind == 1:  # dots
        u = (x * (w / h) * freq) % 1.0 - 0.5
        v = (y * freq) % 1.0 - 0.5
        pat = (u * u + v * v) < rng.uniform(0.04, 0.12)
    else:  # checks
        u = np.floor(x * (w / h) * freq).astype(np.int32)
        v = np.floor(y * freq).astype(np.int32)
        pat = ((u + v) & 1) == 0
    # fabric shading: soft folds
    fold = 1.0 + 0.12 * np.sin((x * rng.uniform(3, 8) + y * rng.uniform(2, 6)) * 2 * np.pi)
    img = np.empty((h, w, 3), dtype=np.float32)
    for c in range(3):
        garment = np.where(pat, c1[c], c2[c]) * fold
        img[:, :, c] = np.where(mask, garment, base[c] * lum)
    # drop shadow-ish darkening near garment bottom edge is skipped for speed
    noise = rng.standard_normal((h // 4, w // 4), dtype=np.float32) * 3.0
    noise = np.repeat(np.repeat(noise, 4, axis=0), 4, axis=1)[:h, :w]
    img += noise[:, :, None]
    np.clip(img, 0, 255, out=img)
    return Image.fromarray(img.astype(np.uint8), "RGB")

def work(args):
    i, outdir, w, h, seed, q = args
    path = os.path.join(outdir, f"photo-{i:05d}.jpg")
    if os.path.exists(path):
        return path
    tmp = path + ".tmp"
    render(i, w, h, seed).save(tmp, "JPEG", quality=q)
    os.replace(tmp, path)
    return path

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=int(os.environ.get("PHOTOS", 500)))
    ap.add_argument("outdir")
    ap.add_argument("--size", default="4000x3000")
    ap.add_argument("--seed", type=int, default=20261123)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quality", type=int, default=90)
    a = ap.parse_args()
    w, h = map(int, a.size.lower().split("x"))
    os.makedirs(a.outdir, exist_ok=True)
    jobs = [(i, a.outdir, w, h, a.seed, a.quality) for i in range(a.n)]
    with Pool(a.jobs) as p:
        for _ in p.imap_unordered(work, jobs, chunksize=1):
            pass

if __name__ == "__main__":
    main()
