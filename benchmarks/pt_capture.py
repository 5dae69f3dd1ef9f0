#!/usr/bin/env python3
"""Independent test captures for atl-reconstruct, rendered with the path tracer Mitsuba 3.

    pt_capture.py --scene NAME --out DIR [--views N] [--width 1024 --height 768] [--spp S]
                  [--seed K] [--quality Q] [--check [VIEWS]] [--no-iou]

Scenes (all geometry made here with numpy, textures drawn here with numpy and Pillow):
  dressform-24  a closed tailor's dummy (elliptical sections: hips, waist, bust, shoulders
                rounding over to a neck stump with a flat cap; a flat bottom cap) on a pole and
                a round base disc on the floor; a rich non-repeating print, satin finish
                (roughplastic); one ring of 24 at 25 degrees, 1.5 m
  knit-30       a dark navy stockinette sweater torso on the same stand: a fine, repetitive,
                low-contrast "V" stitch as colour and normal map; 15 + 15 views at 15 and 40
                degrees; JPEG quality 70 unless --quality says otherwise
  jersey-30     the same torso, fine plain jersey with a slight heather
  denim-30      the same torso, indigo 2/1 twill with slubs
  shoe-24       a closed shoe-like body on the floor, leather grain, panels, stitching, print;
                one ring of 24 at 30 degrees, 0.55 m

Studio: a large floor and a cylindrical wall (plain light grey, two-sided diffuse), two
rectangular area lights and a dim constant environment. Path tracer (`path`, max depth 4,
16 spp of a multi-jittered sampler by default), variant scalar_rgb.
Timing, 1024x768, 16 spp, 2 cores, nice -n 10: about 18 s a photo when little else runs,
30-45 s while a Swift build or test suite runs beside it (measured: dressform-24 36 s mean,
knit-30 35 s, jersey-30 31 s); plus 3-6 s for the self-check's mask. 64 spp costs 4x that, and
16 spp of the multi-jittered sampler is already clean next to the sensor noise added after. Exposure is fixed per capture (from the first view), then Poisson-Gaussian
sensor noise in linear space (seeded), the sRGB curve, 8 bits, JPEG with an EXIF block whose
Exif IFD has FocalLengthIn35mmFilm (0xA405).

The lens: a 34.7 mm-equivalent focal length (diagonal rule, f = f35 * sqrt(W^2 + H^2) / 43.27),
written to EXIF rounded to 35, as a phone would: the prior is close, not exact. Square pixels,
principal point at the image centre.

Hand-held cameras: azimuth +-2.5 deg, elevation +-2 deg, distance +-3 cm, position +-2 cm, aim
+-3 cm plus +-1.5 deg, roll +-3 deg (uniform, seeded); a draw that would crop the object is
drawn again.

Files (DIR):
  img_0001.jpg ...           the photos
  truth/mesh.ply             the object's true outer surface: binary little-endian PLY, x y z
                             float, faces as uchar count + int indices, counter-clockwise seen
                             from outside; metres, +Y up, ground plane y = 0. It is what the
                             camera can see of the object: the dress form / torso (closed, both
                             caps), the pole (its side) and the base disc (side and top) for the
                             torso scenes; the shoe without its sole's underside. Faces lying on
                             the ground plane (the base's and the shoe's undersides) are not in
                             it, nor the floor or the wall.
  truth/cameras.txt, images.txt, points3D.txt   COLMAP text model of the true cameras (one
                             PINHOLE camera, cx = W/2, cy = H/2; pointInCam = R pointInWorld + t,
                             x right, y down, z forward; Hamilton quaternion with qw >= 0)
  truth/scene.json           scene, seed, spp, render seconds, Mitsuba version, focal length,
                             what the mesh includes, the IoU self-check; also the keys of
                             synth-capture's scene.json that benchmarks/reconstruct_eval.py
                             reads (camera, rings[].radiusMetres, images[].centre ...)
  .check/check_NNNN.png      with --check: the photo, the truth mesh projected with the COLMAP
                             pose (red outline) and Mitsuba's object mask (green outline),
                             their disagreement in magenta. A hidden folder, so that
                             atl-reconstruct DIR (which walks folders) does not take it for a photo.

Self-check (always, unless --no-iou): per view, the truth mesh's triangles are rasterised here
(pixel centres at +0.5) with the COLMAP pose and intrinsics written to truth/, and compared with
a Mitsuba render of the object alone as an emitter in the dark (box filter, 16 spp, coverage
>= 0.5) from the Mitsuba sensor built from the same pose. IoU must be >= 0.98 in every view;
otherwise the script exits 1 and writes no scene.json.

Progress per image on stderr; one JSON line on stdout at the end.
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
from PIL import Image, ImageDraw, ImageFilter

FULL_FRAME_DIAGONAL_MM = math.hypot(36.0, 24.0)
LENS_35MM = 34.7          # the true lens; EXIF says round(LENS_35MM)
IOU_MIN = 0.98
SCENE_NAMES = ("dressform-24", "knit-30", "jersey-30", "denim-30", "shoe-24")


def log(msg):
    print(f"pt_capture: {msg}", file=sys.stderr, flush=True)


# =============================================================================================
# Geometry: parts with render attributes (positions, normals, uv, faces) and a truth weld
# =============================================================================================
class Part:
    """One render mesh: float positions (n,3), normals (n,3), uv (n,2), int faces (m,3), a
    material key, and whether it belongs to the object (truth + mask)."""

    def __init__(self, name, v, n, uv, f, material, is_object=True):
        self.name, self.v, self.n, self.uv, self.f = name, np.asarray(v, float), np.asarray(n, float), np.asarray(uv, float), np.asarray(f, np.int64)
        self.material, self.is_object = material, is_object


def normalise(a):
    return a / np.maximum(np.linalg.norm(a, axis=-1, keepdims=True), 1e-12)


def vertex_normals(v, f):
    fn = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])   # area weighted
    n = np.zeros_like(v)
    for k in range(3):
        np.add.at(n, f[:, k], fn)
    return normalise(n)


def grid_part(name, pos, u, v, material, is_object=True):
    """A (rows, cols, 3) grid of positions whose columns wrap around: faces between rows i, i+1
    and columns j, j+1, outward when rows go up and columns go counter-clockwise seen from above
    (x = a cos t, z = b sin t with t increasing). u (cols+1,) and v (rows,) are the texture
    coordinates; the seam column is duplicated in the render mesh so u runs 0..1, and the normals
    are those of the welded grid so that the seam does not show."""
    rows, cols = pos.shape[:2]
    idx = np.arange(rows * cols).reshape(rows, cols)
    jn = np.roll(idx, -1, axis=1)
    a, b, c, d = idx[:-1], idx[1:], jn[:-1], jn[1:]
    # triangles (i,j) (i+1,j) (i,j+1) and (i+1,j) (i+1,j+1) (i,j+1)
    f = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([b, d, c], -1).reshape(-1, 3)])
    n = vertex_normals(pos.reshape(-1, 3), f).reshape(rows, cols, 3)
    # render mesh: column 0 again as column `cols`
    pos2 = np.concatenate([pos, pos[:, :1]], axis=1)
    n2 = np.concatenate([n, n[:, :1]], axis=1)
    idx2 = np.arange(rows * (cols + 1)).reshape(rows, cols + 1)
    a, b, c, d = idx2[:-1, :-1], idx2[1:, :-1], idx2[:-1, 1:], idx2[1:, 1:]
    f2 = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([b, d, c], -1).reshape(-1, 3)])
    uu, vv = np.meshgrid(u, v)
    return Part(name, pos2.reshape(-1, 3), n2.reshape(-1, 3), np.stack([uu, vv], -1).reshape(-1, 2), f2, material, is_object)


def cap_part(name, ring, centre, up, material, uv_of, is_object=True):
    """A flat fan closing a ring (k,3) of points around `centre`; `up` True makes it face +Y
    (the ring runs counter-clockwise seen from above). Two rings of vertices (centre, a middle
    ring, the outer ring) so the triangles are not all slivers."""
    k = len(ring)
    mid = centre + 0.5 * (ring - centre)
    v = np.concatenate([centre[None], mid, ring])
    f = []
    for j in range(k):
        jn = (j + 1) % k
        m0, m1, o0, o1 = 1 + j, 1 + jn, 1 + k + j, 1 + k + jn
        f += [(0, m1, m0), (m0, m1, o1), (m0, o1, o0)]
    f = np.array(f)
    if not up:
        f = f[:, ::-1]
    nrm = np.tile([0.0, 1.0 if up else -1.0, 0.0], (len(v), 1))
    return Part(name, v, nrm, uv_of(v), f, material, is_object)


def profile(keys, count, smooth=True):
    """keys: rows of (y, a, b, cz, p) along a meridian from the bottom up. Resampled to `count`
    rings evenly by arc length in the (y, a) plane with a monotone cubic (PCHIP) through them."""
    from scipy.interpolate import PchipInterpolator
    keys = np.asarray(keys, float)
    seg = np.hypot(np.diff(keys[:, 0]), np.diff(keys[:, 1]))
    s = np.concatenate([[0], np.cumsum(seg)])
    interp = PchipInterpolator(s, keys, axis=0)
    fine = np.linspace(0, s[-1], 4000)
    pts = interp(fine)
    arc = np.concatenate([[0], np.cumsum(np.hypot(np.diff(pts[:, 0]), np.diff(pts[:, 1])))])
    return interp(np.interp(np.linspace(0, arc[-1], count), arc, fine))


def superellipse(a, b, p, t):
    """Points of |x/a|^p + |z/b|^p = 1 at angles t (p = 2: an ellipse)."""
    c, s = np.cos(t), np.sin(t)
    return a * np.sign(c) * np.abs(c) ** (2 / p), b * np.sign(s) * np.abs(s) ** (2 / p)


def torso_parts(keys, rings, cols, side_material, cap_material):
    prof = profile(keys, rings)
    t = np.linspace(0, 2 * np.pi, cols, endpoint=False)
    pos = np.zeros((rings, cols, 3))
    for i, (y, a, b, cz, p) in enumerate(prof):
        x, z = superellipse(a, b, p, t)
        pos[i] = np.stack([x, np.full(cols, y), z + cz], -1)
    y0, y1 = prof[0, 0], prof[-1, 0]
    u = np.linspace(0, 1, cols + 1)
    v = (prof[:, 0] - y0) / (y1 - y0)
    parts = [grid_part("torso", pos, u, v, side_material)]
    span = 2.2 * prof[:, 1].max()

    def planar(p):
        return np.stack([0.5 + p[:, 0] / span, 0.5 + p[:, 2] / span], -1)

    bottom_c = np.array([0.0, y0, prof[0, 3]])
    top_c = np.array([0.0, y1, prof[-1, 3]])
    parts.append(cap_part("torso-bottom", pos[0], bottom_c, False, cap_material, planar))
    parts.append(cap_part("torso-top", pos[-1], top_c, True, cap_material, planar))
    return parts, y0, y1


def stand_parts(y_top, pole_r=0.016, base_r=0.17, base_h=0.02, cols=96):
    """A pole from the base's top to the torso's bottom (its side only: both ends are hidden)
    and a base disc: side and top (its underside rests on the floor)."""
    t = np.linspace(0, 2 * np.pi, cols, endpoint=False)
    ys = np.linspace(base_h, y_top, 12)
    pole = np.stack([np.stack([pole_r * np.cos(t), np.full(cols, y), pole_r * np.sin(t)], -1) for y in ys])
    parts = [grid_part("pole", pole, np.linspace(0, 1, cols + 1), np.linspace(0, 1, len(ys)), "pole")]
    base = np.stack([np.stack([base_r * np.cos(t), np.full(cols, y), base_r * np.sin(t)], -1) for y in (0.0, base_h)])
    parts.append(grid_part("base-side", base, np.linspace(0, 1, cols + 1), np.array([0.0, 1.0]), "base"))
    parts.append(cap_part("base-top", base[-1], np.array([0.0, base_h, 0.0]), True, "base",
                          lambda p: np.stack([0.5 + p[:, 0], 0.5 + p[:, 2]], -1)))
    return parts


# Meridian keys (y, half-width a, half-depth b, z offset of the section's centre, superellipse
# exponent), metres, bottom up.
DRESSFORM_KEYS = [
    (0.380, 0.135, 0.105, 0.000, 2.0),   # bottom (closed cap)
    (0.430, 0.148, 0.118, 0.002, 2.1),   # hips
    (0.500, 0.128, 0.100, 0.004, 2.1),
    (0.570, 0.106, 0.084, 0.006, 2.1),   # waist
    (0.640, 0.126, 0.100, 0.014, 2.0),
    (0.700, 0.142, 0.112, 0.020, 2.0),   # bust
    (0.760, 0.148, 0.098, 0.012, 2.2),
    (0.800, 0.150, 0.084, 0.004, 2.4),   # shoulders
    (0.822, 0.128, 0.074, 0.000, 2.3),
    (0.838, 0.092, 0.062, 0.000, 2.2),   # rounding over
    (0.850, 0.058, 0.050, 0.000, 2.0),   # neck base
    (0.870, 0.046, 0.043, 0.000, 2.0),
    (0.910, 0.044, 0.041, 0.000, 2.0),   # neck stump (flat cap)
]
SWEATER_KEYS = [
    (0.370, 0.160, 0.108, 0.000, 2.6),   # hem (closed cap)
    (0.420, 0.158, 0.106, 0.000, 2.6),
    (0.520, 0.150, 0.100, 0.004, 2.5),
    (0.620, 0.156, 0.104, 0.010, 2.5),
    (0.720, 0.168, 0.108, 0.012, 2.6),   # chest
    (0.790, 0.180, 0.100, 0.006, 2.9),   # armpit line, boxy
    (0.825, 0.176, 0.090, 0.000, 2.9),   # shoulders
    (0.848, 0.140, 0.078, 0.000, 2.6),
    (0.862, 0.090, 0.066, 0.000, 2.2),
    (0.870, 0.064, 0.058, 0.000, 2.0),   # collar
    (0.905, 0.060, 0.055, 0.000, 2.0),
]


def shoe_parts(cols_len=160, cols_arc=96, cols_bottom=16):
    """A closed shoe-like body on the floor, toe along +Z: stations along the length, each a
    superelliptic upper arc over a flat sole line at y = 0; the ends close with fans."""
    L = 0.28
    s = np.linspace(0, 1, cols_len)[1:-1]      # interior stations, toe (s=0) to heel (s=1)
    z = L / 2 - s * L
    # rounded ends: sqrt-like fall-off to the tips
    endf = np.clip(1 - (2 * s - 1) ** 2, 0, 1) ** 0.35
    half_w = (0.042 + 0.010 * np.exp(-((s - 0.28) / 0.16) ** 2) - 0.006 * np.exp(-((s - 0.6) / 0.1) ** 2)) * endf
    height = (0.040 + 0.060 * np.clip((s - 0.12) / 0.45, 0, 1) ** 0.8 + 0.012 * np.exp(-((s - 0.85) / 0.1) ** 2)) * (0.35 + 0.65 * endf)
    p = 3.0
    al = np.linspace(0, np.pi, cols_arc)
    ring_pts = []
    for k in range(len(s)):
        c, sn = np.cos(al), np.sin(al)
        xa = half_w[k] * np.sign(c) * np.abs(c) ** (2 / p)
        ya = height[k] * np.abs(sn) ** (2 / p)
        xb = np.linspace(-half_w[k], half_w[k], cols_bottom + 2)[1:-1]
        x = np.concatenate([xa, xb])
        y = np.concatenate([ya, np.zeros(cols_bottom)])
        ring_pts.append(np.stack([x, y, np.full_like(x, z[k])], -1))
    # rings as (rows = stations, cols = loop). Loop: from +x over the top to -x, then along the
    # sole back to +x: counter-clockwise seen from the toe (+Z). Rows go from toe to heel (-Z).
    pos = np.stack(ring_pts)
    rows, cols = pos.shape[:2]
    loop_v = np.concatenate([np.linspace(0, 1, cols_arc), np.full(cols_bottom, 1.0)])
    # The grid's outward rule (rows "up" = +Y, columns counter-clockwise seen from above) maps
    # here to rows towards -Z and columns counter-clockwise seen from +Z: outward as well.
    idx = np.arange(rows * cols).reshape(rows, cols)
    jn = np.roll(idx, -1, axis=1)
    a, b, c, d = idx[:-1], idx[1:], jn[:-1], jn[1:]
    f = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([b, d, c], -1).reshape(-1, 3)])
    flat = pos.reshape(-1, 3)
    n = vertex_normals(flat, f)
    if signed_volume(flat, f) < 0:
        f = f[:, ::-1]
        n = vertex_normals(flat, f)
    uu = np.repeat(s[:, None], cols, 1).reshape(-1)
    vv = np.tile(loop_v, rows)
    body = Part("shoe", flat, n, np.stack([uu, vv], -1), f, "shoe")
    parts = [body]
    # end fans to the tip points
    for which, ring, tip_z in (("toe", pos[0], L / 2), ("heel", pos[-1], -L / 2)):
        tip = np.array([0.0, ring[:, 1].max() * 0.45, tip_z])
        v = np.concatenate([tip[None], ring])
        k = len(ring)
        ff = np.array([(0, 1 + j, 1 + (j + 1) % k) for j in range(k)])
        # orient outward: the fan's normal must point away from the body's centre
        cen = flat.mean(0)
        fc = v[ff].mean(1)
        fnrm = np.cross(v[ff[:, 1]] - v[ff[:, 0]], v[ff[:, 2]] - v[ff[:, 0]])
        if (np.einsum("ij,ij->i", fnrm, fc - cen) < 0).mean() > 0.5:
            ff = ff[:, ::-1]
        uvv = np.stack([np.full(len(v), 0.0 if which == "toe" else 1.0), np.concatenate([[0.5], loop_v])], -1)
        parts.append(Part("shoe-" + which, v, vertex_normals(v, ff), uvv, ff, "shoe"))
    return parts


def signed_volume(v, f):
    return float(np.einsum("ij,ij->i", v[f[:, 0]], np.cross(v[f[:, 1]], v[f[:, 2]])).sum() / 6)


def weld(parts):
    """The truth surface: the object's parts with duplicated positions merged, faces lying on the
    ground plane (undersides) dropped, degenerate faces dropped."""
    vs, fs, off = [], [], 0
    for p in parts:
        if not p.is_object:
            continue
        vs.append(p.v)
        fs.append(p.f + off)
        off += len(p.v)
    v, f = np.concatenate(vs), np.concatenate(fs)
    uniq, inv = np.unique(np.round(v, 9), axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    f = inv[f]
    f = f[(f[:, 0] != f[:, 1]) & (f[:, 1] != f[:, 2]) & (f[:, 0] != f[:, 2])]
    on_ground = (np.abs(uniq[f][:, :, 1]) < 1e-9).all(1)
    f = f[~on_ground]
    used = np.unique(f)
    remap = -np.ones(len(uniq), np.int64)
    remap[used] = np.arange(len(used))
    return uniq[used], remap[f]


# =============================================================================================
# Textures (sRGB uint8 arrays, row 0 = v = 1 at the top as Mitsuba's bitmap reads it)
# =============================================================================================
def value_noise(rng, h, w, cells, octaves=1):
    """Smooth noise in [0,1]: random grids upsampled bicubically, octaves summed."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        c = max(2, int(cells * 2 ** o))
        g = rng.random((c, c)).astype(np.float32)
        im = Image.fromarray(g, mode="F").resize((w, h), Image.BICUBIC)
        out += amp * np.asarray(im)
        total += amp
        amp *= 0.5
    out /= total
    lo, hi = np.percentile(out, [1, 99])
    return np.clip((out - lo) / max(hi - lo, 1e-6), 0, 1)


