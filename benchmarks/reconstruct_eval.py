#!/usr/bin/env python3
"""Scores sparse reconstructions of synthetic captures against their truth, and writes the
side-by-side table of benchmarks/reconstruct.sh.

    reconstruct_eval.py eval --truth CAPTURE_DIR --model MODEL_DIR
        Scores one COLMAP text (or binary) model; prints one JSON line. The self-test: the truth
        as the model (--model CAPTURE_DIR/truth) must give 0 errors.

    reconstruct_eval.py run --capture-name NAME --truth CAPTURE_DIR --model MODEL_DIR \
            --tool ours|colmap --variant LABEL --run N --exit STATUS --time-file FILE \
            --stdout FILE --append RUNS.jsonl
        What reconstruct.sh calls after every run: scores the model (when there is one), reads
        the tool's own record from its stdout (atl-reconstruct's NDJSON `model` record, or
        reconstruct_colmap.py's `colmap` line) for the stage seconds and the `/usr/bin/time -f
        "%e %M"` file for wall time and peak RSS, and appends all of it as one JSON line.

    reconstruct_eval.py report RUNS.jsonl [--header FILE]
        The Markdown tables, one per capture, on stdout.

Reading: the model with pycolmap.Reconstruction (COLMAP's own reader, so a model it cannot read
is a finding in itself); should that fail, a small parser of cameras/images/points3D.txt here
takes over and the row says so. The truth: truth/images.txt (exact poses; COLMAP convention,
world to camera, centre = -Rᵀt), checked against the centres in truth/scene.json, and the ring
radius from scene.json's rings[].radiusMetres.

Scores, per model:
  registered    images with a pose / images in the capture (matched by file name)
  rotation      the estimated centres are aligned to the true ones with a similarity
                (Umeyama: scale s, rotation Ra, translation, least squares, numpy SVD); the error
                of an image is the angle of R_true · (R_est · Raᵀ)ᵀ, in degrees; median and max
  centre        |s·Ra·c_est + t − c_true| as a percentage of the ring radius; median and max
  reprojection  mean over all observations of the distance between the observed keypoint and
                its 3D point projected with the model's own camera (recomputed, same code for
                both tools); the mean of the model's ERROR column is kept too
  points, mean track length (observations per point), the fitted focal length (mean over the
  model's cameras) against the true one
Alignment needs 3 registered images; with fewer the pose errors are null.
"""
import argparse
import json
import math
import os
import re
import signal
import statistics
import sys

import numpy as np


# ---------------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------------
def quat_to_matrix(q):
    """(qw, qx, qy, qz), Hamilton, to a rotation matrix (normalised first)."""
    w, x, y, z = np.asarray(q, dtype=float) / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def umeyama(src, dst):
    """Similarity (s, R, t) minimising Σ|dst − (s R src + t)|²; src, dst are n×3."""
    mu_s, mu_d = src.mean(axis=0), dst.mean(axis=0)
    xs, xd = src - mu_s, dst - mu_d
    cov = xd.T @ xs / len(src)
    u, d, vt = np.linalg.svd(cov)
    sign = np.ones(3)
    if np.linalg.det(u) * np.linalg.det(vt) < 0:
        sign[2] = -1
    r = u @ np.diag(sign) @ vt
    var_s = (xs ** 2).sum() / len(src)
    s = float((d * sign).sum() / var_s)
    t = mu_d - s * r @ mu_s
    return s, r, t


