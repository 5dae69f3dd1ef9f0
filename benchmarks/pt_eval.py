#!/usr/bin/env python3
"""Scores an atl-reconstruct model of a pt_capture.py capture against its truth.

    pt_eval.py --truth CAPTURE_DIR --model MODEL_DIR [--record RECORD.json] [--samples 200000]
               [--peer-mesh PLY --peer-sparse DIR] [--vis-dirs 200]
    pt_eval.py --truth CAPTURE_DIR --peer-mesh PLY --peer-sparse DIR      (the peer alone)
    pt_eval.py --self-test --truth CAPTURE_DIR
    pt_eval.py --make-peer-mesh OUT.ply --peer-sparse DIR     (pycolmap's screened Poisson on
               COLMAP's sparse points, each with a normal towards the mean of its cameras)

MODEL_DIR is atl-reconstruct's output: sparse/images.txt (COLMAP text) and the mesh (the record's
files.mesh, else MODEL_DIR/mesh/model.ply). RECORD.json holds atl-reconstruct's stdout (NDJSON;
the last `model` record with meshFromSparse counts) or atl-export's; without --record,
MODEL_DIR/../<MODEL_DIR name>.record is tried. meshFromSparse {scale, rotation, translation}
takes the cameras' (sparse) frame to the mesh's: mesh = scale * R * sparse + t.

Scores (one JSON line):
  registered / images   images with a pose in sparse/images.txt, by file name
  rotation error        the model's camera centres aligned to the true ones by a similarity
                        (Umeyama, least squares); per image the angle of R_true (R_est Ra^T)^T,
                        degrees: median and max; centre error as % of the mean camera distance
                        from the cameras' centroid
  mesh, in the truth's frame (mesh -> sparse by meshFromSparse inverted -> truth by the
  similarity): points sampled uniformly by area on both surfaces (--samples each);
  exact point-to-triangle distances (not point-to-sample), tau = 1 % and 0.5 % of the true
  mesh's bounding-box diagonal:
    precision  share of our samples within tau of the true surface; samples below the ground
               (y < 0) count as imprecise, whatever their distance
    recall     share of the true samples within tau of our surface
    F-score    2 P R / (P + R)
    recallObservable  recall over the true samples that at least two true photos see (in the
               frame, not hidden by the object itself: the truth's depth buffer from each true
               camera); truthObservableShare is their share. The bottom cap of a torso seen
               only from above, for example, is in the truth but in no photo.
  areaRatio             our area in the truth frame / the true area
  visibleShare          share of our area visible from outside: orthographic depth buffers of
                        our own mesh from --vis-dirs directions spread evenly over the sphere
                        (triangles rasterised at pixel centres, pixel = 0.3 % of the diagonal);
                        a sample point is visible from a direction if its depth is within
                        0.3 % of the diagonal (about 3 mm here: the first few mm are ignored) of
                        the nearest surface there; visible if any direction sees it.
                        Area-weighted (the samples are uniform by area).
  peer                  the same for the peer's mesh, aligned by the peer's own cameras.

--self-test runs the scoring on the truth itself: (1) the truth mesh as the model, through a
made-up similarity (sparse frame and meshFromSparse both non-trivial): F = 1, area ratio 1,
rotation error 0, visible share ~1; (2) the truth plus an interior wall: visible share must drop
(and precision with it). Prints both and exits 1 if either fails.
"""
import argparse
import json
import math
import os
import shutil
import sys
import tempfile
import time

import numpy as np
from scipy.spatial import cKDTree


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------
def quat_to_matrix(q):
    w, x, y, z = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def read_images_txt(path):
    """{name: (R world->camera, centre)} from a COLMAP images.txt: two lines per image, the
    second (2D points) possibly empty; comment lines start with #."""
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    poses, i = {}, 0
    while i < len(lines):
        tok = lines[i].split()
        if len(tok) >= 10 and tok[0].isdigit():
            r = quat_to_matrix([float(v) for v in tok[1:5]])
            t = np.array([float(v) for v in tok[5:8]])
            poses[" ".join(tok[9:])] = (r, -r.T @ t)
            i += 2
        else:
            i += 1
    return poses


def read_sparse(directory):
    txt = os.path.join(directory, "images.txt")
    if os.path.exists(txt):
        return read_images_txt(txt)
    import pycolmap   # a binary model
    rec = pycolmap.Reconstruction(directory)
    out = {}
    for img in rec.images.values():
        m = np.asarray(img.cam_from_world().matrix())
        out[img.name] = (m[:, :3], -m[:, :3].T @ m[:, 3])
    return out


