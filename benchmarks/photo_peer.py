#!/usr/bin/env python3
"""photo_peer.py DIR THUMBDIR [--procs P] [--draft]

The Python peer of `atl-import --images DIR`: per photo read the bytes,
hashlib.sha256 them, Image.open, ImageOps.exif_transpose, imagehash.phash on
the decoded image, then a 256-px thumbnail with Pillow's `thumbnail` (on a
copy of the full decode), saved as JPEG named by the sha256. Runs in a
multiprocessing.Pool(P) (default 2, both cores, as atl-import uses).
Prints one NDJSON line per photo; a photos/s summary on stderr.

--draft is the careful Python user (issue 28, item 5): `Image.draft("RGB", (256, 256))` before
anything is decoded, so libjpeg decodes at 1/2 to 1/8 scale (the largest reduction that keeps
256 pixels), which is what atl-import does too; the pHash is then taken on the reduced image.
"""
import argparse, hashlib, io, json, os, sys, time
from multiprocessing import Pool
from PIL import Image, ImageOps
import imagehash

THUMBDIR = None
DRAFT = False

def init(td, draft=False):
    global THUMBDIR, DRAFT
    THUMBDIR = td
    DRAFT = draft

def one(path):
    with open(path, "rb") as f:
        data = f.read()
    digest = hashlib.sha256(data).hexdigest()
    im = Image.open(io.BytesIO(data))
    if DRAFT:
        im.draft("RGB", (256, 256))
    im = ImageOps.exif_transpose(im)
    ph = imagehash.phash(im)
    th = im.copy()
    th.thumbnail((256, 256))
    th.convert("RGB").save(os.path.join(THUMBDIR, digest + ".jpg"), "JPEG", quality=85)
    return {"type": "image", "path": path, "sha256": digest, "width": im.width,
            "height": im.height, "phash": str(ph)}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("thumbdir")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--draft", action="store_true", help="decode at a reduced DCT scale (Image.draft)")
    a = ap.parse_args()
    os.makedirs(a.thumbdir, exist_ok=True)
    paths = sorted(os.path.join(a.dir, n) for n in os.listdir(a.dir)
                   if n.lower().endswith((".jpg", ".jpeg", ".png")))
    t = time.time()
    out = sys.stdout
    if a.procs == 1:
        init(a.thumbdir, a.draft)
        for r in map(one, paths):
            out.write(json.dumps(r) + "\n")
    else:
        with Pool(a.procs, initializer=init, initargs=(a.thumbdir, a.draft)) as p:
            for r in p.imap(one, paths, chunksize=1):
                out.write(json.dumps(r) + "\n")
    dt = time.time() - t
    print(f"peer: {len(paths)} photos in {dt:.2f} s, {len(paths)/dt:.2f} photos/s, procs={a.procs}{', draft' if a.draft else ''}",
          file=sys.stderr)

if __name__ == "__main__":
    main()