def print_texture(rng, size=2048):
    """A rich, non-repeating print: tinted noise ground, stripes, discs, rings, polygons, dots."""
    ground = np.stack([value_noise(rng, size, size, 6, 3) for _ in range(3)], -1)
    base = np.array([236, 226, 206], np.float32)
    img = np.clip(base * (0.85 + 0.3 * ground), 0, 255).astype(np.uint8)
    im = Image.fromarray(img)
    d = ImageDraw.Draw(im)
    palette = np.array([(196, 48, 62), (33, 78, 142), (242, 178, 42), (40, 120, 80), (120, 60, 150),
                        (230, 110, 60), (20, 20, 30), (90, 170, 200), (210, 90, 140), (140, 110, 60)])

    def colour():
        c = palette[rng.integers(len(palette))] * rng.uniform(0.75, 1.15) + rng.normal(0, 12, 3)
        return tuple(int(x) for x in np.clip(c, 0, 255))

    for _ in range(70):   # stripes at random angles
        x0, y0 = rng.uniform(-200, size + 200, 2)
        ang = rng.uniform(0, np.pi)
        ln = rng.uniform(300, 1400)
        d.line([(x0, y0), (x0 + ln * np.cos(ang), y0 + ln * np.sin(ang))], fill=colour(), width=int(rng.uniform(4, 28)))
    for _ in range(450):  # discs and rings
        x, y = rng.uniform(0, size, 2)
        r = float(np.exp(rng.uniform(np.log(6), np.log(110))))
        if rng.random() < 0.3:
            d.ellipse([x - r, y - r, x + r, y + r], outline=colour(), width=max(2, int(r / 5)))
        else:
            d.ellipse([x - r, y - r, x + r, y + r], fill=colour())
    for _ in range(350):  # polygons
        x, y = rng.uniform(0, size, 2)
        k = int(rng.integers(3, 7))
        r = rng.uniform(8, 60)
        a0 = rng.uniform(0, 2 * np.pi)
        radii = r * rng.uniform(0.5, 1.0, k)
        pts = [(x + radii[i] * np.cos(a0 + 2 * np.pi * i / k), y + radii[i] * np.sin(a0 + 2 * np.pi * i / k)) for i in range(k)]
        d.polygon(pts, fill=colour())
    for _ in range(5000):  # small dots
        x, y = rng.uniform(0, size, 2)
        r = rng.uniform(1.5, 5)
        d.ellipse([x - r, y - r, x + r, y + r], fill=colour())
    a = np.asarray(im).astype(np.float32)
    a *= (0.94 + 0.12 * rng.random((size, size, 1))).astype(np.float32)   # fine grain
    return np.clip(a, 0, 255).astype(np.uint8)