def read_ply(path):
    """(vertices (n,3) float64, faces (m,3) int64) of a PLY mesh (ASCII or binary; polygons fanned)."""
    import trimesh
    mesh = trimesh.load(path, process=False, force="mesh")
    return np.asarray(mesh.vertices, float), np.asarray(mesh.faces, np.int64)


def read_record(path):
    """The last record with meshFromSparse in a file of JSON lines (or one JSON document)."""
    found = None
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        docs = [json.loads(text)]
    except ValueError:
        docs = []
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    docs.append(json.loads(line))
                except ValueError:
                    pass
    for d in docs:
        if isinstance(d, dict) and "meshFromSparse" in d:
            found = d
        elif isinstance(d, dict) and isinstance(d.get("model"), dict) and "meshFromSparse" in d["model"]:
            found = d["model"]
    return found


# ---------------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------------
def umeyama(src, dst):
    """(s, R, t) minimising sum |dst - (s R src + t)|^2."""
    mu_s, mu_d = src.mean(0), dst.mean(0)
    xs, xd = src - mu_s, dst - mu_d
    u, d, vt = np.linalg.svd(xd.T @ xs / len(src))
    e = np.ones(3)
    if np.linalg.det(u) * np.linalg.det(vt) < 0:
        e[2] = -1
    r = u @ np.diag(e) @ vt
    s = float((d * e).sum() / ((xs ** 2).sum() / len(src)))
    return s, r, mu_d - s * r @ mu_s


def rotation_angle_deg(r):
    sine = np.linalg.norm([r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1]]) / 2
    return math.degrees(math.atan2(sine, (np.trace(r) - 1) / 2))


def face_areas(v, f):
    return 0.5 * np.linalg.norm(np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]]), axis=1)


def sample_surface(v, f, n, seed):
    """n points uniform by area (and the face of each)."""
    rng = np.random.default_rng(seed)
    a = face_areas(v, f)
    idx = rng.choice(len(f), size=n, p=a / a.sum())
    r1, r2 = rng.random(n), rng.random(n)
    s1 = np.sqrt(r1)
    w0, w1, w2 = 1 - s1, s1 * (1 - r2), s1 * r2
    tri = v[f[idx]]
    return tri[:, 0] * w0[:, None] + tri[:, 1] * w1[:, None] + tri[:, 2] * w2[:, None], idx


def point_triangle_distance(p, a, b, c):
    """Exact distances from points p (n,3) to triangles (a, b, c) (n,3 each): the closest point by
    Voronoi region (Ericson, Real-Time Collision Detection 5.1.5), vectorised."""
    ab, ac, ap = b - a, c - a, p - a
    d1, d2 = np.einsum("ij,ij->i", ab, ap), np.einsum("ij,ij->i", ac, ap)
    bp = p - b
    d3, d4 = np.einsum("ij,ij->i", ab, bp), np.einsum("ij,ij->i", ac, bp)
    cp = p - c
    d5, d6 = np.einsum("ij,ij->i", ab, cp), np.einsum("ij,ij->i", ac, cp)
    vc = d1 * d4 - d3 * d2
    vb = d5 * d2 - d1 * d6
    va = d3 * d6 - d5 * d4
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = va + vb + vc
        v = np.where(denom != 0, vb / denom, 0.0)
        w = np.where(denom != 0, vc / denom, 0.0)
        q = a + ab * v[:, None] + ac * w[:, None]                          # inside the face
        # edges
        t_ab = np.where(d1 - d3 != 0, d1 / (d1 - d3), 0.0)
        t_ac = np.where(d2 - d6 != 0, d2 / (d2 - d6), 0.0)
        t_bc = np.where((d4 - d3) + (d5 - d6) != 0, (d4 - d3) / ((d4 - d3) + (d5 - d6)), 0.0)
    q = np.where(((va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0))[:, None], b + (c - b) * t_bc[:, None], q)
    q = np.where(((vb <= 0) & (d2 >= 0) & (d6 <= 0))[:, None], a + ac * t_ac[:, None], q)
    q = np.where(((vc <= 0) & (d1 >= 0) & (d3 <= 0))[:, None], a + ab * t_ab[:, None], q)
    # vertices
    q = np.where(((d6 >= 0) & (d5 <= d6))[:, None], c, q)
    q = np.where(((d3 >= 0) & (d4 <= d3))[:, None], b, q)
    q = np.where(((d1 <= 0) & (d2 <= 0))[:, None], a, q)
    return np.linalg.norm(p - q, axis=1)


