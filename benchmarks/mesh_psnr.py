#!/usr/bin/env python3
"""Renders a reconstructed textured mesh from a photo's true camera and compares it with the photo.

    mesh_psnr.py --capture CAPTURE --model MODEL_DIR --record RECORD.json --view img_0012.jpg [--save FILE.png]

The model should have been made without that photo (a held-out view). The model's camera centres
are aligned to the true ones (Umeyama), which puts the mesh (via the record's meshFromSparse) in
the truth's frame; the mesh is rasterised with a z-buffer at the photo's size through the true
pinhole camera (COLMAP's pixel convention), its texture sampled bilinearly at each pixel centre,
unlit (the texture already holds the photos' shading). PSNR and the mean absolute error are over
the pixels the mesh covers, less a 2-pixel band at its outline (where a sub-pixel misalignment
mixes garment and backdrop). Prints one JSON line."""
import argparse
import json
import os
import sys

import numpy as np
import trimesh
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mesh_eval import centres, umeyama  # noqa: E402


def true_camera(capture, view):
    cam = [l.split() for l in open(os.path.join(capture, "truth", "cameras.txt")) if l.strip() and not l.startswith("#")][0]
    w, h, fx, fy, cx, cy = int(cam[2]), int(cam[3]), *map(float, cam[4:8])
    for l in open(os.path.join(capture, "truth", "images.txt")):
        f = l.split()
        if len(f) == 10 and f[9] == view:
            qw, qx, qy, qz, tx, ty, tz = map(float, f[1:8])
            q = np.array([qw, qx, qy, qz]) / np.linalg.norm([qw, qx, qy, qz])
            a, b, c, d = q
            r = np.array([[1 - 2 * (c * c + d * d), 2 * (b * c - a * d), 2 * (b * d + a * c)],
                          [2 * (b * c + a * d), 1 - 2 * (b * b + d * d), 2 * (c * d - a * b)],
                          [2 * (b * d - a * c), 2 * (c * d + a * b), 1 - 2 * (b * b + c * c)]])
            return w, h, fx, fy, cx, cy, r, np.array([tx, ty, tz])
    raise SystemExit(f"{view} is not in the truth")


