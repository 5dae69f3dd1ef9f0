#!/usr/bin/env python3
"""dup_photo_set.py OUTDIR [--bases 1000] [--seed 2811] [--edits dev|fresh] [--offset 0.5]

A near-duplicate test set drawn independently of Atelier's own renderers (issue 28, item 6):
real photographs from Debian's wallpaper packages (mate-backgrounds, ukui-wallpapers and the
lomiri-wallpapers sets), cut into non-overlapping tiles, so no two bases share a pixel. Each
base gets exactly one copy, made with Pillow by one of the edits people make to a photo:

  q55       re-encoded at JPEG quality 55
  half      resized to 50 %
  bright    brightened x1.25
  crop5     5 % cropped off each side, resized back (the issue's case)
  crop-side 10 % cropped off the left or right only, kept at the new size (re-framed)
  reframe   a window of 85-90 % of the photo, off centre, resized back
  rotate    rotated 2-4 degrees either way, cropped to remove the corners, resized back
  crop-q    8 % off top and bottom, re-encoded at quality 65

or, with --edits fresh (fixed before that set was first scored, to grade a design made
against the edits above):

  square         a square crop (300 x 300 of 400 x 300) at a random place, kept at its size
  crop-corner    4-12 % off the right and the bottom, kept at the new size
  crop-rand      2-9 % off each side (each its own), resized back, quality 80
  rotate-small   turned 1-2.5 degrees, 5 % cut off each side, resized back
  rotate-big     turned 4-6 degrees, 11 % cut off each side, resized back
  reframe-zoom   a window of 75-85 %, off centre, enlarged to 120 % of the photo
  small-crop     resized to 40 %, then 6 % off the left
  contrast-crop  contrast x1.3, 7 % off the left and the right, resized back

The bases are 400 x 300 (or 300 x 400): web-sized photos. --offset 0.5 with another --seed
cuts tiles that straddle the first set's, so the bases differ too (the photographs do not).

The 2 x bases images are written as OUTDIR/img-NNNNN.jpg in a shuffled order (a copy is never
next to its base by name) with OUTDIR/truth.json: for each image its base and edit. Nothing in
here reads Atelier's code or its test renderers; tiles with almost no texture (clear sky) are
skipped, as nobody photographs a blank wall to catalogue it.
"""
import argparse, json, os, random, subprocess, sys
from PIL import Image, ImageEnhance, ImageStat

PACKAGES = ["mate-backgrounds", "ukui-wallpapers", "lomiri-wallpapers", "lomiri-wallpapers-16.04", "lomiri-wallpapers-20.04",
            "plasma-workspace-wallpapers"]
EDITS = {"dev": ["q55", "half", "bright", "crop5", "crop-side", "reframe", "rotate", "crop-q"],
         "fresh": ["square", "crop-corner", "crop-rand", "rotate-small", "rotate-big", "reframe-zoom", "small-crop", "contrast-crop"]}
TILE = (400, 300)


def photographs():
    """The JPEG photographs the wallpaper packages install (PNGs there are drawings)."""
    paths = []
    for package in PACKAGES:
        listed = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
        if listed.returncode != 0:
            sys.exit(f"dup_photo_set.py: {package} is not installed (apt-get install -y {' '.join(PACKAGES)})")
        paths += [p for p in listed.stdout.split() if p.lower().endswith((".jpg", ".jpeg"))]
    # The same picture at several sizes (Elephants_3840x2160.jpg, Plasma's images/2560x1600.jpg
    # and images_dark/...) would make look-alike bases that are really one photo: keep the
    # largest of each picture.
    by_stem = {}
    for p in sorted(set(paths)):
        if os.path.basename(p) == "screenshot.jpg":
            continue
        parts = p.split("/")
        if "contents" in parts:  # Plasma: /usr/share/wallpapers/NAME/contents/images*/WxH.jpg
            stem = parts[parts.index("contents") - 1].lower()
        else:
            stem = os.path.basename(p).split("_")[0].split(".")[0].lower()
        size = os.path.getsize(p)
        if stem not in by_stem or size > by_stem[stem][1]:
            by_stem[stem] = (p, size)
    return sorted(p for p, _ in by_stem.values())


def textured(tile):
    grey = tile.convert("L").resize((64, 48))
    values = list(grey.tobytes())
    edges = [abs(a - b) for a, b in zip(values, values[1:])]
    return ImageStat.Stat(grey).stddev[0] > 10 and sum(edges) / len(edges) > 2.0


def tiles(path, rng, offset=0.0):
    """Non-overlapping 400x300 tiles (or 300x400), 24 px apart, from the photo scaled so its
    shorter side is at most 2400-3000 px."""
    im = Image.open(path).convert("RGB")
    short = rng.randint(2400, 3000)
    scale = short / min(im.size)
    if scale < 1:
        im = im.resize((round(im.width * scale), round(im.height * scale)), Image.LANCZOS)
    tw, th = TILE if im.width >= im.height else TILE[::-1]
    gap = 24
    out = []
    for y in range(round(offset * th), im.height - th + 1, th + gap):
        for x in range(round(offset * tw), im.width - tw + 1, tw + gap):
            tile = im.crop((x, y, x + tw, y + th))
            if textured(tile):
                out.append(tile)
    return out