def subdivide(v, f, h):
    """Triangles split at the midpoint of their longest edge until no edge is longer than h
    (the surface is unchanged; the pieces need not share vertices)."""
    tris = v[f]
    done = []
    while len(tris):
        e = np.stack([np.linalg.norm(tris[:, 1] - tris[:, 0], axis=1), np.linalg.norm(tris[:, 2] - tris[:, 1], axis=1),
                      np.linalg.norm(tris[:, 0] - tris[:, 2], axis=1)], 1)
        longest = e.argmax(1)
        small = e.max(1) <= h
        done.append(tris[small])
        big, k = tris[~small], longest[~small]
        # rotate so that the longest edge is (0, 1)
        roll = np.stack([np.roll(np.arange(3), -kk) for kk in range(3)])[k]
        big = np.take_along_axis(big, roll[:, :, None], axis=1)
        mid = (big[:, 0] + big[:, 1]) / 2
        tris = np.concatenate([np.stack([big[:, 0], mid, big[:, 2]], 1), np.stack([mid, big[:, 1], big[:, 2]], 1)])
    tris = np.concatenate(done)
    return tris.reshape(-1, 3), np.arange(len(tris) * 3).reshape(-1, 3)


class SurfaceDistance:
    """Unsigned distance from points to a triangle mesh: exact point-to-triangle distances to
    candidate triangles. The mesh is first split into triangles no longer than `h` on a side (the
    same surface); the candidates are the 16 triangles whose centroids are nearest; a point's
    answer is certain once its 16th candidate centroid is farther than its best distance plus the
    largest centroid-to-vertex radius of any triangle, and the uncertain points are asked again
    with 64 (then 256) candidates. What is left uncertain after that (points near fans of many
    thin triangles) keeps the best of 256 candidates: an upper bound, in practice exact. The share
    of such points is kept in `uncertain`."""

    def __init__(self, v, f, h):
        keep = face_areas(v, f) > 0
        self.v, self.f = subdivide(v, f[keep], h)
        tri = self.v[self.f]
        self.centroid = tri.mean(1)
        self.radius = float(np.linalg.norm(tri - self.centroid[:, None], axis=2).max())
        self.tree = cKDTree(self.centroid)
        self.uncertain = self.queried = 0

    def __call__(self, p, chunk=20000):
        out = np.empty(len(p))
        for c0 in range(0, len(p), chunk):
            out[c0:c0 + chunk] = self._chunk(p[c0:c0 + chunk])
        return out

    def _chunk(self, p):
        n = len(p)
        best = np.full(n, np.inf)
        todo = np.arange(n)
        k = 16
        while len(todo) and k <= 256:
            k = min(k, len(self.f))
            dist_c, idx = self.tree.query(p[todo], k=k)
            if k == 1:
                dist_c, idx = dist_c[:, None], idx[:, None]
            tri = self.f[idx.reshape(-1)]
            pp = np.repeat(p[todo], k, axis=0)
            d = point_triangle_distance(pp, self.v[tri[:, 0]], self.v[tri[:, 1]], self.v[tri[:, 2]]).reshape(-1, k)
            best[todo] = np.minimum(best[todo], d.min(1))
            certain = (dist_c[:, -1] >= best[todo] + self.radius) | (k >= len(self.f))
            todo = todo[~certain]
            k *= 4
        self.uncertain += len(todo)
        self.queried += n
        return best


def fibonacci_sphere(n):
    i = np.arange(n) + 0.5
    phi = np.arccos(1 - 2 * i / n)
    theta = np.pi * (1 + 5 ** 0.5) * i
    return np.stack([np.cos(theta) * np.sin(phi), np.cos(phi), np.sin(theta) * np.sin(phi)], -1)