def sample(texture, uv):
    th, tw = texture.shape[:2]
    x = np.clip(uv[:, 0] * tw - 0.5, 0, tw - 1.001)
    y = np.clip((1 - uv[:, 1]) * th - 0.5, 0, th - 1.001)
    x0, y0 = x.astype(int), y.astype(int)
    fx, fy = (x - x0)[:, None], (y - y0)[:, None]
    t = texture.astype(np.float64)
    top = t[y0, x0] * (1 - fx) + t[y0, x0 + 1] * fx
    bottom = t[y0 + 1, x0] * (1 - fx) + t[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--capture", required=True)
    a.add_argument("--model", required=True)
    a.add_argument("--record", required=True)
    a.add_argument("--view", required=True)
    a.add_argument("--save")
    args = a.parse_args()
    record = json.load(open(args.record))
    w, h, fx, fy, cx, cy, r_cam, t_cam = true_camera(args.capture, args.view)
    true_c, our_c = centres(os.path.join(args.capture, "truth", "images.txt")), centres(os.path.join(args.model, "sparse", "images.txt"))
    names = sorted((set(true_c) & set(our_c)) - {args.view})
    s, r, t = umeyama(np.array([our_c[n] for n in names]), np.array([true_c[n] for n in names]))
    m = record["meshFromSparse"]
    mesh = trimesh.load(os.path.join(args.model, "mesh", "model.ply"), process=False)
    uv = np.asarray(mesh.visual.uv, dtype=np.float64)
    texture = np.asarray(Image.open(os.path.join(args.model, "mesh", "texture.png")).convert("RGB"))
    sparse = ((np.asarray(mesh.vertices, dtype=np.float64) - np.array(m["translation"])) @ np.array(m["rotation"])) / m["scale"]
    world = (s * (r @ sparse.T)).T + t
    cam = (r_cam @ world.T).T + t_cam
    z = cam[:, 2]
    px = np.stack([fx * cam[:, 0] / z + cx, fy * cam[:, 1] / z + cy], axis=1)
    # Rasterise every triangle at once, one bounding-box offset at a time (the triangles are a few
    # pixels wide), keeping per pixel the fragment nearest the camera.
    faces = np.asarray(mesh.faces)
    faces = faces[(z[faces] > 0).all(axis=1)]
    p = px[faces]                                                    # (T, 3, 2)
    lo = np.maximum(np.floor(p.min(axis=1) - 0.5).astype(int), 0)
    hi = np.minimum(np.ceil(p.max(axis=1) - 0.5).astype(int), [w - 1, h - 1])
    span = hi - lo + 1
    keep = (span > 0).all(axis=1)
    faces, p, lo, span = faces[keep], p[keep], lo[keep], span[keep]
    (x0, y0), (x1, y1), (x2, y2) = p[:, 0].T, p[:, 1].T, p[:, 2].T
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    ok = np.abs(area) > 1e-12
    pixels, depths, which, bary = [], [], [], []
    for dy in range(int(span[:, 1].max())):
        for dx in range(int(span[:, 0].max())):
            sel = np.nonzero(ok & (dx < span[:, 0]) & (dy < span[:, 1]))[0]
            if len(sel) == 0:
                continue
            xs, ys = lo[sel, 0] + dx + 0.5, lo[sel, 1] + dy + 0.5
            w0 = ((x1[sel] - xs) * (y2[sel] - ys) - (x2[sel] - xs) * (y1[sel] - ys)) / area[sel]
            w1 = ((x2[sel] - xs) * (y0[sel] - ys) - (x0[sel] - xs) * (y2[sel] - ys)) / area[sel]
            w2 = 1 - w0 - w1
            inside = (w0 >= 0) & (w1 >= 0) & (w2 >= 0)
            if not inside.any():
                continue
            sel, w0, w1, w2, xs, ys = sel[inside], w0[inside], w1[inside], w2[inside], xs[inside], ys[inside]
            zf = z[faces[sel]]
            iz = w0 / zf[:, 0] + w1 / zf[:, 1] + w2 / zf[:, 2]
            pixels.append((ys - 0.5).astype(int) * w + (xs - 0.5).astype(int))
            depths.append(1 / iz)
            which.append(sel)
            # Perspective-correct weights.
            bary.append(np.stack([w0 / zf[:, 0], w1 / zf[:, 1], w2 / zf[:, 2]], axis=1) / iz[:, None])
    pixels, depths, which, bary = map(np.concatenate, (pixels, depths, which, bary))
    order = np.lexsort((depths, pixels))
    first = order[np.r_[True, pixels[order][1:] != pixels[order][:-1]]]
    depth = np.full(h * w, np.inf)
    colour = np.zeros((h * w, 3))
    depth[pixels[first]] = depths[first]
    uvs = np.einsum("ij,ijk->ik", bary[first], uv[faces[which[first]]])
    colour[pixels[first]] = sample(texture, uvs)
    depth, colour = depth.reshape(h, w), colour.reshape(h, w, 3)
    covered = np.isfinite(depth)
    # Leave out a 2-pixel band at the outline.
    inner = covered.copy()
    for _ in range(2):
        inner[1:-1, 1:-1] &= covered[:-2, 1:-1] & covered[2:, 1:-1] & covered[1:-1, :-2] & covered[1:-1, 2:]
        covered = inner.copy()
    photo = np.asarray(Image.open(os.path.join(args.capture, args.view)).convert("RGB"), dtype=np.float64)
    diff = colour[inner] - photo[inner]
    mse = float((diff ** 2).mean())
    if args.save:
        out = photo.copy()
        out[inner] = colour[inner]
        Image.fromarray(np.hstack([photo, out]).astype(np.uint8)).save(args.save)
    print(json.dumps({"view": args.view, "pixels": int(inner.sum()), "psnr": round(10 * np.log10(255 ** 2 / mse), 2),
                      "meanAbsoluteError": round(float(np.abs(diff).mean()), 2)}))


if __name__ == "__main__":
    main()
