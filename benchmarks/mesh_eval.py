#!/usr/bin/env python3
"""Scores a reconstructed mesh (and dense cloud) of a synthetic capture against the true surface.

    mesh_eval.py --truth CAPTURE_DIR --model MODEL_DIR --record RECORD.json [--samples N]

RECORD.json is atl-reconstruct's `model` record (its `meshFromSparse` takes the sparse frame to the
mesh's). The sparse model's camera centres are aligned to the true ones by a similarity (Umeyama,
numpy SVD), which brings the mesh and the dense cloud into the truth's frame. Then, as in the
Tanks and Temples and DTU benchmarks, with tau = 1% of the true mesh's bounding-box diagonal:
  precision  the fraction of points sampled on our surface within tau of the true one
  recall     the fraction of points sampled on the true surface within tau of ours
  (fscoreHalf is the F-score at tau / 2, which still separates surfaces that all score 1.0 at tau)
  F-score    their harmonic mean; Chamfer: the mean of the two mean distances (in % of the diagonal)
"watertight" is trimesh's test after joining the vertices that texture seams split.
The true surface has no floor and is open at the hem (about 1 cm above the ground), so samples of
ours below 2 cm (the cap that closes the bottom) are left out of precision. Prints one JSON line.
"""
import argparse
import json
import os

import numpy as np
import trimesh
from scipy.spatial import cKDTree


def centres(images_txt):
    out, lines = {}, [l for l in open(images_txt) if l.strip() and not l.startswith("#")]
    i = 0
    while i < len(lines):
        f = lines[i].split()
        qw, qx, qy, qz, tx, ty, tz = map(float, f[1:8])
        name = f[9]
        w, x, y, z = np.array([qw, qx, qy, qz]) / np.linalg.norm([qw, qx, qy, qz])
        r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
        out[name] = -r.T @ np.array([tx, ty, tz])
        # images.txt has a points line after each image line (possibly empty, then skipped above).
        i += 2 if i + 1 < len(lines) and not lines[i + 1].split()[0].isdigit() or (i + 1 < len(lines) and len(lines[i + 1].split()) != 10) else 1
    return out


def umeyama(src, dst):
    mu_s, mu_d = src.mean(0), dst.mean(0)
    s0, d0 = src - mu_s, dst - mu_d
    cov = d0.T @ s0 / len(src)
    u, d, vt = np.linalg.svd(cov)
    e = np.eye(3)
    if np.linalg.det(u) * np.linalg.det(vt) < 0:
        e[2, 2] = -1
    r = u @ e @ vt
    scale = np.trace(np.diag(d) @ e) / (s0 ** 2).sum() * len(src)
    return scale, r, mu_d - scale * r @ mu_s


def score(ours, truth, tau, floor=None):
    kept = ours if floor is None else ours[ours[:, 1] > floor]
    d_ours = cKDTree(truth).query(kept)[0]
    d_truth = cKDTree(ours).query(truth)[0]
    def f(t):
        p, r = float((d_ours < t).mean()), float((d_truth < t).mean())
        return p, r, 2 * p * r / (p + r) if p + r else 0
    p, r, fscore = f(tau)
    # At 1 % of the diagonal a good surface saturates; half of it still separates methods.
    half = f(tau / 2)
    return {"precision": round(p, 4), "recall": round(r, 4), "fscore": round(fscore, 4), "fscoreHalf": round(half[2], 4),
            "chamferPercent": round(100 * float(d_ours.mean() + d_truth.mean()) / 2 / (tau * 100), 4)}


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--truth", required=True)
    a.add_argument("--model", required=True)
    a.add_argument("--record", required=True)
    a.add_argument("--samples", type=int, default=200000)
    args = a.parse_args()
    record = json.load(open(args.record))
    truth_mesh = trimesh.load(os.path.join(args.truth, "truth", "mesh.ply"), process=False)
    diag = float(np.linalg.norm(truth_mesh.bounds[1] - truth_mesh.bounds[0]))
    tau = 0.01 * diag
    true_c, our_c = centres(os.path.join(args.truth, "truth", "images.txt")), centres(os.path.join(args.model, "sparse", "images.txt"))
    names = sorted(set(true_c) & set(our_c))
    s, r, t = umeyama(np.array([our_c[n] for n in names]), np.array([true_c[n] for n in names]))
    m = record["meshFromSparse"]
    ms, mr, mt = m["scale"], np.array(m["rotation"]), np.array(m["translation"])
    mesh = trimesh.load(os.path.join(args.model, "mesh", "model.ply"), process=False)
    sparse_frame = ((np.asarray(mesh.vertices) - mt) @ mr) / ms          # mr is orthonormal: inverse = transpose
    mesh.vertices = (s * (r @ sparse_frame.T)).T + t
    rng = np.random.default_rng(1)
    ours = trimesh.sample.sample_surface(mesh, args.samples, seed=1)[0]
    truth = trimesh.sample.sample_surface(truth_mesh, args.samples, seed=2)[0]
    closed = mesh.copy()
    closed.merge_vertices(merge_tex=True, merge_norm=True)   # texture seams split vertices; the surface is one
    result = {"tauMetres": round(tau, 5), "mesh": score(ours, truth, tau, floor=0.02),
              "watertight": bool(closed.is_watertight), "faces": int(len(mesh.faces))}
    dense = trimesh.load(os.path.join(args.model, "dense", "points.ply"), process=False)
    pts = (s * (r @ np.asarray(dense.vertices).T)).T + t
    if len(pts) > args.samples:
        pts = pts[rng.choice(len(pts), args.samples, replace=False)]
    result["dense"] = score(pts, truth, tau, floor=0.02)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