def depth_buffer(uv, depth, f, n_pix, height=None):
    """Nearest depth per pixel (n_pix wide, `height` (default n_pix) high; row-major) of triangles with projected vertices uv (pixel units)
    and per-vertex depth; pixel centres at +0.5; triangles of either winding."""
    n_rows = n_pix if height is None else height
    zbuf = np.full(n_pix * n_rows, np.inf)
    tri = uv[f]
    tz = depth[f]
    xmin = np.clip(np.ceil(tri[..., 0].min(1) - 0.5), 0, n_pix).astype(np.int64)
    xmax = np.clip(np.floor(tri[..., 0].max(1) - 0.5), -1, n_pix - 1).astype(np.int64)
    ymin = np.clip(np.ceil(tri[..., 1].min(1) - 0.5), 0, n_rows).astype(np.int64)
    ymax = np.clip(np.floor(tri[..., 1].max(1) - 0.5), -1, n_rows - 1).astype(np.int64)
    ext = np.maximum(xmax - xmin + 1, ymax - ymin + 1)
    ok = (xmax >= xmin) & (ymax >= ymin)
    # signed double area; degenerate (edge-on) triangles cover nothing
    area2 = ((tri[:, 1, 0] - tri[:, 0, 0]) * (tri[:, 2, 1] - tri[:, 0, 1]) - (tri[:, 1, 1] - tri[:, 0, 1]) * (tri[:, 2, 0] - tri[:, 0, 0]))
    ok &= np.abs(area2) > 1e-12
    lo, K = 0, 1
    while True:
        sel = np.nonzero(ok & (ext > lo) & (ext <= K))[0]
        chunk = max(1, 2_000_000 // (K * K))
        oy, ox = np.mgrid[0:K, 0:K]
        for c0 in range(0, len(sel), chunk):
            s = sel[c0:c0 + chunk]
            X = xmin[s, None, None] + ox
            Y = ymin[s, None, None] + oy
            inb = (X <= xmax[s, None, None]) & (Y <= ymax[s, None, None])
            px, py = X + 0.5, Y + 0.5
            t = tri[s]
            e = []
            for i in range(3):   # e_i: the edge opposite vertex i, i.e. barycentric weight of i times 2A
                a, b = t[:, (i + 1) % 3], t[:, (i + 2) % 3]
                e.append((b[:, 0, None, None] - a[:, 0, None, None]) * (py - a[:, 1, None, None])
                         - (b[:, 1, None, None] - a[:, 1, None, None]) * (px - a[:, 0, None, None]))
            A = area2[s, None, None]
            l0, l1, l2 = e[0] / A, e[1] / A, e[2] / A
            inside = inb & (l0 >= 0) & (l1 >= 0) & (l2 >= 0)
            z = l0 * tz[s, 0, None, None] + l1 * tz[s, 1, None, None] + l2 * tz[s, 2, None, None]
            np.minimum.at(zbuf, (Y * n_pix + X)[inside], z[inside])
        if not (ok & (ext > K)).any():
            break
        lo, K = K, K * 2
    return zbuf


def visible_share(v, f, points, diag, n_dirs=200, pixel_frac=0.003, tol_frac=0.003):
    """Share of `points` (on the mesh) that some direction sees unblocked by the mesh."""
    centre = (v.min(0) + v.max(0)) / 2
    radius = float(np.linalg.norm(v - centre, axis=1).max()) * 1.01
    pix = pixel_frac * diag
    n_pix = int(math.ceil(2 * radius / pix))
    tol = tol_frac * diag
    seen = np.zeros(len(points), bool)
    for d in fibonacci_sphere(n_dirs):
        # a frame with z = -d: we look from +d towards the centre; depth grows away from the viewer
        z = -d
        x = np.cross(z, [0.0, 1.0, 0.0] if abs(z[1]) < 0.9 else [1.0, 0.0, 0.0])
        x /= np.linalg.norm(x)
        y = np.cross(z, x)
        rel = v - centre
        uv = np.stack([(rel @ x + radius) / pix, (rel @ y + radius) / pix], -1)
        zbuf = depth_buffer(uv, rel @ z, f, n_pix)
        todo = ~seen
        prel = points[todo] - centre
        pu = np.clip(((prel @ x + radius) / pix).astype(np.int64), 0, n_pix - 1)
        pv = np.clip(((prel @ y + radius) / pix).astype(np.int64), 0, n_pix - 1)
        seen[np.nonzero(todo)[0][prel @ z <= zbuf[pv * n_pix + pu] + tol]] = True
    return float(seen.mean())


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------
def read_cameras_txt(path):
    """(width, height, fx, fy, cx, cy) of the first camera of a COLMAP cameras.txt (PINHOLE, or the
    SIMPLE_PINHOLE / *RADIAL models, distortion ignored)."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            tok = line.split()
            if not tok or tok[0].startswith("#"):
                continue
            model, w, h, prm = tok[1], int(tok[2]), int(tok[3]), [float(x) for x in tok[4:]]
            if model == "PINHOLE":
                return w, h, prm[0], prm[1], prm[2], prm[3]
            return w, h, prm[0], prm[0], prm[1], prm[2]
    raise ValueError(f"no camera in {path}")


def views_seeing(truth, points, tol):
    """For each point on the true surface: in how many true photos it is in the frame and the
    nearest surface there (the truth's own depth buffer from that camera, 1/depth interpolated
    over the screen; the floor hides nothing above it)."""
    w, h, fx, fy, cx, cy = truth.camera
    count = np.zeros(len(points), np.int64)
    for r, c in truth.poses.values():
        t = -r @ c
        pc = truth.v @ r.T + t
        uv = np.stack([fx * pc[:, 0] / pc[:, 2] + cx, fy * pc[:, 1] / pc[:, 2] + cy], -1)
        inv = depth_buffer(uv, -1.0 / pc[:, 2], truth.f, w, h)      # nearest = most negative -1/z
        qc = points @ r.T + t
        qu, qv = fx * qc[:, 0] / qc[:, 2] + cx, fy * qc[:, 1] / qc[:, 2] + cy
        inside = (qc[:, 2] > 0) & (qu >= 0) & (qu < w) & (qv >= 0) & (qv < h)
        iu = np.clip(qu.astype(np.int64), 0, w - 1)
        iv = np.clip(qv.astype(np.int64), 0, h - 1)
        front = -1.0 / inv[iv * w + iu]                               # depth of the nearest surface
        count += inside & (qc[:, 2] <= front + tol)
    return count


class Truth:
    def __init__(self, capture, samples):
        self.poses = read_images_txt(os.path.join(capture, "truth", "images.txt"))
        self.v, self.f = read_ply(os.path.join(capture, "truth", "mesh.ply"))
        self.diag = float(np.linalg.norm(self.v.max(0) - self.v.min(0)))
        self.area = float(face_areas(self.v, self.f).sum())
        self.samples = sample_surface(self.v, self.f, samples, seed=2)[0]
        self.distance = SurfaceDistance(self.v, self.f, 0.004 * self.diag)
        self.camera = read_cameras_txt(os.path.join(capture, "truth", "cameras.txt"))
        # the true surface that at least two photos see (what can be triangulated at all)
        self.observable = views_seeing(self, self.samples, 0.003 * self.diag) >= 2


def camera_scores(truth, poses):
    names = sorted(set(truth.poses) & set(poses))
    out = {"registered": len(names), "images": len(truth.poses)}
    if len(names) < 3:
        out.update(rotationErrorDeg=None, centreErrorPercent=None)
        return out, None
    src = np.array([poses[n][1] for n in names])
    dst = np.array([truth.poses[n][1] for n in names])
    s, ra, t = umeyama(src, dst)
    rot = [rotation_angle_deg(truth.poses[n][0] @ (poses[n][0] @ ra.T).T) for n in names]
    spread = float(np.linalg.norm(dst - dst.mean(0), axis=1).mean())
    cen = [100 * float(np.linalg.norm(s * ra @ poses[n][1] + t - truth.poses[n][1])) / spread for n in names]
    out["rotationErrorDeg"] = {"median": round(float(np.median(rot)), 4), "max": round(float(np.max(rot)), 4)}
    out["centreErrorPercent"] = {"median": round(float(np.median(cen)), 4), "max": round(float(np.max(cen)), 4)}
    return out, (s, ra, t)


def mesh_scores(truth, v, f, samples, vis_dirs):
    """v, f already in the truth frame."""
    a = face_areas(v, f)
    f = f[a > 0]
    ours, _ = sample_surface(v, f, samples, seed=1)
    truth.distance.uncertain = truth.distance.queried = 0
    d_ours = truth.distance(ours)
    below = ours[:, 1] < 0
    d_ours[below] = np.inf
    to_ours = SurfaceDistance(v, f, 0.004 * truth.diag)
    d_truth = to_ours(truth.samples)
    out = {"faces": int(len(f)), "belowGroundShare": round(float(below.mean()), 4),
           "uncertainDistanceShare": round((truth.distance.uncertain + to_ours.uncertain) / (truth.distance.queried + to_ours.queried), 5)}
    for label, frac in (("1", 0.01), ("0.5", 0.005)):
        tau = frac * truth.diag
        p, r = float((d_ours < tau).mean()), float((d_truth < tau).mean())
        r_obs = float((d_truth[truth.observable] < tau).mean())
        out[f"tau{label}pct"] = {"tauMetres": round(tau, 5), "precision": round(p, 4), "recall": round(r, 4),
                                 "fscore": round(2 * p * r / (p + r) if p + r else 0.0, 4), "recallObservable": round(r_obs, 4)}
    out["truthObservableShare"] = round(float(truth.observable.mean()), 4)
    out["areaRatio"] = round(float(a.sum()) / truth.area, 4)
    vis_points = ours[:min(len(ours), 50000)]
    out["visibleShare"] = round(visible_share(v, f, vis_points, truth.diag, vis_dirs), 4)
    return out


def evaluate(truth, model_dir, record_path, samples, vis_dirs):
    poses = read_sparse(os.path.join(model_dir, "sparse"))
    result, sim = camera_scores(truth, poses)
    record = read_record(record_path) if record_path and os.path.exists(record_path) else None
    mesh_path = None
    if record and isinstance(record.get("files"), dict) and record["files"].get("mesh"):
        mesh_path = record["files"]["mesh"]
        if not os.path.isabs(mesh_path) or not os.path.exists(mesh_path):
            mesh_path = os.path.join(model_dir, "mesh", os.path.basename(mesh_path))
    if not mesh_path or not os.path.exists(mesh_path):
        mesh_path = os.path.join(model_dir, "mesh", "model.ply")
    if sim is None or record is None or not os.path.exists(mesh_path):
        result["mesh"] = None
        result["meshNote"] = ("fewer than 3 registered images" if sim is None else
                              "no record with meshFromSparse" if record is None else f"no mesh at {mesh_path}")
        return result
    m = record["meshFromSparse"]
    ms, mr, mt = float(m["scale"]), np.array(m["rotation"], float), np.array(m["translation"], float)
    v, f = read_ply(mesh_path)
    sparse = ((v - mt) @ mr) / ms                     # R^T (x - t) / s, row-wise
    s, ra, t = sim
    result["mesh"] = mesh_scores(truth, s * sparse @ ra.T + t, f, samples, vis_dirs)
    return result


def evaluate_peer(truth, mesh_path, sparse_dir, samples, vis_dirs):
    poses = read_sparse(sparse_dir)
    result, sim = camera_scores(truth, poses)
    if sim is None or not os.path.exists(mesh_path):
        result["mesh"] = None
        result["meshNote"] = "fewer than 3 registered images" if sim is None else f"no mesh at {mesh_path}"
        return result
    v, f = read_ply(mesh_path)
    if len(f) == 0:
        result["mesh"] = None
        result["meshNote"] = "empty mesh"
        return result
    s, ra, t = sim
    result["mesh"] = mesh_scores(truth, s * v @ ra.T + t, f, samples, vis_dirs)
    return result


# ---------------------------------------------------------------------------------------------
# The peer's mesh: COLMAP sparse points -> screened Poisson (pycolmap)
# ---------------------------------------------------------------------------------------------
def make_peer_mesh(sparse_dir, out_ply, trim=0.0):
    import pycolmap
    from mesh_colmap import sparse_points_towards_cameras, write_ply as write_oriented_ply  # same folder
    rec = pycolmap.Reconstruction(sparse_dir)
    pts, nrm = sparse_points_towards_cameras(rec)
    cloud = out_ply + ".points.ply"
    write_oriented_ply(cloud, pts, nrm)
    options = pycolmap.PoissonMeshingOptions()
    options.trim = trim
    t0 = time.time()
    pycolmap.poisson_meshing(cloud, out_ply, options)
    return {"type": "peer-mesh", "points": len(pts), "seconds": round(time.time() - t0, 2), "mesh": out_ply}


# ---------------------------------------------------------------------------------------------
# Self-test
# ---------------------------------------------------------------------------------------------
def write_ply(path, v, f):
    rec = np.zeros(len(f), dtype=[("n", "u1"), ("i", "<i4", 3)])
    rec["n"], rec["i"] = 3, f
    with open(path, "wb") as fh:
        fh.write((f"ply\nformat binary_little_endian 1.0\nelement vertex {len(v)}\nproperty float x\nproperty float y\nproperty float z\n"
                  f"element face {len(f)}\nproperty list uchar int vertex_indices\nend_header\n").encode())
        fh.write(np.asarray(v, "<f4").tobytes())
        fh.write(rec.tobytes())


def rot_from_axis_angle(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k


def quat_from_matrix(m):
    w = math.sqrt(max(0.0, 1 + np.trace(m))) / 2
    x = math.copysign(math.sqrt(max(0.0, 1 + m[0, 0] - m[1, 1] - m[2, 2])) / 2, m[2, 1] - m[1, 2])
    y = math.copysign(math.sqrt(max(0.0, 1 - m[0, 0] + m[1, 1] - m[2, 2])) / 2, m[0, 2] - m[2, 0])
    z = math.copysign(math.sqrt(max(0.0, 1 - m[0, 0] - m[1, 1] + m[2, 2])) / 2, m[1, 0] - m[0, 1])
    return np.array([w, x, y, z]) / np.linalg.norm([w, x, y, z])


def fake_model(truth, v, f, directory):
    """A model directory as atl-reconstruct would write it for surface (v, f) in the truth frame:
    a sparse frame that is the truth's under a similarity, the mesh in another frame, the record."""
    s1, r1, t1 = 0.37, rot_from_axis_angle([0.3, -1.0, 0.5], 2.1), np.array([0.4, -1.2, 3.0])
    ms, mr, mt = 2.5, rot_from_axis_angle([1.0, 0.2, -0.4], -0.7), np.array([-0.3, 0.9, 0.1])
    os.makedirs(os.path.join(directory, "sparse"))
    os.makedirs(os.path.join(directory, "mesh"))
    lines = ["# fake sparse model for pt_eval.py --self-test"]
    for i, (name, (r, c)) in enumerate(sorted(truth.poses.items())):
        rs = r @ r1.T
        cs = s1 * r1 @ c + t1
        q, t = quat_from_matrix(rs), -rs @ cs
        lines += [f"{i + 1} {' '.join(repr(float(x)) for x in q)} {' '.join(repr(float(x)) for x in t)} 1 {name}", ""]
    with open(os.path.join(directory, "sparse", "images.txt"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    sparse_v = s1 * v @ r1.T + t1
    write_ply(os.path.join(directory, "mesh", "model.ply"), ms * sparse_v @ mr.T + mt, f)
    record = {"type": "model", "files": {"mesh": os.path.join(directory, "mesh", "model.ply")},
              "meshFromSparse": {"scale": ms, "rotation": mr.tolist(), "translation": mt.tolist()}}
    path = os.path.join(directory, "record.json")
    with open(path, "w") as fh:
        fh.write(json.dumps({"type": "capture"}) + "\n" + json.dumps(record) + "\n")
    return path


def interior_wall(truth):
    """Walls well inside the truth's upper closed part (the dress form or torso; the shoe's
    body): a horizontal disc at 65 % of the height and a vertical rectangle through the middle,
    both at most half the local half-extent, so that no part reaches the outer surface."""
    lo, hi = truth.v.min(0), truth.v.max(0)
    span = hi[1] - lo[1]
    y = lo[1] + 0.65 * span
    band = truth.v[np.abs(truth.v[:, 1] - y) < 0.02 * span]
    c = (band.min(0) + band.max(0)) / 2
    half_x, half_z = (band.max(0) - band.min(0))[[0, 2]] / 2
    r = 0.5 * min(half_x, half_z)
    k = 64
    t = np.linspace(0, 2 * np.pi, k, endpoint=False)
    v = np.concatenate([[[c[0], y, c[2]]], np.stack([c[0] + r * np.cos(t), np.full(k, y), c[2] + r * np.sin(t)], -1)])
    f = [(0, 1 + j, 1 + (j + 1) % k) for j in range(k)]
    # the vertical rectangle: over the heights whose sections are at least as wide as this one's
    # half, half as wide as the narrowest of them
    ys = np.linspace(y - 0.15 * span, y + 0.08 * span, 12)
    widths = []
    for yy in ys:
        b = truth.v[np.abs(truth.v[:, 1] - yy) < 0.02 * span]
        widths.append(min(b[:, 0].max() - c[0], c[0] - b[:, 0].min()))
    w = 0.5 * min(widths)
    base = len(v)
    rect = np.array([[c[0] - w, ys[0], c[2]], [c[0] + w, ys[0], c[2]], [c[0] + w, ys[-1], c[2]], [c[0] - w, ys[-1], c[2]]])
    v = np.concatenate([v, rect])
    f += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    return v, np.array(f)


def self_test(args):
    truth = Truth(args.truth, args.samples)
    tmp = tempfile.mkdtemp(prefix="pt_eval_")
    ok = True
    report = {"type": "pt-eval-self-test", "truth": os.path.abspath(args.truth)}
    try:
        rec = fake_model(truth, truth.v, truth.f, os.path.join(tmp, "same"))
        r1 = evaluate(truth, os.path.join(tmp, "same"), rec, args.samples, args.vis_dirs)
        m = r1["mesh"]
        checks1 = {
            "registered all": r1["registered"] == r1["images"],
            "rotation error < 1e-4 deg": r1["rotationErrorDeg"]["max"] < 1e-4,
            "F(1%) == 1": m["tau1pct"]["fscore"] == 1.0,
            "F(0.5%) == 1": m["tau0.5pct"]["fscore"] == 1.0,
            "area ratio 1 +- 0.001": abs(m["areaRatio"] - 1) <= 0.001,
            "visible share >= 0.99": m["visibleShare"] >= 0.99,
        }
        wv, wf = interior_wall(truth)
        v2 = np.concatenate([truth.v, wv])
        f2 = np.concatenate([truth.f, wf + len(truth.v)])
        rec = fake_model(truth, v2, f2, os.path.join(tmp, "wall"))
        r2 = evaluate(truth, os.path.join(tmp, "wall"), rec, args.samples, args.vis_dirs)
        m2 = r2["mesh"]
        wall_share = float(face_areas(wv, wf).sum() / face_areas(v2, f2).sum())
        expected = 1 - wall_share
        checks2 = {
            "visible share drops": m2["visibleShare"] < m["visibleShare"] - 0.5 * wall_share,
            "visible share ~ 1 - wall share (+-0.02)": abs(m2["visibleShare"] - m["visibleShare"] * expected) < 0.02,
            "area ratio = 1 + wall/truth (+-0.002)": abs(m2["areaRatio"] - (1 + face_areas(wv, wf).sum() / truth.area)) < 0.002,
            "recall still 1": m2["tau1pct"]["recall"] == 1.0,
            "precision drops": m2["tau1pct"]["precision"] < 1.0,
        }
        checks1 = {k: bool(v) for k, v in checks1.items()}
        checks2 = {k: bool(v) for k, v in checks2.items()}
        report["truthAsModel"] = {"result": r1, "checks": checks1}
        report["truthPlusInteriorWall"] = {"result": r2, "wallAreaShare": round(wall_share, 4),
                                           "expectedVisibleShare": round(expected * m["visibleShare"], 4), "checks": checks2}
        ok = all(checks1.values()) and all(checks2.values())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report["passed"] = ok
    print(json.dumps(report, default=lambda o: o.item() if hasattr(o, "item") else str(o)))
    for name, part in (("truth as model", report.get("truthAsModel")), ("truth + interior wall", report.get("truthPlusInteriorWall"))):
        if part:
            m = part["result"]["mesh"]
            print(f"pt_eval self-test, {name}: F(1%) {m['tau1pct']['fscore']} F(0.5%) {m['tau0.5pct']['fscore']} "
                  f"P {m['tau1pct']['precision']} R {m['tau1pct']['recall']} area ratio {m['areaRatio']} "
                  f"visible share {m['visibleShare']} rot max {part['result']['rotationErrorDeg']['max']} deg; "
                  + ", ".join(f"{k}: {'ok' if v else 'FAILED'}" for k, v in part["checks"].items()), file=sys.stderr)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--truth")
    ap.add_argument("--model")
    ap.add_argument("--record")
    ap.add_argument("--samples", type=int, default=200000)
    ap.add_argument("--vis-dirs", type=int, default=200, help="directions of the visibility test (200)")
    ap.add_argument("--peer-mesh")
    ap.add_argument("--peer-sparse")
    ap.add_argument("--make-peer-mesh", metavar="OUT_PLY")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.make_peer_mesh:
        if not args.peer_sparse:
            ap.error("--make-peer-mesh needs --peer-sparse")
        print(json.dumps(make_peer_mesh(args.peer_sparse, args.make_peer_mesh)))
        return 0
    if not args.truth:
        ap.error("--truth is required")
    if args.self_test:
        return self_test(args)
    if not args.model and not (args.peer_mesh and args.peer_sparse):
        ap.error("--model (or --peer-mesh and --peer-sparse) is required")
    t0 = time.time()
    truth = Truth(args.truth, args.samples)
    result = {"type": "pt-eval", "truth": os.path.abspath(args.truth), "diagMetres": round(truth.diag, 5)}
    if args.model:
        record = args.record or os.path.join(os.path.dirname(os.path.abspath(args.model)), os.path.basename(os.path.abspath(args.model)) + ".record")
        result["model"] = os.path.abspath(args.model)
        result.update(evaluate(truth, args.model, record, args.samples, args.vis_dirs))
    if args.peer_mesh and args.peer_sparse:
        result["peer"] = evaluate_peer(truth, args.peer_mesh, args.peer_sparse, args.samples, args.vis_dirs)
    result["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(result, default=lambda o: o.item() if hasattr(o, "item") else str(o)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
