#!/usr/bin/env python3
"""dup_crops.py [--set DIR] [--bases 1000] [--bin DIR] [--within N]

Near-duplicates that are cropped, re-framed or turned (issue 28, item 6), graded on a set drawn
independently of Atelier (benchmarks/dup_photo_set.py: tiles of real photographs from Debian's
wallpaper packages, one edited copy each, made with Pillow). Compares, over all pairs of the
2 x bases photos (a pair is a true duplicate when both come from one base):

  imagehash.phash, distance <= 8          the peer (Python, imagehash 4.x)
  atl-query - duplicates --hash-only      our pHash groups (complete linkage, <= 8 bits)
  atl-query - duplicates                  pHash candidates within --verify-within bits,
                                          confirmed by local features (SIFT + affine RANSAC)

and prints precision, recall and F1 over all pairs, recall per edit, the seconds each step took
(hashing is timed apart from grouping) and the target (F1 >= 0.98 with precision >= 0.99).
Needs Pillow and imagehash (benchmarks/work/venv, made by benchmarks/photos.sh, or any
python3 that has them).
"""
import argparse, itertools, json, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def groups_of(lines):
    """image id -> group id (None for photos in no group)"""
    gid = {}
    for line in lines:
        r = json.loads(line)
        for im in r["images"]:
            gid[im["id"]] = None if r["id"] == "other" else r["id"]
    return gid


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default=os.path.join(HERE, "data", "dup-photos"))
    ap.add_argument("--bases", type=int, default=1000)
    ap.add_argument("--bin", default=os.environ.get("ATL_BIN", os.path.join(ROOT, ".build", "release")))
    ap.add_argument("--within", type=int, default=None, help="--verify-within for atl-query (default: its own)")
    ap.add_argument("--threshold", type=int, default=8)
    ap.add_argument("--no-windows", action="store_true", help="leave the window pHashes (phashWindows) out of the stream, as before they existed")
    a = ap.parse_args()
    truth_path = os.path.join(a.set, "truth.json")
    if not os.path.exists(truth_path):
        subprocess.run([sys.executable, os.path.join(HERE, "dup_photo_set.py"), a.set, "--bases", str(a.bases)], check=True)
    truth = json.load(open(truth_path))
    names = sorted(truth)
    paths = [os.path.join(a.set, n) for n in names]

    t0 = time.time()
    hashed = subprocess.run([os.path.join(a.bin, "atl-classify"), "--task", "hash", "--progress", "none"] + paths,
                            check=True, capture_output=True, text=True).stdout
    t_hash = time.time() - t0
    records = [json.loads(l) for l in hashed.splitlines()]
    ours = {os.path.basename(r["path"]): r for r in records}

    def image(n, p, windows):
        r = {"type": "image", "id": n, "path": p, "phash": ours[n]["phash"]}
        if windows and "phashWindows" in ours[n]:
            r["phashWindows"] = ours[n]["phashWindows"]
        return json.dumps(r) + "\n"
    stream = "".join(image(n, p, not a.no_windows) for n, p in zip(names, paths))

    from PIL import Image
    import imagehash
    t0 = time.time()
    theirs = {n: int(str(imagehash.phash(Image.open(p))), 16) for n, p in zip(names, paths)}
    t_peer_hash = time.time() - t0

    def query(extra):
        t = time.time()
        out = subprocess.run([os.path.join(a.bin, "atl-query"), "-", "duplicates", "--threshold", str(a.threshold),
                              "--progress", "none"] + extra, input=stream, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"atl-query failed: {out.stderr}")
        if out.stderr.strip():
            print(out.stderr.strip(), file=sys.stderr)
        return groups_of(out.stdout.splitlines()), time.time() - t

    hash_groups, t_hash_only = query(["--hash-only"])
    within = ["--verify-within", str(a.within)] if a.within is not None else []
    feature_groups, t_features = query(within)

    def grouped(g):
        return lambda x, y: g.get(x) is not None and g.get(x) == g.get(y)

    methods = [
        ("imagehash.phash, distance <= %d (peer)" % a.threshold,
         lambda x, y: bin(theirs[x] ^ theirs[y]).count("1") <= a.threshold, t_peer_hash, None),
        ("atl-query - duplicates --hash-only", grouped(hash_groups), t_hash, t_hash_only),
        ("atl-query - duplicates (features)", grouped(feature_groups), t_hash, t_features),
    ]
    edits = sorted({v["edit"] for v in truth.values()} - {"original"})
    print(f"{len(names)} photos ({a.bases} bases from real photographs, one edited copy each), "
          f"{len(names) * (len(names) - 1) // 2} pairs, {len(names) // 2} true pairs")
    print()
    print("| method | precision | recall | F1 | " + " | ".join(edits) + " | hashing s | grouping s |")
    print("|---|---:|---:|---:|" + "---:|" * len(edits) + "---:|---:|")
    best = None
    for label, same, t_h, t_g in methods:
        tp = fp = fn = 0
        per = {e: [0, 0] for e in edits}
        for x, y in itertools.combinations(names, 2):
            truly = truth[x]["base"] == truth[y]["base"]
            guess = same(x, y)
            if truly and guess: tp += 1
            elif guess: fp += 1
            elif truly: fn += 1
            if truly:
                e = truth[x]["edit"] if truth[x]["edit"] != "original" else truth[y]["edit"]
                per[e][0] += guess
                per[e][1] += 1
        p, r, f = prf(tp, fp, fn)
        cells = " | ".join(f"{per[e][0] / per[e][1]:.2f}" for e in edits)
        grouping = f"{t_g:.2f}" if t_g is not None else "–"
        print(f"| {label} | {p:.3f} | {r:.3f} | **{f:.3f}** | {cells} | {t_h:.1f} | {grouping} |")
        best = (p, r, f)
    p, r, f = best
    print()
    print(f"target F1 >= 0.98 with precision >= 0.99: F1 {f:.3f}, precision {p:.3f}: {'met' if f >= 0.98 and p >= 0.99 else 'NOT met'}")


if __name__ == "__main__":
    main()