def height_to_normal(h, strength):
    dx = (np.roll(h, -1, 1) - np.roll(h, 1, 1)) * 0.5
    dy = (np.roll(h, -1, 0) - np.roll(h, 1, 0)) * 0.5
    n = np.stack([-strength * dx, strength * dy, np.ones_like(h)], -1)
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    return ((n + 1) * 0.5).astype(np.float32)


def knit_texture(rng, size=2048, cell_w=8, cell_h=12):
    """Stockinette: each stitch a V of two slanted yarn legs, one stitch per cell_w x cell_h
    pixels, repeated; a dark navy colour with low contrast and a slight per-stitch variation."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    fx = (xx % cell_w + 0.5) / cell_w            # 0..1 across a stitch
    fy = (yy % cell_h + 0.5) / cell_h            # 0..1 down a stitch (row 0 at the top)
    # rows interlock: each leg runs from the top outer corner to the bottom centre
    h = np.zeros((size, size), np.float32)
    for side in (-1, 1):
        # leg axis: from (0.5 + side*0.5, 0) to (0.5, 1); distance to it, and position along it
        ax0 = np.array([0.5 + side * 0.42, -0.05])
        ax1 = np.array([0.5 + side * 0.04, 1.05])
        dvec = ax1 - ax0
        L = np.hypot(*dvec)
        ux, uy = dvec / L
        px, py = fx - ax0[0], fy - ax0[1]
        along = (px * ux + py * uy) / L
        across = (px * -uy + py * ux)
        leg = np.exp(-(across / 0.17) ** 2) * np.sin(np.clip(along, 0, 1) * np.pi) ** 0.6
        h = np.maximum(h, leg)
    sx = (xx // cell_w).astype(np.int64)
    sy = (yy // cell_h).astype(np.int64)
    per = rng.normal(0, 0.035, (size // cell_h + 1, size // cell_w + 1)).astype(np.float32)
    var = per[sy, sx]
    fibre = value_noise(rng, size, size, 256) - 0.5
    shade = 0.62 + 0.38 * h + var + 0.04 * fibre
    navy = np.array([34, 40, 62], np.float32)
    rgb = np.clip(navy * shade[..., None], 0, 255).astype(np.uint8)
    return rgb, height_to_normal(h, 2.0)


def jersey_texture(rng, size=2048):
    """Fine plain jersey: very small wales (4 px), a heather of short vertical fibre streaks."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    wale = 0.5 + 0.5 * np.cos(2 * np.pi * xx / 4.0)
    course = 0.5 + 0.5 * np.cos(2 * np.pi * yy / 5.0)
    h = 0.6 * wale + 0.4 * wale * course
    streak = np.asarray(Image.fromarray(rng.random((size // 2, size // 16)).astype(np.float32), mode="F")
                        .resize((size, size), Image.BILINEAR))
    heather = (streak - 0.5) * 0.16 + (rng.random((size, size)).astype(np.float32) - 0.5) * 0.06
    lo = value_noise(rng, size, size, 5) - 0.5
    base = np.array([112, 124, 118], np.float32)
    shade = 0.88 + 0.08 * h + heather + 0.03 * lo
    rgb = np.clip(base * shade[..., None], 0, 255).astype(np.uint8)
    return rgb, height_to_normal(h, 0.8)


def denim_texture(rng, size=2048):
    """Indigo 3/1 twill: warp floats on a diagonal (period 8 px), white weft showing between,
    slubs (thicker weft streaks along u), low-frequency fading."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    diag = ((xx + yy) % 8) / 8.0
    warp = np.clip(np.sin(np.pi * diag) * 1.4, 0, 1)          # indigo float
    weft_gap = np.exp(-((diag - 0.02) / 0.09) ** 2)
    rows = size // 3
    slub_amt = np.zeros((rows, size), np.float32)
    for _ in range(2500):   # slubs: short thicker stretches of weft, fading in and out
        r = int(rng.integers(rows))
        c0 = int(rng.integers(size))
        ln = int(rng.integers(12, 70))
        seg = np.sin(np.linspace(0, np.pi, ln)) * rng.uniform(0.15, 0.5)
        seg = seg[:max(0, min(ln, size - c0))]
        slub_amt[r, c0:c0 + len(seg)] += seg
    slub = np.asarray(Image.fromarray(slub_amt, mode="F").resize((size, size), Image.BILINEAR))
    fade = value_noise(rng, size, size, 7, 2)
    indigo = np.array([28, 48, 98], np.float32)
    white = np.array([188, 192, 205], np.float32)
    w_mix = np.clip(0.12 + 0.45 * weft_gap + 0.35 * np.clip(slub, 0, 1) + 0.10 * (fade - 0.5), 0, 1)
    rgb = indigo * (1 - w_mix[..., None]) + white * w_mix[..., None]
    rgb *= (0.9 + 0.2 * warp)[..., None] * (0.95 + 0.1 * rng.random((size, size, 1))).astype(np.float32)
    h = 0.7 * warp + 0.3 * np.clip(slub, 0, 1)
    return np.clip(rgb, 0, 255).astype(np.uint8), height_to_normal(h, 1.2)


def leather_texture(rng, size=2048):
    """Shoe: u (columns) from toe to heel, v over the cross-section's arc from +x (v = 0) over
    the top to -x (v = 1). Leather grain, toe and heel panels, side panels with a printed
    stripe and perforations, eyelets and laces on top, stitching, a white sole band at both
    ends of the arc."""
    # pebble grain: thresholded smooth noise cells
    g1 = value_noise(rng, size, size, 180)
    g2 = value_noise(rng, size, size, 40)
    grain = 0.9 + 0.1 * np.clip(g1 * 1.6 - 0.3, 0, 1) + 0.05 * (g2 - 0.5)
    base = np.array([196, 146, 96], np.float32)           # tan leather
    rgb = base * grain[..., None]
    im = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(im)
    S = size
    # toe cap and heel counter panels (darker brown)
    d.rectangle([0, 0, int(0.22 * S), S], fill=(120, 74, 44))
    d.rectangle([int(0.74 * S), 0, S, S], fill=(120, 74, 44))
    # side panel shapes
    for side in (0.28, 0.72):
        cy = int((1 - side) * S)
        d.ellipse([int(0.30 * S), cy - int(0.13 * S), int(0.70 * S), cy + int(0.13 * S)], fill=(60, 70, 96))
        # a printed stripe swoosh
        pts = [(int(0.32 * S + t * 0.38 * S), int(cy + 0.09 * S * np.sin(np.pi * t) - 0.05 * S)) for t in np.linspace(0, 1, 40)]
        d.line(pts, fill=(230, 222, 205), width=22)
        # perforations on the side panel
        for i in range(6):
            for j in range(4):
                x = int(0.40 * S + i * 0.035 * S)
                y = int(cy + (j - 1.5) * 0.03 * S)
                d.ellipse([x - 5, y - 5, x + 5, y + 5], fill=(28, 26, 30))
    # sole band: v near 0 and near 1 (both lower arc ends)
    d.rectangle([0, 0, S, int(0.07 * S)], fill=(238, 236, 230))
    d.rectangle([0, int(0.93 * S), S, S], fill=(238, 236, 230))
    for k in range(0, S, 18):   # sole ribs
        d.line([(k, int(0.01 * S)), (k, int(0.06 * S))], fill=(205, 202, 196), width=4)
        d.line([(k, int(0.94 * S)), (k, int(0.99 * S))], fill=(205, 202, 196), width=4)
    # stitching: dashed lines along panel edges
    def dashed(p0, p1, col=(245, 235, 200)):
        p0, p1 = np.array(p0, float), np.array(p1, float)
        ln = np.linalg.norm(p1 - p0)
        n = int(ln // 22)
        for i in range(n):
            a = p0 + (p1 - p0) * (i / n)
            b = p0 + (p1 - p0) * ((i + 0.55) / n)
            d.line([tuple(a), tuple(b)], fill=col, width=5)
    for x in (0.22 * S - 14, 0.74 * S + 14):
        dashed((x, 0.08 * S), (x, 0.92 * S))
    dashed((0, 0.085 * S), (S, 0.085 * S))
    dashed((0, 0.915 * S), (S, 0.915 * S))
    # laces region on top (v ~ 0.5), from u 0.3 to 0.6: eyelets and crossing laces
    for i in range(7):
        x = int((0.32 + i * 0.045) * S)
        for yv in (0.44, 0.56):
            y = int(yv * S)
            d.ellipse([x - 12, y - 12, x + 12, y + 12], fill=(40, 36, 34))
        d.line([(x, int(0.44 * S)), (x + int(0.045 * S), int(0.56 * S))], fill=(240, 240, 240), width=12)
        d.line([(x, int(0.56 * S)), (x + int(0.045 * S), int(0.44 * S))], fill=(240, 240, 240), width=12)
    a = np.asarray(im).astype(np.float32) * (0.96 + 0.08 * rng.random((S, S, 1))).astype(np.float32)
    return np.clip(a, 0, 255).astype(np.uint8)


def srgb_to_linear(c):
    c = c.astype(np.float32) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


def linear_to_srgb(x):
    x = np.clip(x, 0, 1)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)


# =============================================================================================
# Scenes
# =============================================================================================
def build_scene(name, rng):
    """(parts, materials {key: Mitsuba BSDF dict}, rings [(elev deg, radius, views, az offset)],
    aim y, default quality, notes on the truth)."""
    import mitsuba as mi
    mats = {
        "pole": {"type": "roughplastic", "diffuse_reflectance": {"type": "rgb", "value": [0.05, 0.05, 0.055]}, "alpha": 0.25},
        "base": {"type": "diffuse", "reflectance": {"type": "rgb", "value": [0.09, 0.065, 0.045]}},
    }

    def bitmap(rgb8):
        return {"type": "bitmap", "bitmap": mi.Bitmap(srgb_to_linear(rgb8)), "filter_type": "bilinear", "wrap_mode": "repeat"}

    def normal_bitmap(nrm):
        return {"type": "bitmap", "bitmap": mi.Bitmap(nrm), "raw": True, "filter_type": "bilinear", "wrap_mode": "repeat"}

    if name == "dressform-24":
        tex = print_texture(rng)
        mats["side"] = {"type": "roughplastic", "diffuse_reflectance": bitmap(tex), "alpha": 0.35}
        mats["cap"] = mats["side"]
        parts, y0, y1 = torso_parts(DRESSFORM_KEYS, 140, 200, "side", "cap")
        parts += stand_parts(y0)
        return dict(parts=parts, mats=mats, rings=[(25.0, 1.5, 24, 0.0)], aim_y=0.455, quality=90,
                    includes="dress form (closed: side, bottom cap, neck cap), pole side, base disc side and top; "
                             "not the base's underside, the floor or the wall")
    if name in ("knit-30", "jersey-30", "denim-30"):
        if name == "knit-30":
            rgb, nrm = knit_texture(rng)
        elif name == "jersey-30":
            rgb, nrm = jersey_texture(rng)
        else:
            rgb, nrm = denim_texture(rng)
        mats["side"] = {"type": "normalmap", "normalmap": normal_bitmap(nrm), "bsdf": {"type": "diffuse", "reflectance": bitmap(rgb)}}
        mats["cap"] = {"type": "diffuse", "reflectance": {"type": "rgb", "value": [0.035, 0.035, 0.04]}}
        parts, y0, y1 = torso_parts(SWEATER_KEYS, 140, 200, "side", "cap")
        parts += stand_parts(y0)
        return dict(parts=parts, mats=mats, rings=[(15.0, 1.5, 15, 0.0), (40.0, 1.5, 15, 12.0)], aim_y=0.45,
                    quality=70 if name == "knit-30" else 90,
                    includes="sweater torso (closed: side, hem cap, neck cap), pole side, base disc side and top; "
                             "not the base's underside, the floor or the wall")
    if name == "shoe-24":
        mats["shoe"] = {"type": "roughplastic", "diffuse_reflectance": bitmap(leather_texture(rng)), "alpha": 0.3}
        return dict(parts=shoe_parts(), mats=mats, rings=[(30.0, 0.55, 24, 0.0)], aim_y=0.05, quality=90,
                    includes="shoe body (upper, toe and heel ends); not the sole's underside (on the floor), the floor or the wall")
    raise SystemExit(f"unknown scene {name}; one of {', '.join(SCENE_NAMES)}")


def studio_dict(mi):
    grey = {"type": "twosided", "bsdf": {"type": "diffuse", "reflectance": {"type": "rgb", "value": [0.62, 0.62, 0.61]}}}
    T = mi.ScalarTransform4f

    def rect_light(pos, target, size, radiance):
        return {"type": "rectangle",
                "to_world": T().look_at(origin=pos, target=target, up=[0, 1, 0]) @ T().scale([size, size, 1]),
                "emitter": {"type": "area", "radiance": {"type": "rgb", "value": radiance}}}

    return {
        "floor": {"type": "disk", "to_world": T().rotate([1, 0, 0], -90) @ T().scale(8.0), "bsdf": grey},
        "wall": {"type": "cylinder", "p0": [0, 0, 0], "p1": [0, 5, 0], "radius": 5.0, "bsdf": grey},
        "key": rect_light([1.6, 2.6, 1.2], [0, 0.5, 0], 0.7, [9.0, 8.8, 8.4]),
        "fill": rect_light([-1.9, 2.2, -1.0], [0, 0.5, 0], 0.6, [5.0, 5.1, 5.4]),
        "env": {"type": "constant", "radiance": {"type": "rgb", "value": [0.25, 0.25, 0.26]}},
    }


# =============================================================================================
# Cameras
# =============================================================================================
def rot_x(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rot_y(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def rot_z(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def look_colmap(centre, target):
    """World-to-camera rotation R (COLMAP: x right, y down, z forward) looking from centre at
    target with world +Y up."""
    f = normalise(np.asarray(target, float) - centre)
    right = normalise(np.cross(f, [0.0, 1.0, 0.0]))
    down = np.cross(f, right)
    return np.stack([right, down, f])      # rows: the camera axes in world coordinates


def quat_from_matrix(r):
    """Hamilton (w, x, y, z), w >= 0."""
    m = r
    tr = np.trace(m)
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        q = [0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2]) * 2
        q = [(m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s]
    elif m[1, 1] > m[2, 2]:
        s = math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2]) * 2
        q = [(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s]
    else:
        s = math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1]) * 2
        q = [(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s]
    q = np.array(q)
    q /= np.linalg.norm(q)
    return q if q[0] >= 0 else -q


def quat_to_matrix(q):
    w, x, y, z = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def project(points, R, t, fx, fy, cx, cy):
    pc = points @ R.T + t
    return np.stack([fx * pc[:, 0] / pc[:, 2] + cx, fy * pc[:, 1] / pc[:, 2] + cy], -1), pc[:, 2]


def plan_cameras(rings, views, aim_y, truth_v, intr, rng):
    """Per view (ring index, planned azimuth, elevation, distance, R, t, centre), hand-held."""
    W, H, fx, fy, cx, cy = intr
    planned = sum(r[2] for r in rings)
    counts = [r[2] for r in rings]
    if views is not None and views != planned:
        counts = [int(round(views * r[2] / planned)) for r in rings]
        counts[-1] = views - sum(counts[:-1])
    cams = []
    for ri, ((elev, radius, _, az0), n) in enumerate(zip(rings, counts)):
        for k in range(n):
            az_plan = az0 + 360.0 * k / n
            for attempt in range(50):
                az = math.radians(az_plan + rng.uniform(-2.5, 2.5))
                el = math.radians(elev + rng.uniform(-2.0, 2.0))
                dist = radius + rng.uniform(-0.03, 0.03)
                target = np.array([0.0, aim_y, 0.0])
                centre = target + dist * np.array([math.cos(el) * math.sin(az), math.sin(el), math.cos(el) * math.cos(az)])
                centre += rng.uniform(-0.02, 0.02, 3)
                aim = target + rng.uniform(-0.03, 0.03, 3)
                R = look_colmap(centre, aim)
                # hand tremor: small yaw/pitch and a roll, about the camera's own axes
                jitter = rot_z(math.radians(rng.uniform(-3, 3))) @ rot_x(math.radians(rng.uniform(-1.5, 1.5))) @ rot_y(math.radians(rng.uniform(-1.5, 1.5)))
                R = jitter @ R
                t = -R @ centre
                uv, z = project(truth_v, R, t, fx, fy, cx, cy)
                margin = 12
                if (z > 0.05).all() and uv[:, 0].min() > margin and uv[:, 0].max() < W - margin and uv[:, 1].min() > margin and uv[:, 1].max() < H - margin:
                    break
            else:
                log(f"warning: ring {ri} view {k}: the object does not fit the frame after 50 draws")
            d = centre - np.array([0, aim_y, 0])
            cams.append(dict(ring=ri, R=R, t=t, centre=centre, azimuth=math.degrees(math.atan2(d[0], d[2])) % 360,
                             elevation=math.degrees(math.asin(d[1] / np.linalg.norm(d))), distance=float(np.linalg.norm(d))))
    return cams, counts


def mitsuba_to_world(R, centre):
    """Mitsuba's sensor looks along its local +Z with +Y up and +X to the image's LEFT; COLMAP's
    camera has x right, y down, z forward. So camera-to-world for Mitsuba = R^T diag(-1,-1,1)."""
    m = np.eye(4)
    m[:3, :3] = R.T @ np.diag([-1.0, -1.0, 1.0])
    m[:3, 3] = centre
    return m


# =============================================================================================
# Rasteriser for the self-check
# =============================================================================================
def raster_mask(uv, faces, W, H):
    """Pixels whose centre (col + 0.5, row + 0.5) lies in any projected triangle (either winding)."""
    tri = uv[faces]
    mask = np.zeros((H, W), bool)
    xmin = np.clip(np.ceil(tri[..., 0].min(1) - 0.5), 0, W).astype(np.int64)
    xmax = np.clip(np.floor(tri[..., 0].max(1) - 0.5), -1, W - 1).astype(np.int64)
    ymin = np.clip(np.ceil(tri[..., 1].min(1) - 0.5), 0, H).astype(np.int64)
    ymax = np.clip(np.floor(tri[..., 1].max(1) - 0.5), -1, H - 1).astype(np.int64)
    ext = np.maximum(xmax - xmin + 1, ymax - ymin + 1)
    ok = (xmax >= xmin) & (ymax >= ymin)
    lo = 0
    K = 2
    while True:
        sel = np.nonzero(ok & (ext > lo) & (ext <= K))[0]
        chunk = max(1, 3_000_000 // (K * K))
        oy, ox = np.mgrid[0:K, 0:K]
        for c0 in range(0, len(sel), chunk):
            s = sel[c0:c0 + chunk]
            X = xmin[s, None, None] + ox
            Y = ymin[s, None, None] + oy
            inb = (X <= xmax[s, None, None]) & (Y <= ymax[s, None, None])
            px, py = X + 0.5, Y + 0.5
            t = tri[s]
            e = []
            for i in range(3):
                a, b = t[:, i], t[:, (i + 1) % 3]
                e.append((b[:, 0, None, None] - a[:, 0, None, None]) * (py - a[:, 1, None, None])
                         - (b[:, 1, None, None] - a[:, 1, None, None]) * (px - a[:, 0, None, None]))
            inside = inb & (((e[0] >= 0) & (e[1] >= 0) & (e[2] >= 0)) | ((e[0] <= 0) & (e[1] <= 0) & (e[2] <= 0)))
            mask[Y[inside], X[inside]] = True
        if K >= max(W, H) or not (ok & (ext > K)).any():
            break
        lo, K = K, K * 2
    return mask


# =============================================================================================
# Files
# =============================================================================================
def write_ply_render(path, p):
    n = len(p.v)
    data = np.hstack([p.v, p.n, p.uv]).astype("<f4")
    with open(path, "wb") as f:
        f.write((f"ply\nformat binary_little_endian 1.0\nelement vertex {n}\n"
                 "property float x\nproperty float y\nproperty float z\n"
                 "property float nx\nproperty float ny\nproperty float nz\n"
                 "property float u\nproperty float v\n"
                 f"element face {len(p.f)}\nproperty uchar vertex_indices\nend_header\n")
                .replace("property uchar vertex_indices", "property list uchar int vertex_indices").encode())
        f.write(data.tobytes())
        faces = np.zeros(len(p.f), dtype=[("n", "u1"), ("i", "<i4", 3)])
        faces["n"] = 3
        faces["i"] = p.f
        f.write(faces.tobytes())


def write_ply_truth(path, v, faces, comments):
    header = "ply\nformat binary_little_endian 1.0\n" + "".join(f"comment {c}\n" for c in comments)
    header += (f"element vertex {len(v)}\nproperty float x\nproperty float y\nproperty float z\n"
               f"element face {len(faces)}\nproperty list uchar int vertex_indices\nend_header\n")
    rec = np.zeros(len(faces), dtype=[("n", "u1"), ("i", "<i4", 3)])
    rec["n"] = 3
    rec["i"] = faces
    with open(path, "wb") as f:
        f.write(header.encode())
        f.write(np.asarray(v, "<f4").tobytes())
        f.write(rec.tobytes())


def save_jpeg(path, rgb8, quality, f35):
    im = Image.fromarray(rgb8)
    exif = Image.Exif()
    exif[0x010F] = "Mitsuba"                 # Make
    exif[0x0110] = "pt_capture pinhole"      # Model
    exif[0x0131] = "benchmarks/pt_capture.py"  # Software
    exif[0x0112] = 1                         # Orientation
    sub = exif.get_ifd(0x8769)
    sub[0xA405] = int(f35)                   # FocalLengthIn35mmFilm
    sub[0xA002] = rgb8.shape[1]              # PixelXDimension
    sub[0xA003] = rgb8.shape[0]              # PixelYDimension
    sub[0xA001] = 1                          # ColorSpace sRGB
    tmp = path + ".tmp"
    im.save(tmp, "JPEG", quality=int(quality), exif=exif.tobytes(), subsampling=2)
    os.replace(tmp, path)


def write_text(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def colmap_texts(cams, names, W, H, fx, fy):
    cameras = ("# Camera list with one line of data per camera:\n#   CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]\n"
               f"# Number of cameras: 1\n1 PINHOLE {W} {H} {float(fx)!r} {float(fy)!r} {W / 2!r} {H / 2!r}\n")
    images = ("# Image list with two lines of data per image:\n#   IMAGE_ID, QW, QX, QY, QZ, TX, TY, TZ, CAMERA_ID, NAME\n"
              f"#   POINTS2D[] as (X, Y, POINT3D_ID)\n# Number of images: {len(cams)}, mean observations per image: 0\n")
    for i, (c, name) in enumerate(zip(cams, names)):
        q, t = [float(x) for x in c["q"]], [float(x) for x in c["t"]]
        images += f"{i + 1} {q[0]!r} {q[1]!r} {q[2]!r} {q[3]!r} {t[0]!r} {t[1]!r} {t[2]!r} 1 {name}\n\n"
    points = ("# 3D point list with one line of data per point:\n"
              "#   POINT3D_ID, X, Y, Z, R, G, B, ERROR, TRACK[] as (IMAGE_ID, POINT2D_IDX)\n"
              "# Number of points: 0, mean track length: 0\n")
    return cameras, images, points


# =============================================================================================
# Main
# =============================================================================================
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--scene", required=True, choices=SCENE_NAMES)
    ap.add_argument("--out", required=True)
    ap.add_argument("--views", type=int)
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--height", type=int, default=768)
    ap.add_argument("--spp", type=int, default=16, help="samples per pixel (16: see the docstring for the timing)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quality", type=int, help="JPEG quality (default 90; knit-30 70)")
    ap.add_argument("--check", nargs="?", const="1", default=None,
                    help="write DIR/.check/check_NNNN.png overlays for these views (comma-separated, 1-based; default 1; 'all')")
    ap.add_argument("--no-iou", action="store_true", help="skip the IoU self-check (not recommended)")
    ap.add_argument("--max-depth", type=int, default=4, help="path length (4: direct light and two bounces)")
    ap.add_argument("--overwrite", action="store_true", help="replace DIR if it holds a capture")
    args = ap.parse_args()

    import mitsuba as mi
    mi.set_variant("scalar_rgb")
    started = time.time()
    out = os.path.abspath(args.out)
    if os.path.exists(out) and os.listdir(out):
        if not args.overwrite and os.path.exists(os.path.join(out, "truth", "scene.json")):
            raise SystemExit(f"pt_capture: {out} holds a capture; --overwrite to replace it")
        for n in os.listdir(out):
            if n.startswith("img_") or n in ("truth", ".check"):
                p = os.path.join(out, n)
                shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    os.makedirs(os.path.join(out, "truth"), exist_ok=True)

    rng = np.random.default_rng(args.seed * 7919 + SCENE_NAMES.index(args.scene))
    t0 = time.time()
    sc = build_scene(args.scene, rng)
    log(f"{args.scene}: geometry and textures in {time.time() - t0:.1f} s")
    parts = sc["parts"]
    truth_v, truth_f = weld(parts)
    quality = args.quality if args.quality is not None else sc["quality"]

    W, H = args.width, args.height
    diag = math.hypot(W, H)
    fx = fy = LENS_35MM * diag / FULL_FRAME_DIAGONAL_MM
    cx, cy = W / 2, H / 2
    f35_exif = int(round(LENS_35MM))
    fov_x = math.degrees(2 * math.atan(W / (2 * fx)))
    cams, counts = plan_cameras(sc["rings"], args.views, sc["aim_y"], truth_v, (W, H, fx, fy, cx, cy), rng)
    names = [f"img_{i + 1:04d}.jpg" for i in range(len(cams))]
    for c in cams:
        c["q"] = quat_from_matrix(c["R"])
        # what is written is what counts: R and t as they read back from the quaternion
        c["R"] = quat_to_matrix(c["q"])

    tmp = tempfile.mkdtemp(prefix="pt_capture_")
    try:
        shapes, obj_shapes = {}, {}
        for i, p in enumerate(parts):
            path = os.path.join(tmp, f"{i:02d}_{p.name}.ply")
            write_ply_render(path, p)
            shapes[f"s{i:02d}_{p.name}"] = {"type": "ply", "filename": path, "bsdf": sc["mats"][p.material]}
            if p.is_object:
                # the mask: the object as a black emitter of radiance 1, seen directly
                obj_shapes[f"m{i:02d}_{p.name}"] = {"type": "ply", "filename": path,
                                                    "bsdf": {"type": "diffuse", "reflectance": {"type": "rgb", "value": [0.0, 0.0, 0.0]}},
                                                    "emitter": {"type": "area", "radiance": {"type": "rgb", "value": [1.0, 1.0, 1.0]}}}
        T = mi.ScalarTransform4f

        def sensor(cam, spp, box):
            film = {"type": "hdrfilm", "width": W, "height": H, "pixel_format": "rgb"}
            if box:
                film["rfilter"] = {"type": "box"}
            return {"type": "perspective", "fov": fov_x, "fov_axis": "x", "near_clip": 0.01, "far_clip": 100.0,
                    "to_world": T(mitsuba_to_world(cam["R"], cam["centre"]).tolist()),
                    "film": film, "sampler": {"type": "independent" if box else "multijitter", "sample_count": spp}}

        scene_dict = {"type": "scene", "integrator": {"type": "path", "max_depth": args.max_depth}}
        scene_dict.update(studio_dict(mi))
        scene_dict.update(shapes)
        scene_dict["sensor"] = sensor(cams[0], args.spp, False)
        t0 = time.time()
        scene = mi.load_dict(scene_dict)
        mask_dict = {"type": "scene", "integrator": {"type": "direct"}}
        mask_dict.update(obj_shapes)
        mask_dict["sensor"] = sensor(cams[0], 16, True)
        mask_scene = mi.load_dict(mask_dict)
        log(f"scene loaded in {time.time() - t0:.1f} s; {len(cams)} views {W}x{H}, {args.spp} spp, fov_x {fov_x:.3f} deg, "
            f"f {fx:.3f} px; truth {len(truth_v)} vertices {len(truth_f)} faces")

        check_views = set()
        if args.check:
            check_views = set(range(1, len(cams) + 1)) if args.check == "all" else {int(x) for x in args.check.split(",")}
        exposure = None
        seconds, ious = [], []
        for i, cam in enumerate(cams):
            t0 = time.time()
            sens = mi.load_dict(sensor(cam, args.spp, False))
            img = np.array(mi.render(scene, sensor=sens, seed=args.seed * 100003 + i), dtype=np.float32)[:, :, :3]
            rs = time.time() - t0
            if exposure is None:
                lum = img @ np.array([0.2126, 0.7152, 0.0722], np.float32)
                exposure = 0.80 / float(np.percentile(lum, 99.0))
            # sensor: Poisson photon noise (full well ~1500 e- at white) + Gaussian read noise
            nrng = np.random.default_rng([args.seed, i, 77])
            lin = np.clip(img * exposure, 0, None)
            full_well = 1500.0
            lin = nrng.poisson(np.clip(lin, 0, 1.2) * full_well) / full_well + nrng.normal(0, 0.0025, lin.shape)
            srgb = linear_to_srgb(lin)
            rgb8 = np.clip(np.floor(srgb * 255 + nrng.random(srgb.shape)), 0, 255).astype(np.uint8)
            save_jpeg(os.path.join(out, names[i]), rgb8, quality, f35_exif)
            iou_txt = ""
            if not args.no_iou or (i + 1) in check_views:
                t1 = time.time()
                msens = mi.load_dict(sensor(cam, 16, True))
                cover = np.array(mi.render(mask_scene, sensor=msens, seed=i), dtype=np.float32)[:, :, 0]
                mit = cover >= 0.5
                uv, _ = project(truth_v, cam["R"], cam["t"], fx, fy, cx, cy)
                ras = raster_mask(uv, truth_f, W, H)
                iou = float((mit & ras).sum() / max((mit | ras).sum(), 1))
                ious.append(iou)
                iou_txt = f", IoU {iou:.4f} (mask {time.time() - t1:.1f} s)"
                if (i + 1) in check_views:
                    os.makedirs(os.path.join(out, ".check"), exist_ok=True)
                    ov = rgb8.astype(np.float32).copy()

                    def edge(m):
                        e = np.zeros_like(m)
                        e[1:-1, 1:-1] = m[1:-1, 1:-1] & ~(m[:-2, 1:-1] & m[2:, 1:-1] & m[1:-1, :-2] & m[1:-1, 2:])
                        return e
                    ov[mit ^ ras] = 0.3 * ov[mit ^ ras] + 0.7 * np.array([255, 0, 255])
                    ov[edge(ras)] = [255, 0, 0]
                    ov[edge(mit)] = [0, 255, 0]
                    ov[edge(ras) & edge(mit)] = [255, 255, 0]
                    Image.fromarray(ov.astype(np.uint8)).save(os.path.join(out, ".check", f"check_{i + 1:04d}.png"))
            seconds.append(rs)
            log(f"{names[i]} [{i + 1}/{len(cams)}] rendered in {rs:.1f} s{iou_txt}")
            if ious and ious[-1] < IOU_MIN and not args.no_iou:
                raise SystemExit(f"pt_capture: SELF-CHECK FAILED: {names[i]} IoU {ious[-1]:.4f} < {IOU_MIN}: the COLMAP pose "
                                 "written to truth/ does not match what Mitsuba rendered")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    # truth files (scene.json last: its presence says the capture is complete)
    truth = os.path.join(out, "truth")
    write_ply_truth(os.path.join(truth, "mesh.ply"), truth_v, truth_f,
                    [f"pt_capture.py {args.scene} seed {args.seed}: the object's true outer surface",
                     "units metres, +Y up, ground plane y = 0", f"includes: {sc['includes']}"])
    cam_txt, img_txt, pts_txt = colmap_texts(cams, names, W, H, fx, fy)
    write_text(os.path.join(truth, "cameras.txt"), cam_txt)
    write_text(os.path.join(truth, "images.txt"), img_txt)
    write_text(os.path.join(truth, "points3D.txt"), pts_txt)
    closed = watertight(truth_f)
    bb_min, bb_max = truth_v.min(0), truth_v.max(0)
    scene_json = {
        "format": "pt-capture", "version": 1, "generator": "benchmarks/pt_capture.py", "scene": args.scene, "preset": args.scene,
        "seed": args.seed, "spp": args.spp, "maxDepth": args.max_depth, "renderer": "mitsuba", "mitsubaVersion": mi.__version__,
        "variant": "scalar_rgb", "units": "metres", "upAxis": "+Y", "groundPlaneY": 0.0,
        "poseConvention": "COLMAP: pointInCamera = R * pointInWorld + t, camera x right, y down, z forward; "
                          "quaternion Hamilton (qw, qx, qy, qz), qw >= 0; pixel centres at +0.5",
        "camera": {"model": "PINHOLE", "width": W, "height": H, "fx": fx, "fy": fy, "cx": cx, "cy": cy,
                   "focalLength35mm": LENS_35MM, "focalLength35mmExif": f35_exif, "fovXDegrees": fov_x},
        "focalLengthPixels": fx,
        "rings": [{"elevationDegrees": r[0], "radiusMetres": r[1], "views": n, "azimuthOffsetDegrees": r[3]}
                  for r, n in zip(sc["rings"], counts)],
        "jitter": {"azimuthDegrees": 2.5, "elevationDegrees": 2.0, "distanceMetres": 0.03, "positionMetres": 0.02,
                   "aimMetres": 0.03, "yawPitchDegrees": 1.5, "rollDegrees": 3.0},
        "aimPoint": [0.0, sc["aim_y"], 0.0],
        "objectCentre": ((bb_min + bb_max) / 2).tolist(),
        "boundingBox": {"min": bb_min.tolist(), "max": bb_max.tolist()},
        "mesh": {"file": "mesh.ply", "vertices": int(len(truth_v)), "faces": int(len(truth_f)), "closed": closed,
                 "includes": sc["includes"], "area": float(mesh_area(truth_v, truth_f))},
        "render": {"integrator": "path", "spp": args.spp, "jpegQuality": quality, "exposure": exposure,
                   "noise": "Poisson (full well 1500 e- at white) + Gaussian read noise sigma 0.0025, linear",
                   "secondsPerImage": seconds, "renderSeconds": round(sum(seconds), 2),
                   "meanSecondsPerImage": round(float(np.mean(seconds)), 2)},
        "selfCheck": {"iouMin": min(ious) if ious else None, "iouMean": float(np.mean(ious)) if ious else None,
                      "iouPerImage": ious, "threshold": IOU_MIN,
                      "method": "truth mesh rasterised with the COLMAP poses vs Mitsuba's object-only mask (16 spp, box, >= 0.5)"},
        "images": [{"id": i + 1, "name": names[i], "ring": c["ring"], "qvec": c["q"].tolist(), "tvec": c["t"].tolist(),
                    "centre": (-c["R"].T @ c["t"]).tolist(), "azimuthDegrees": c["azimuth"], "elevationDegrees": c["elevation"],
                    "distanceMetres": c["distance"]} for i, c in enumerate(cams)],
    }
    write_text(os.path.join(truth, "scene.json"), json.dumps(scene_json, indent=1) + "\n")
    summary = {"type": "pt-capture", "scene": args.scene, "directory": out, "images": len(cams), "width": W, "height": H,
               "spp": args.spp, "seed": args.seed, "quality": quality, "focalLengthPixels": round(fx, 4),
               "renderSeconds": round(sum(seconds), 1), "meanSecondsPerImage": round(float(np.mean(seconds)), 2),
               "iouMin": round(min(ious), 4) if ious else None, "iouMean": round(float(np.mean(ious)), 4) if ious else None,
               "truthFaces": int(len(truth_f)), "truthClosed": closed, "totalSeconds": round(time.time() - started, 1)}
    if check_views:
        summary["check"] = [os.path.join(out, ".check", f"check_{v:04d}.png") for v in sorted(check_views)]
    print(json.dumps(summary), flush=True)


def mesh_area(v, f):
    return 0.5 * np.linalg.norm(np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]]), axis=1).sum()


def watertight(f):
    e = np.sort(np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]]), axis=1)
    _, counts = np.unique(e, axis=0, return_counts=True)
    return bool((counts == 2).all())


if __name__ == "__main__":
    main()
