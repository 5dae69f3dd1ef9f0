#!/usr/bin/env python3
"""dup_eval.py [--bases 60] [--threshold 8] [--workdir DIR]

Near-duplicate precision/recall/F1 of pHash: our `atl-classify --task hash`
versus `imagehash.phash`. 60 distinct base photos (make_photos.render at
1024x768, q90) and four near-duplicates of each: re-encoded q60, resized to
50%, 5% cropped off each side then resized back, brightened x1.2. Over all
pairs of the 300 images, a pair is a duplicate when it shares a base; it is
predicted one when the Hamming distance <= threshold. Also scores the groups
`atl-query - duplicates` makes from our hashes (same group = predicted), by the hash alone
(--hash-only) and with local features (the default). The thresholds of the local-feature
check were first set on this set; benchmarks/dup_crops.py grades it on real photographs.
"""
import argparse, itertools, json, os, subprocess, sys
from PIL import Image, ImageEnhance
import imagehash
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_photos

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release")
TRANSFORMS = ["q60", "half", "crop5", "bright"]

def variants(base):
    w, h = base.size
    out = {"q60": (base, {"quality": 60}),
           "half": (base.resize((w // 2, h // 2), Image.LANCZOS), {"quality": 90})}
    dx, dy = round(w * 0.05), round(h * 0.05)
    out["crop5"] = (base.crop((dx, dy, w - dx, h - dy)).resize((w, h), Image.LANCZOS), {"quality": 90})
    out["bright"] = (ImageEnhance.Brightness(base).enhance(1.2), {"quality": 90})
    return out

def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bases", type=int, default=60)
    ap.add_argument("--threshold", type=int, default=8)
    ap.add_argument("--workdir", default=os.path.join(ROOT, "benchmarks", "work", "dup-eval"))
    a = ap.parse_args()
    d = a.workdir
    os.makedirs(d, exist_ok=True)
    items = []  # (path, base, transform)
    for b in range(a.bases):
        p = os.path.join(d, f"b{b:03d}-orig.jpg")
        if not os.path.exists(p):
            base = make_photos.render(b, 1024, 768, 777)
            base.save(p, "JPEG", quality=90)
            for t, (im, kw) in variants(base).items():
                im.save(os.path.join(d, f"b{b:03d}-{t}.jpg"), "JPEG", **kw)
        items.append((p, b, "orig"))
        for t in TRANSFORMS:
            items.append((os.path.join(d, f"b{b:03d}-{t}.jpg"), b, t))
    # ours
    recs = subprocess.run([os.path.join(BIN, "atl-classify"), "--task", "hash"] + [x[0] for x in items],
                          check=True, capture_output=True, text=True).stdout.splitlines()
    ours = {}
    for l in recs:
        r = json.loads(l)
        ours[os.path.abspath(r["path"])] = int(r["phash"], 16)
    theirs = {os.path.abspath(p): int(str(imagehash.phash(Image.open(p))), 16) for p, _, _ in items}
    # our grouping
    stream = "".join(json.dumps({"type": "image", "id": os.path.basename(p), "path": os.path.abspath(p),
                                 "phash": f"{ours[os.path.abspath(p)]:016x}"}) + "\n" for p, _, _ in items)
    def groups(extra):
        g = subprocess.run([os.path.join(BIN, "atl-query"), "-", "duplicates", "--threshold", str(a.threshold), "--progress", "none"] + extra,
                           input=stream, capture_output=True, text=True).stdout.splitlines()
        gid = {}
        for l in g:
            r = json.loads(l)
            for im in r["images"]:
                gid[im["id"]] = None if r["id"] == "other" else r["id"]
        return gid
    gid, fid = groups(["--hash-only"]), groups([])
    agree = sum(ours[os.path.abspath(p)] == theirs[os.path.abspath(p)] for p, _, _ in items)
    methods = {
        "atl-classify pHash, distance": lambda x, y: bin(ours[x] ^ ours[y]).count("1") <= a.threshold,
        "imagehash.phash, distance": lambda x, y: bin(theirs[x] ^ theirs[y]).count("1") <= a.threshold,
        "atl-query - duplicates --hash-only groups": lambda x, y: gid.get(os.path.basename(x)) is not None
            and gid.get(os.path.basename(x)) == gid.get(os.path.basename(y)),
        "atl-query - duplicates groups (local features)": lambda x, y: fid.get(os.path.basename(x)) is not None
            and fid.get(os.path.basename(x)) == fid.get(os.path.basename(y)),
    }
    print(f"{len(items)} images ({a.bases} bases x orig + {', '.join(TRANSFORMS)}), "
          f"{len(items) * (len(items) - 1) // 2} pairs, threshold {a.threshold}; "
          f"our pHash == imagehash on {agree}/{len(items)} images")
    print()
    print("| method | pairs | TP | FP | FN | precision | recall | F1 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, pred in methods.items():
        cnt = {k: [0, 0, 0] for k in ["all"] + TRANSFORMS}
        for (p1, b1, t1), (p2, b2, t2) in itertools.combinations(items, 2):
            x, y = os.path.abspath(p1), os.path.abspath(p2)
            truth, guess = b1 == b2, pred(x, y)
            keys = ["all"]
            if truth and "orig" in (t1, t2):
                keys.append(t2 if t1 == "orig" else t1)  # per transform: orig vs that variant
            for k in keys:
                c = cnt[k]
                if truth and guess: c[0] += 1
                elif guess and not truth: c[1] += 1
                elif truth and not guess: c[2] += 1
        for k in ["all"] + TRANSFORMS:
            tp, fp, fn = cnt[k]
            if k != "all":
                fp = cnt["all"][1]  # false positives are not per transform; show the overall count
            p, r, f = prf(tp, fp if k == "all" else 0, fn)
            label = "all pairs" if k == "all" else f"orig vs {k} (recall only)"
            if k == "all":
                print(f"| {name} | {label} | {tp} | {fp} | {fn} | {p:.3f} | {r:.3f} | {f:.3f} |")
            else:
                print(f"| {name} | {label} | {tp} | – | {fn} | – | {r:.3f} | – |")
    # distances orig vs transform
    print()
    print("| transform | ours: mean / max distance to orig | imagehash: mean / max |")
    print("|---|---:|---:|")
    for t in TRANSFORMS:
        do, di = [], []
        for b in range(a.bases):
            o = os.path.abspath(os.path.join(d, f"b{b:03d}-orig.jpg")); v = os.path.abspath(os.path.join(d, f"b{b:03d}-{t}.jpg"))
            do.append(bin(ours[o] ^ ours[v]).count("1")); di.append(bin(theirs[o] ^ theirs[v]).count("1"))
        print(f"| {t} | {sum(do)/len(do):.1f} / {max(do)} | {sum(di)/len(di):.1f} / {max(di)} |")

if __name__ == "__main__":
    main()
