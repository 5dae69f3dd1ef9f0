#!/usr/bin/env python3
"""A validation set for the care reader's settings, drawn by the training renderer.

    python3 training/care/validate.py --out DIR [--singles 1200] [--labels 600] [--negatives 600]
    python3 training/care/validate.py --out DIR --sweep .build/release/atl-classify

The first writes the set; the second runs atl-classify over it at each `--min-confidence` of
SWEEP and prints the mistakes at each: singles read wrong, symbols missed or wrongly reported on
labels, negatives with any symbol; and which threshold made the fewest.

The reader's thresholds (the default `--min-confidence`, say) are chosen here, never on the
benchmark's test set: that set is drawn by other code so that it measures how the tool does on
symbols it was not tuned for, and choosing settings on it would spend that independence.

The set is written in the test set's layout (benchmarks/care/render_test.py), so
benchmarks/care/evaluate.py scores it:

    labels/NNNN.jpg     render.render_label, 1000 px wide          labels.jsonl (codes and ink boxes)
    negatives/NNNN.jpg  render.render_negative_image               negatives.jsonl
    singles/NNNN.png    a crop of one symbol cut from another label photo, the symbol filling
                        50-90 % of the crop, resized to 40-200 px  singles.jsonl

Random streams are seeded with sequences ("validation", subset, index), which numpy hashes apart
from the integer seeds train.py's samples come from, so no image here was trained on.
"""

import argparse
import io
import json
import multiprocessing as mp
import os
import subprocess
import sys
from collections import Counter

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import render  # noqa: E402

TAG = 0x7661_6C69  # "vali": the first word of every seed sequence here
SUBSETS = {"labels": 1, "negatives": 2, "singles": 3}


def _rng(subset, index):
    return np.random.default_rng([TAG, SUBSETS[subset], index])


def _jpeg(rgb):
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "JPEG", quality=92)
    return buf.getvalue()


def make_label(index):
    image, symbols = render.render_label(_rng("labels", index))
    h, w = image.shape[:2]
    return _jpeg(image), {"width": w, "height": h, "symbols": symbols}


def make_negative(index):
    image = render.render_negative_image(_rng("negatives", index))
    return _jpeg(image), {"symbols": []}


def make_single(index):
    """One symbol of a rendered label, cut out square around its ink box and resized, as a person
    would crop it from a photo; a symbol too close to the edge for the chosen margin is passed
    over for the next."""
    rng = _rng("singles", index)
    while True:
        image, symbols = render.render_label(rng)
        for s in rng.permutation(len(symbols)):
            x, y, bw, bh = symbols[s]["box"]
            side = max(bw, bh) / rng.uniform(0.5, 0.9)
            cx = x + bw / 2 + rng.uniform(-0.08, 0.08) * side
            cy = y + bh / 2 + rng.uniform(-0.08, 0.08) * side
            x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
            x1, y1 = x0 + int(round(side)), y0 + int(round(side))
            if x0 < 0 or y0 < 0 or x1 > image.shape[1] or y1 > image.shape[0]:
                continue
            out = int(rng.integers(40, 201))
            crop = Image.fromarray(image[y0:y1, x0:x1]).resize((out, out), Image.Resampling.BOX)
            buf = io.BytesIO()
            crop.save(buf, "PNG")
            return buf.getvalue(), {"code": symbols[s]["code"]}


MAKERS = {"labels": (make_label, "jpg"), "negatives": (make_negative, "jpg"), "singles": (make_single, "png")}


def _task(args):
    subset, index = args
    make, ext = MAKERS[subset]
    data, record = make(index)
    return subset, index, ext, data, record


SWEEP = [0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8]


def _truth(out, subset):
    with open(os.path.join(out, f"{subset}.jsonl")) as f:
        return [json.loads(line) for line in f]


def _read(atl, out, paths, threshold):
    """The codes atl-classify reads in each of `paths`, most confident first."""
    run = subprocess.run([atl, "--task", "care", "--progress", "none", "--min-confidence", str(threshold), *paths],
                         cwd=out, capture_output=True, text=True, check=True)
    records = [json.loads(line) for line in run.stdout.splitlines()]
    return {r["path"]: [s["code"] for s in sorted(r["symbols"], key=lambda s: -s["confidence"])]
            for r in records if r.get("type") == "care"}


def mistakes(atl, out, threshold):
    """(singles read wrong, label symbols missed, label symbols wrongly reported, negatives with a
    symbol) at `threshold`."""
    counts = []
    singles = _truth(out, "singles")
    read = _read(atl, out, [t["path"] for t in singles], threshold)
    counts.append(sum(read.get(t["path"], [None])[:1] != [t["code"]] for t in singles))
    labels = _truth(out, "labels")
    read = _read(atl, out, [t["path"] for t in labels], threshold)
    missed = wrong = 0
    for t in labels:
        truth, got = Counter(s["code"] for s in t["symbols"]), Counter(read.get(t["path"], []))
        missed += sum((truth - got).values())
        wrong += sum((got - truth).values())
    counts += [missed, wrong]
    negatives = _truth(out, "negatives")
    read = _read(atl, out, [t["path"] for t in negatives], threshold)
    counts.append(sum(bool(read.get(t["path"], [None])) for t in negatives))
    return counts


def sweep(atl, out, thresholds=SWEEP):
    print("| --min-confidence | singles wrong | label symbols missed | label symbols wrongly reported "
          "| negatives with a symbol | all mistakes |")
    print("|---:|---:|---:|---:|---:|---:|")
    best = None
    for threshold in thresholds:
        counts = mistakes(os.path.abspath(atl), out, threshold)
        print(f"| {threshold} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |", flush=True)
        if best is None or sum(counts) < best[1]:
            best = (threshold, sum(counts))
    print(f"\nfewest mistakes at --min-confidence {best[0]}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="directory to write the set into")
    ap.add_argument("--singles", type=int, default=1200)
    ap.add_argument("--labels", type=int, default=600)
    ap.add_argument("--negatives", type=int, default=600)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sweep", metavar="ATL_CLASSIFY", help="score atl-classify on the set in --out at each threshold")
    ap.add_argument("--thresholds", type=lambda s: [float(t) for t in s.split(",")], default=SWEEP,
                    help="comma-separated --min-confidence values for --sweep (default: 0.25 to 0.8 by 0.05)")
    args = ap.parse_args(argv)
    if args.sweep:
        return sweep(args.sweep, args.out, args.thresholds)
    counts = {"labels": args.labels, "negatives": args.negatives, "singles": args.singles}
    records = {subset: [None] * n for subset, n in counts.items()}
    for subset in counts:
        os.makedirs(os.path.join(args.out, subset), exist_ok=True)
    tasks = [(subset, i + 1) for subset, n in counts.items() for i in range(n)]
    with mp.get_context("forkserver").Pool(args.jobs) as pool:
        for subset, index, ext, data, record in pool.imap_unordered(_task, tasks, chunksize=4):
            rel = f"{subset}/{index:04d}.{ext}"
            with open(os.path.join(args.out, rel), "wb") as f:
                f.write(data)
            records[subset][index - 1] = {"path": rel, **record}
    for subset, rows in records.items():
        with open(os.path.join(args.out, f"{subset}.jsonl"), "w") as f:
            for row in rows:
                f.write(json.dumps(row, separators=(",", ":")) + "\n")
    print(f"wrote {args.singles} singles, {args.labels} labels, {args.negatives} negatives to {args.out}")


if __name__ == "__main__":
    main()
