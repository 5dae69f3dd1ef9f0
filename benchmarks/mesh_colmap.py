#!/usr/bin/env python3
"""COLMAP's screened Poisson mesher (pycolmap.poisson_meshing) on two clouds, scored like ours.

    mesh_colmap.py --truth CAPTURE --name NAME --work DIR --colmap-model SPARSE_DIR --ours OUR_MODEL_DIR

(a) COLMAP's own sparse points (a model from benchmarks/reconstruct.sh), each with a normal
    pointing to the mean of the centres of the cameras that see it: COLMAP's CPU-only route
    (its PatchMatch stereo needs CUDA, which pycolmap here lacks);
(b) our dense cloud (OUR_MODEL_DIR/dense/points.ply, which has normals): the meshers compared on
    the same points.
Each mesh is brought into the truth's frame by aligning its model's camera centres to the true
ones, then scored by mesh_eval.score (F-score and Chamfer at 1% of the true diagonal, the floor
cap left out). Prints one Markdown row per cloud."""
import argparse
import os
import sys
import time

import numpy as np
import pycolmap
import trimesh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mesh_eval import centres, score, umeyama  # noqa: E402

TRIM = float(os.environ.get("POISSON_TRIM", "0"))
# REUSE_MESHES=1 scores the Poisson meshes of an earlier run again instead of remaking them.
REUSE = os.environ.get("REUSE_MESHES") == "1"


def write_ply(path, points, normals):
    with open(path, "wb") as f:
        f.write(f"ply\nformat binary_little_endian 1.0\nelement vertex {len(points)}\n"
                "property float x\nproperty float y\nproperty float z\nproperty float nx\nproperty float ny\nproperty float nz\nend_header\n".encode())
        f.write(np.hstack([points, normals]).astype("<f4").tobytes())


def sparse_points_towards_cameras(rec):
    """COLMAP's sparse points (they carry no normals), each with the unit normal pointing to the
    mean of the camera centres that see it: what screened Poisson needs. Returns (points, normals)."""
    pts, nrm = [], []
    for p in rec.points3D.values():
        cs = [rec.images[e.image_id].projection_center() for e in p.track.elements]
        d = np.mean(cs, axis=0) - p.xyz
        pts.append(p.xyz)
        nrm.append(d / np.linalg.norm(d))
    return np.array(pts), np.array(nrm)


def mesh_and_score(label, cloud, model_images, truth_dir, work, name):
    mesh_path = os.path.join(work, f"colmap-poisson-{name}-{label.split()[0]}.ply")
    start = time.time()
    if REUSE and os.path.exists(mesh_path):
        seconds = float("nan")   # scored again from the mesh of an earlier run
    else:
        options = pycolmap.PoissonMeshingOptions()
        # COLMAP's default density trim (10) leaves a few triangles of a sparse cloud, or of a cloud
        # as thin as a single view's pixels: trim less, as COLMAP's docs suggest for sparse input.
        options.trim = TRIM
        pycolmap.poisson_meshing(cloud, mesh_path, options)
        seconds = time.time() - start
    mesh = trimesh.load(mesh_path, process=False, force="mesh")
    if len(mesh.faces) == 0:
        print(f"| {name} | {label} (trim {TRIM}) | | 0 | 0 | {seconds:.1f} | no surface | | |")
        return
    truth_mesh = trimesh.load(os.path.join(truth_dir, "truth", "mesh.ply"), process=False)
    tau = 0.01 * float(np.linalg.norm(truth_mesh.bounds[1] - truth_mesh.bounds[0]))
    true_c, our_c = centres(os.path.join(truth_dir, "truth", "images.txt")), centres(model_images)
    names = sorted(set(true_c) & set(our_c))
    s, r, t = umeyama(np.array([our_c[n] for n in names]), np.array([true_c[n] for n in names]))
    mesh.vertices = (s * (r @ np.asarray(mesh.vertices).T)).T + t
    ours = trimesh.sample.sample_surface(mesh, 200000, seed=1)[0]
    truth = trimesh.sample.sample_surface(truth_mesh, 200000, seed=2)[0]
    sc = score(ours, truth, tau, floor=0.02)
    n_in = len(trimesh.load(cloud, process=False).vertices)
    print(f"| {name} | {label} (trim {TRIM}) | {n_in} | {len(mesh.vertices)} | {len(mesh.faces)} | {seconds:.1f} | {sc['fscore']:.3f} | {sc['fscoreHalf']:.3f} | {sc['chamferPercent']:.3f} |")


def main():
    a = argparse.ArgumentParser()
    for flag in ("--truth", "--name", "--work", "--colmap-model", "--ours"):
        a.add_argument(flag, required=True)
    args = a.parse_args()
    if os.path.isdir(args.colmap_model):
        rec = pycolmap.Reconstruction(args.colmap_model)
        pts, nrm = sparse_points_towards_cameras(rec)
        cloud = os.path.join(args.work, f"colmap-sparse-{args.name}.ply")
        write_ply(cloud, pts, nrm)
        os.makedirs(os.path.join(args.work, f"colmap-text-{args.name}"), exist_ok=True)
        rec.write_text(os.path.join(args.work, f"colmap-text-{args.name}"))
        mesh_and_score("COLMAP sparse points", cloud, os.path.join(args.work, f"colmap-text-{args.name}", "images.txt"), args.truth, args.work, args.name)
    else:
        print(f"| {args.name} | COLMAP sparse points | (no model at {args.colmap_model}: run benchmarks/reconstruct.sh first) | | | | | |")
    dense = os.path.join(args.ours, "dense", "points.ply")
    if os.path.exists(dense):
        mesh_and_score("our dense points", dense, os.path.join(args.ours, "sparse", "images.txt"), args.truth, args.work, args.name)


if __name__ == "__main__":
    main()
