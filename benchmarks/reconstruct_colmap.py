#!/usr/bin/env python3
"""The COLMAP side of benchmarks/reconstruct.sh: sparse structure from motion with pycolmap.

    reconstruct_colmap.py CAPTURE_DIR --out DIR [--threads 2]

Runs the three stages of COLMAP's standard sparse pipeline on the CPU, each timed here with
time.perf_counter():

    features  pycolmap.extract_features   SIFT, default options (SIMPLE_RADIAL camera from the
                                          EXIF focal-length prior, camera mode AUTO), but
                                          num_threads = THREADS
    matching  pycolmap.match_exhaustive   default options, num_threads = THREADS
    mapping   pycolmap.incremental_mapping  default options, num_threads = THREADS

and writes the largest model it finds (most registered images) as COLMAP text with
Reconstruction.write_text into DIR/sparse/{cameras,images,points3D}.txt (plus COLMAP 4's
rigs.txt and frames.txt), the layout atl-reconstruct writes. DIR/database.db and DIR/models/
(every model the mapper made, binary) are kept for a look afterwards.

The images are the capture's top-level JPEG/PNG files (img_0001.jpg …), passed by name, so
nothing under truth/ (texture.png with --write-texture) is mistaken for a photo.

Prints one JSON line on stdout:

    {"type": "colmap", "pycolmap": "4.2.1", "images": 24, "registered": 24, "models": 1,
     "points": 3900, "keypoints": 61234, "verifiedPairs": 270, "inlierMatches": 98765,
     "seconds": {"features": 6.1, "matching": 9.4, "mapping": 3.0}, "totalSeconds": 18.5}

Exit status 0 whether or not anything registered ("registered": 0 and no DIR/sparse then); 1 if
a stage raised; 2 for bad arguments. COLMAP's own log goes to stderr.
"""
import argparse
import json
import os
import shutil
import sys
import time

import pycolmap

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("capture", help="capture directory (img_0001.jpg …)")
    ap.add_argument("--out", required=True, help="output directory (replaced)")
    ap.add_argument("--threads", type=int, default=2, help="num_threads of every stage (2)")
    args = ap.parse_args()

    capture = os.path.abspath(args.capture)
    names = sorted(n for n in os.listdir(capture)
                   if n.lower().endswith(IMAGE_SUFFIXES) and os.path.isfile(os.path.join(capture, n)))
    if not names:
        ap.error(f"no images in {capture}")

    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "models"))
    database = os.path.join(out, "database.db")
    seconds = {}
    record = {"type": "colmap", "pycolmap": pycolmap.__version__, "images": len(names),
              "threads": args.threads}

    # 1. SIFT features. Defaults everywhere (as `colmap feature_extractor` would run) except the
    #    thread count, fixed so that runs are comparable whatever the machine has.
    extraction = pycolmap.FeatureExtractionOptions()
    extraction.num_threads = args.threads
    t0 = time.perf_counter()
    pycolmap.extract_features(database, capture, image_names=names, extraction_options=extraction,
                              device=pycolmap.Device.cpu)
    seconds["features"] = time.perf_counter() - t0

    # 2. Exhaustive matching with geometric verification (every pair: a capture is small).
    matching = pycolmap.FeatureMatchingOptions()
    matching.num_threads = args.threads
    t0 = time.perf_counter()
    pycolmap.match_exhaustive(database, matching_options=matching, device=pycolmap.Device.cpu)
    seconds["matching"] = time.perf_counter() - t0

    # what matching found, for the cases that register little or nothing (cheap: a few queries)
    try:
        db = pycolmap.Database.open(database)
        try:
            record["keypoints"] = int(db.num_keypoints())
            record["verifiedPairs"] = int(db.num_verified_image_pairs())
            record["inlierMatches"] = int(db.num_inlier_matches())
        finally:
            db.close()
    except Exception as error:  # informative only: never fail the run for it
        print(f"reconstruct_colmap.py: could not read match counts: {error}", file=sys.stderr)

    # 3. Incremental mapping; it may make several models (or none) when the views do not all
    #    connect. The largest counts.
    mapping = pycolmap.IncrementalPipelineOptions()
    mapping.num_threads = args.threads
    t0 = time.perf_counter()
    models = pycolmap.incremental_mapping(database, capture, os.path.join(out, "models"), mapping)
    seconds["mapping"] = time.perf_counter() - t0

    record["models"] = len(models)
    best = max(models.values(), key=lambda r: (r.num_reg_images(), r.num_points3D()), default=None)
    if best is not None and best.num_reg_images() > 0:
        sparse = os.path.join(out, "sparse")
        os.makedirs(sparse)
        best.write_text(sparse)
        record["registered"] = best.num_reg_images()
        record["points"] = best.num_points3D()
    else:
        record["registered"] = 0
        record["points"] = 0
    record["seconds"] = {k: round(v, 3) for k, v in seconds.items()}
    record["totalSeconds"] = round(sum(seconds.values()), 3)
    print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