def rotation_angle_deg(r):
    """The angle of a rotation matrix; atan2 of sine and cosine, exact near 0 where acos is not."""
    sine = np.linalg.norm([r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1]]) / 2
    return math.degrees(math.atan2(sine, (np.trace(r) - 1) / 2))


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------
def data_lines(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                yield line


def read_truth(capture):
    """{name: (R, centre)} from truth/images.txt, and the ring radius from scene.json."""
    truth = os.path.join(capture, "truth")
    poses = {}
    lines = list(open(os.path.join(truth, "images.txt"), encoding="utf-8"))
    data = [l.strip() for l in lines if not l.startswith("#")]
    # two lines per image: the pose, then the (empty) observations
    for i in range(0, len(data), 2):
        if not data[i]:
            continue
        f = data[i].split()
        r = quat_to_matrix([float(v) for v in f[1:5]])
        t = np.array([float(v) for v in f[5:8]])
        poses[f[9]] = (r, -r.T @ t)
    with open(os.path.join(truth, "scene.json"), encoding="utf-8") as f:
        scene = json.load(f)
    for view in scene["images"]:
        if view["name"] not in poses or np.abs(poses[view["name"]][1] - view["centre"]).max() > 1e-6:
            raise SystemExit(f"truth/images.txt and truth/scene.json disagree about {view['name']}")
    radius = statistics.fmean(ring["radiusMetres"] for ring in scene["rings"])
    return poses, radius, scene


class Model:
    """What the scores need from a model: poses by image name, points, observations."""

    def __init__(self):
        self.poses = {}          # name -> (R world-to-camera, centre)
        self.points = 0
        self.observations = 0
        self.error_column_mean = None
        self.reprojection = None  # recomputed mean over observations
        self.focal = None
        self.camera_models = []
        self.reader = None


def read_with_pycolmap(path):
    import pycolmap
    rec = pycolmap.Reconstruction(path)
    m = Model()
    m.reader = f"pycolmap {pycolmap.__version__}"
    xyz = {pid: p.xyz for pid, p in rec.points3D.items()}
    m.points = len(xyz)
    errors = [p.error for p in rec.points3D.values() if p.error >= 0]
    m.error_column_mean = float(np.mean(errors)) if errors else None
    m.observations = sum(p.track.length() for p in rec.points3D.values())
    total, count = 0.0, 0
    for image in rec.images.values():
        if not image.has_pose:
            continue
        pose = image.cam_from_world()
        r = np.asarray(pose.rotation.matrix())
        m.poses[image.name] = (r, np.asarray(image.projection_center()))
        observed = [(p.xy, p.point3D_id) for p in image.points2D if p.has_point3D()]
        if not observed:
            continue
        xy = np.array([o[0] for o in observed])
        world = np.array([xyz[o[1]] for o in observed])
        cam = world @ r.T + np.asarray(pose.translation)
        projected = np.asarray(image.camera.img_from_cam(cam, check_cheirality=False))
        total += float(np.linalg.norm(projected - xy, axis=1).sum())
        count += len(xy)
    m.reprojection = total / count if count else None
    cameras = list(rec.cameras.values())
    m.camera_models = sorted({c.model_name for c in cameras})
    m.focal = float(np.mean([c.mean_focal_length() for c in cameras])) if cameras else None
    return m


def read_with_own_parser(path):
    """Fallback: poses, points, track lengths and the ERROR column; no reprojection."""
    m = Model()
    m.reader = "own text parser (pycolmap could not read the model)"
    focals, models = [], set()
    for line in data_lines(os.path.join(path, "cameras.txt")):
        f = line.split()
        models.add(f[1])
        params = [float(v) for v in f[4:]]
        focals.append((params[0] + params[1]) / 2 if f[1] in ("PINHOLE", "OPENCV", "FULL_OPENCV", "OPENCV_FISHEYE") else params[0])
    m.camera_models, m.focal = sorted(models), (float(np.mean(focals)) if focals else None)
    with open(os.path.join(path, "images.txt"), encoding="utf-8") as fh:
        rows = [l.rstrip("\n") for l in fh if not l.startswith("#")]
    for i in range(0, len(rows) - 1, 2):
        f = rows[i].split()
        if len(f) < 10:
            continue
        r = quat_to_matrix([float(v) for v in f[1:5]])
        t = np.array([float(v) for v in f[5:8]])
        m.poses[f[9]] = (r, -r.T @ t)
    errors = []
    for line in data_lines(os.path.join(path, "points3D.txt")):
        f = line.split()
        m.points += 1
        errors.append(float(f[7]))
        m.observations += (len(f) - 8) // 2
    m.error_column_mean = float(np.mean(errors)) if errors else None
    return m


def read_model(path):
    try:
        return read_with_pycolmap(path), None
    except Exception as error:  # a model COLMAP's reader rejects is reported, and still scored
        return read_with_own_parser(path), f"{type(error).__name__}: {error}"


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------
def score(capture, model_dir):
    truth, radius, scene = read_truth(capture)
    result = {"images": len(truth), "registered": 0, "ringRadiusMetres": radius,
              "trueFocalPixels": scene["camera"]["fx"]}
    if not model_dir or not os.path.isdir(model_dir):
        result["note"] = "no model"
        return result
    model, read_error = read_model(model_dir)
    if read_error:
        result["readError"] = read_error
    common = sorted(set(model.poses) & set(truth))
    result.update({
        "reader": model.reader,
        "registered": len(common),
        "unknownNames": sorted(set(model.poses) - set(truth)),
        "points": model.points,
        "observations": model.observations,
        "meanTrackLength": model.observations / model.points if model.points else None,
        "meanReprojectionErrorPixels": model.reprojection,
        "meanErrorColumnPixels": model.error_column_mean,
        "cameraModels": model.camera_models,
        "focalPixels": model.focal,
    })
    if len(common) >= 3:
        est = np.array([model.poses[n][1] for n in common])
        tru = np.array([truth[n][1] for n in common])
        s, ra, t = umeyama(est, tru)
        rot = [rotation_angle_deg(truth[n][0] @ (model.poses[n][0] @ ra.T).T) for n in common]
        aligned = (s * (ra @ est.T)).T + t
        centre = list(np.linalg.norm(aligned - tru, axis=1) / radius * 100)
        result.update({
            "rotationErrorDegrees": {"median": float(np.median(rot)), "max": float(max(rot))},
            "centreErrorPercent": {"median": float(np.median(centre)), "max": float(max(centre))},
            "alignmentScale": s,
        })
    return result


# ---------------------------------------------------------------------------------------------
# One run of a tool: its record, its time file, the scores
# ---------------------------------------------------------------------------------------------
STAGES = ("features", "matching", "mapping")


def stage_of(key):
    """atl-reconstruct's stage names onto COLMAP's three stages."""
    k = key.lower()
    if "match" in k:
        return "matching"
    if "feature" in k or "pre" in k or "extract" in k or "detect" in k:
        return "features"
    if "align" in k or "map" in k or "bundle" in k or "triang" in k or "regist" in k:
        return "mapping"
    return None


def tool_record(path, tool):
    """The tool's own JSON record from its stdout, or None."""
    want = "model" if tool == "ours" else "colmap"
    found = None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                if obj.get("type") == want:
                    found = obj
    except OSError:
        pass
    return found


def cmd_run(args):
    run = {"capture": args.capture_name, "tool": args.tool, "variant": args.variant,
           "run": args.run, "exit": args.exit}
    try:
        text = open(args.time_file).read()
        wall, rss = text.split()[-2:]
        run["wallSeconds"], run["peakRssMB"] = float(wall), int(rss) / 1024
        # GNU time's own line for a crash: "Command terminated by signal 4"
        killed = re.search(r"terminated by signal (\d+)", text)
        if killed:
            run["signal"] = int(killed.group(1))
    except (OSError, ValueError):
        run["wallSeconds"] = run["peakRssMB"] = None
    record = tool_record(args.stdout, args.tool)
    stages, other = {}, {}
    if record:
        raw = record.get("seconds") if args.tool == "colmap" else (record.get("metrics") or {}).get("seconds")
        for key, value in (raw or {}).items():
            stage = stage_of(key) if args.tool == "ours" else key
            if stage in STAGES:
                stages[stage] = stages.get(stage, 0) + value
            else:
                other[key] = value
        run["toolRecord"] = record
    run["stageSeconds"] = stages
    if other:
        run["otherStageSeconds"] = other
    model_dir = None
    if args.model and any(os.path.isfile(os.path.join(args.model, f)) for f in ("images.txt", "images.bin")):
        model_dir = args.model
    run["score"] = score(args.truth, model_dir)
    with open(args.append, "a", encoding="utf-8") as f:
        f.write(json.dumps(run) + "\n")
    s = run["score"]
    rot = s.get("rotationErrorDegrees", {}).get("median")
    print(f"{args.capture_name} {args.variant} run {args.run}: exit {args.exit}, "
          f"{s['registered']}/{s['images']} registered"
          + (f", rotation error {rot:.3f}°" if rot is not None else "")
          + (f", {run['wallSeconds']:.1f} s" if run["wallSeconds"] is not None else ""), file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------------
def fmt(v, digits):
    if v is None:
        return "—"
    return f"{v:,.{digits}f}"


def summary(values, digits, unit=""):
    """median, and the range when several runs differ."""
    values = [v for v in values if v is not None]
    if not values:
        return "—", None
    med = statistics.median(values)
    text = fmt(med, digits) + unit
    if len(values) > 1:
        lo, hi = min(values), max(values)
        if fmt(lo, digits) != fmt(hi, digits):
            text += f" ({fmt(lo, digits)}–{fmt(hi, digits)})"
    return text, med


def exit_text(run):
    """"exit 65"; "exit 132, SIGILL" for a crash; "exit 124, timeout"."""
    text = f"exit {run['exit']}"
    if run.get("signal"):
        try:
            text += ", " + signal.Signals(run["signal"]).name
        except ValueError:
            text += f", signal {run['signal']}"
    elif run["exit"] == 124:
        text += ", timeout?"
    return text


def failed(run):
    return run["exit"] != 0 or run["score"]["registered"] == 0


def column(runs):
    """Cells of one tool variant over its runs; and the medians the ratios use."""
    cells, med = {}, {}
    ok = [r for r in runs if not failed(r)]
    images = runs[0]["score"]["images"]
    regs = [r["score"]["registered"] for r in runs]
    text, _ = summary(regs, 0)
    cells["registered"] = f"{text}/{images}"
    bad = [r for r in runs if failed(r)]
    if bad:
        why = ", ".join(sorted({exit_text(r) if r["exit"] != 0 else
                                r["score"].get("note", "nothing registered") for r in bad}))
        cells["registered"] += f" ({why})" if len(runs) == 1 else f" ({len(bad)} of {len(runs)} runs: {why})"
    if any(r["score"].get("readError") for r in runs):
        cells["registered"] += " ¹"

    def pick(path):
        out = []
        for r in ok:
            v = r
            for k in path:
                v = v.get(k) if isinstance(v, dict) else None
            out.append(v)
        return out

    rot_med, _ = summary(pick(("score", "rotationErrorDegrees", "median")), 3, "°")
    rot_max, _ = summary(pick(("score", "rotationErrorDegrees", "max")), 3, "°")
    cells["rotation"] = f"{rot_med} / {rot_max}" if rot_med != "—" else "—"
    c_med, _ = summary(pick(("score", "centreErrorPercent", "median")), 3, " %")
    c_max, _ = summary(pick(("score", "centreErrorPercent", "max")), 3, " %")
    cells["centre"] = f"{c_med} / {c_max}" if c_med != "—" else "—"
    cells["reprojection"], _ = summary(pick(("score", "meanReprojectionErrorPixels")), 3, " px")
    cells["points"], _ = summary(pick(("score", "points")), 0)
    cells["track"], _ = summary(pick(("score", "meanTrackLength")), 2)
    f_text, _ = summary(pick(("score", "focalPixels")), 1, " px")
    cells["focal"] = f_text
    for stage in STAGES:
        cells[stage], med[stage] = summary([r["stageSeconds"].get(stage) for r in runs], 1, " s")
    cells["wall"], med["wall"] = summary([r["wallSeconds"] for r in runs], 1, " s")
    cells["rss"], med["rss"] = summary([r["peakRssMB"] for r in runs], 0, " MB")
    return cells, med


ROWS = [
    ("registered", "registered / images"),
    ("rotation", "rotation error, median / max"),
    ("centre", "centre error (% of ring radius), median / max"),
    ("reprojection", "reprojection error, mean"),
    ("points", "3D points"),
    ("track", "mean track length"),
    ("focal", "fitted focal length"),
    ("features", "time: features"),
    ("matching", "time: matching"),
    ("mapping", "time: mapping"),
    ("wall", "total wall time"),
    ("rss", "peak RSS"),
]
RATIO_ROWS = ("features", "matching", "mapping", "wall", "rss")


def cmd_report(args):
    runs = [json.loads(l) for l in open(args.runs, encoding="utf-8") if l.strip()]
    if args.header:
        sys.stdout.write(open(args.header, encoding="utf-8").read())
    captures = list(dict.fromkeys(r["capture"] for r in runs))
    footnote = False
    for capture in captures:
        mine = [r for r in runs if r["capture"] == capture]
        variants = list(dict.fromkeys(r["variant"] for r in mine))
        ours = [v for v in variants if mine[[r["variant"] for r in mine].index(v)]["tool"] == "ours"]
        peers = [v for v in variants if v not in ours]
        columns = {v: column([r for r in mine if r["variant"] == v]) for v in variants}
        score0 = mine[0]["score"]
        nruns = {v: sum(1 for r in mine if r["variant"] == v) for v in variants}
        print(f"\n### {capture}\n")
        print(f"{score0['images']} images; true focal length {score0['trueFocalPixels']:.1f} px; "
              f"ring radius {score0['ringRadiusMetres']} m. "
              + "; ".join(f"{v}: {n} run{'s' if n > 1 else ''}" for v, n in nruns.items())
              + (" (median, range in brackets)" if max(nruns.values()) > 1 else "") + ".\n")
        ratio_heads = [f"{p} / {o}" for p in peers for o in ours]
        print("| | " + " | ".join(variants + ratio_heads) + " |")
        print("|---|" + "---|" * (len(variants) + len(ratio_heads)))
        for key, label in ROWS:
            cells = [columns[v][0][key] for v in variants]
            for p in peers:
                for o in ours:
                    a, b = columns[p][1].get(key), columns[o][1].get(key)
                    # a side that never produced a model has no speed to compare
                    both_ok = all(any(not failed(r) for r in mine if r["variant"] == v) for v in (o, p))
                    if key in RATIO_ROWS and a and b and both_ok:
                        cells.append(f"{a / b:.2f}×")
                    else:
                        cells.append("")
            print(f"| {label} | " + " | ".join(cells) + " |")
        for v in variants:
            for r in mine:
                if r["variant"] == v and r["score"].get("readError"):
                    footnote = True
                    print(f"\n¹ {v}: pycolmap could not read the model ({r['score']['readError']}); "
                          "scored with the fallback parser, without recomputed reprojection.")
                    break
    if not runs:
        print("\nNo runs.")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    e = sub.add_parser("eval", help="score one model, print JSON")
    e.add_argument("--truth", required=True, help="capture directory (with truth/)")
    e.add_argument("--model", required=True, help="model directory (cameras/images/points3D)")
    r = sub.add_parser("run", help="score one benchmark run and append it to a JSON-lines file")
    r.add_argument("--capture-name", required=True)
    r.add_argument("--truth", required=True)
    r.add_argument("--model", default="")
    r.add_argument("--tool", choices=("ours", "colmap"), required=True)
    r.add_argument("--variant", required=True, help="column heading")
    r.add_argument("--run", type=int, default=1)
    r.add_argument("--exit", type=int, required=True)
    r.add_argument("--time-file", required=True)
    r.add_argument("--stdout", required=True)
    r.add_argument("--append", required=True)
    p = sub.add_parser("report", help="Markdown tables from the runs")
    p.add_argument("runs")
    p.add_argument("--header", help="text to put first")
    args = ap.parse_args()
    if args.command == "eval":
        print(json.dumps(score(args.truth, args.model)))
    elif args.command == "run":
        cmd_run(args)
    else:
        cmd_report(args)


if __name__ == "__main__":
    main()
