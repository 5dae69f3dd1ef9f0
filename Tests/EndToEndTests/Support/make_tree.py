#!/usr/bin/env python3
"""Makes deterministic files for the transfer end-to-end tests.

Usage:
  make_tree.py nested OUTDIR      30 files in nested directories under OUTDIR: an empty file,
                                  one of 4,000,000 bytes, the rest 1 byte to 200 kB
  make_tree.py flat OUTDIR COUNT BYTES
                                  COUNT files of BYTES bytes each, OUTDIR/file-00.bin …

The bytes come from a seeded generator, so every run makes the same files.
"""
import random
import sys
from pathlib import Path


def write(path, size, rng):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(rng.randbytes(size))


def nested(out):
    rng = random.Random(4)
    names = ["empty.txt", "big/scan-4mb.bin"]
    for i in range(8):
        names.append(f"shoe/img-{i:03}.jpg")
    for i in range(8):
        names.append(f"coat/front/img-{i:03}.jpg")
    for i in range(6):
        names.append(f"coat/back/detail/img-{i:03}.jpg")
    for i in range(6):
        names.append(f"notes-{i}.txt")
    assert len(names) == 30
    for name in names:
        size = 0 if name == "empty.txt" else 4_000_000 if name.startswith("big/") else rng.randrange(1, 200_000)
        write(out / name, size, rng)


def flat(out, count, size):
    rng = random.Random(count * 7919 + size)
    for i in range(count):
        write(out / f"file-{i:02}.bin", size, rng)


if __name__ == "__main__":
    kind, out = sys.argv[1], Path(sys.argv[2])
    if kind == "nested":
        nested(out)
    elif kind == "flat":
        flat(out, int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(f"make_tree.py: unknown layout {kind!r} (nested or flat)")