def edit(base, kind, rng):
    """The copy and the JPEG quality to save it at."""
    w, h = base.size
    if kind == "q55":
        return base, 55
    if kind == "half":
        return base.resize((w // 2, h // 2), Image.LANCZOS), 90
    if kind == "bright":
        return ImageEnhance.Brightness(base).enhance(1.25), 90
    if kind == "crop5":
        dx, dy = round(w * 0.05), round(h * 0.05)
        return base.crop((dx, dy, w - dx, h - dy)).resize((w, h), Image.LANCZOS), 90
    if kind == "crop-side":
        dx = round(w * 0.10)
        box = (dx, 0, w, h) if rng.random() < 0.5 else (0, 0, w - dx, h)
        return base.crop(box), 90
    if kind == "reframe":
        f = rng.uniform(0.85, 0.90)
        cw, ch = round(w * f), round(h * f)
        x, y = rng.randint(0, w - cw), rng.randint(0, h - ch)
        return base.crop((x, y, x + cw, y + ch)).resize((w, h), Image.LANCZOS), 88
    if kind == "rotate":
        angle = rng.uniform(2, 4) * rng.choice([-1, 1])
        turned = base.rotate(angle, resample=Image.BICUBIC)
        m = 0.08  # enough to cut the empty corners of a 4-degree turn
        dx, dy = round(w * m), round(h * m)
        return turned.crop((dx, dy, w - dx, h - dy)).resize((w, h), Image.LANCZOS), 90
    if kind == "crop-q":
        dy = round(h * 0.08)
        return base.crop((0, dy, w, h - dy)), 65
    # The fresh edits (--edits fresh): other sizes, turns and framings than those above, fixed
    # before the set was first scored, so a design tuned on the first set is graded on these.
    if kind == "square":
        side = min(w, h)
        x, y = rng.randint(0, w - side), rng.randint(0, h - side)
        return base.crop((x, y, x + side, y + side)), 85
    if kind == "crop-corner":
        dx, dy = round(w * rng.uniform(0.04, 0.12)), round(h * rng.uniform(0.04, 0.12))
        return base.crop((0, 0, w - dx, h - dy)), 90
    if kind == "crop-rand":
        l, t, r, b = (rng.uniform(0.02, 0.09) for _ in range(4))
        return base.crop((round(w * l), round(h * t), round(w * (1 - r)), round(h * (1 - b)))).resize((w, h), Image.LANCZOS), 80
    if kind in ("rotate-small", "rotate-big"):
        angle = (rng.uniform(1, 2.5) if kind == "rotate-small" else rng.uniform(4, 6)) * rng.choice([-1, 1])
        turned = base.rotate(angle, resample=Image.BILINEAR)
        m = 0.05 if kind == "rotate-small" else 0.11
        dx, dy = round(w * m), round(h * m)
        return turned.crop((dx, dy, w - dx, h - dy)).resize((w, h), Image.LANCZOS), 88
    if kind == "reframe-zoom":
        f = rng.uniform(0.75, 0.85)
        cw, ch = round(w * f), round(h * f)
        x, y = rng.randint(0, w - cw), rng.randint(0, h - ch)
        return base.crop((x, y, x + cw, y + ch)).resize((round(w * 1.2), round(h * 1.2)), Image.BICUBIC), 85
    if kind == "small-crop":
        small = base.resize((round(w * 0.4), round(h * 0.4)), Image.LANCZOS)
        return small.crop((round(small.width * 0.06), 0, small.width, small.height)), 75
    if kind == "contrast-crop":
        dx = round(w * 0.07)
        return ImageEnhance.Contrast(base).enhance(1.3).crop((dx, 0, w - dx, h)).resize((w, h), Image.LANCZOS), 90
    raise ValueError(kind)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--bases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2811)
    ap.add_argument("--edits", choices=sorted(EDITS), default="dev",
                    help="dev: the edits the near-duplicate search was designed against; fresh: others, for grading it")
    ap.add_argument("--offset", type=float, default=0.0,
                    help="start the tiles this share of a tile across and down (0.5: tiles straddling the dev set's)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.outdir, exist_ok=True)
    pool = []
    for path in photographs():
        pool += [(path, t) for t in tiles(path, rng, a.offset)]
    if len(pool) < a.bases:
        sys.exit(f"dup_photo_set.py: only {len(pool)} textured tiles in the wallpapers, {a.bases} asked")
    rng.shuffle(pool)
    pool = pool[: a.bases]
    names = list(range(2 * a.bases))
    rng.shuffle(names)
    truth = {}
    for b, (source, base) in enumerate(pool):
        kind = EDITS[a.edits][b % len(EDITS[a.edits])]
        copy, quality = edit(base, kind, rng)
        original, duplicate = f"img-{names[2 * b]:05d}.jpg", f"img-{names[2 * b + 1]:05d}.jpg"
        base.save(os.path.join(a.outdir, original), "JPEG", quality=92)
        copy.save(os.path.join(a.outdir, duplicate), "JPEG", quality=quality)
        truth[original] = {"base": b, "edit": "original", "source": os.path.basename(source)}
        truth[duplicate] = {"base": b, "edit": kind, "source": os.path.basename(source)}
    with open(os.path.join(a.outdir, "truth.json"), "w") as f:
        json.dump(truth, f, indent=0, sort_keys=True)
    print(f"{2 * a.bases} images from {len(set(s for s, _ in pool))} photographs in {a.outdir}")


if __name__ == "__main__":
    main()
