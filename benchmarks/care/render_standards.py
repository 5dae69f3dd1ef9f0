#!/usr/bin/env python3
"""An independent care-label test set, drawn from the standards' own descriptions.

    python3 benchmarks/care/render_standards.py --out DIR [--seed N] [--singles N] [--labels N]
                                                [--negatives N] [--jobs N]

Writes, deterministically for a seed:
  DIR/singles/*.jpg|png    photo-like crops of one symbol (the symbol fills 50-85 % of the
  DIR/singles.jsonl        crop, 64-400 px); every one of the 62 codes equally often
                           {"path", "code", "family", "variant", "style"}
  DIR/labels/*.jpg         photos of whole care labels, ~1000 px wide, 2-7 symbols in one or
  DIR/labels.jsonl         two rows with text around them, half ISO 3758 style, half ASTM D5489
                           style {"path", "system", "style", "symbols": [{"code", "box": [x, y,
                           w, h], "variant"}]}, boxes in pixels of the saved image
  DIR/negatives/*.jpg      no care symbol: text-only labels, fabric, seams, logos, hang tags
  DIR/negatives.jsonl      {"path", "kind"}
  DIR/manifest.json        seed, counts, fonts, library versions, this file's sha256

This renderer shares no code with the tool's training renderer or with render_test.py: every
symbol is drawn here from the standards' descriptions (see README-standards.md for the sources
per family) with our own primitives: strokes are polygons (segment quads plus miter or round
joins), drawn 4x supersampled with Pillow's ImageDraw and box-downsampled. Only numpy, scipy and
Pillow are used, and fonts found under /usr/share/fonts (DejaVu, Liberation).

Coordinates of a symbol are in "units": the main shape (tub, triangle, square, iron, circle) is
1 unit wide, y grows downwards.
"""

import argparse
import hashlib
import json
import math
import os
import re
import sys
import time
from multiprocessing import Pool

import numpy as np
import scipy
from PIL import Image, ImageDraw, ImageFont, __version__ as PIL_VERSION
from scipy import ndimage

SS = 4  # supersampling factor of symbol drawing

# ---------------------------------------------------------------------------------------------
# Vocabulary (/work/shared/care-symbols.md: code and family, in its order)
# ---------------------------------------------------------------------------------------------
CODES = {
    "wash-95": "washing", "wash-70": "washing", "wash-60": "washing", "wash-60-mild": "washing",
    "wash-50": "washing", "wash-50-mild": "washing", "wash-40": "washing", "wash-40-mild": "washing",
    "wash-40-very-mild": "washing", "wash-30": "washing", "wash-30-mild": "washing",
    "wash-30-very-mild": "washing", "wash-hand": "washing", "wash-no": "washing",
    "wash-machine": "washing", "wring-no": "washing", "wash-hand-ambient": "washing",
    "wash-machine-permanent-press": "washing", "wash-machine-delicate": "washing",
    "bleach-any": "bleaching", "bleach-non-chlorine": "bleaching", "bleach-no": "bleaching",
    "bleach-chlorine": "bleaching",
    "tumble-normal": "drying", "tumble-low": "drying", "tumble-no": "drying", "tumble-any": "drying",
    "tumble-high": "drying", "tumble-no-heat": "drying", "tumble-permanent-press": "drying",
    "tumble-delicate": "drying", "dry-line": "drying", "dry-drip": "drying", "dry-flat": "drying",
    "dry-drip-flat": "drying", "dry-line-shade": "drying", "dry-drip-shade": "drying",
    "dry-flat-shade": "drying", "dry-drip-flat-shade": "drying", "dry-shade": "drying",
    "dry-no": "drying",
    "iron-low": "ironing", "iron-medium": "ironing", "iron-high": "ironing", "iron-no": "ironing",
    "iron-no-steam": "ironing", "iron-any": "ironing",
    "pro-p": "professional", "pro-p-mild": "professional", "pro-f": "professional",
    "pro-f-mild": "professional", "pro-no": "professional", "pro-w": "professional",
    "pro-w-mild": "professional", "pro-w-very-mild": "professional", "pro-w-no": "professional",
    "pro-a": "professional", "pro-any": "professional", "pro-short-cycle": "professional",
    "pro-reduced-moisture": "professional", "pro-low-heat": "professional",
    "pro-no-steam-finishing": "professional",
}
assert len(CODES) == 62

# ASTM D5489 (and ISO 3758 Annex for US labels): dots in the tub for the wash temperature
TUB_DOTS = {"30": 1, "40": 2, "50": 3, "60": 4, "70": 5, "95": 6}
# ASTM professional-care modifiers: a short line beside the circle, at a diagonal
TICKS = {"pro-short-cycle": "sw", "pro-reduced-moisture": "nw", "pro-no-steam-finishing": "ne",
         "pro-low-heat": "se"}

ISO, ASTM, BOTH = ("iso",), ("astm",), ("iso", "astm")


def variants(code):
    """The drawings of a code: [(tag, systems, weight)]. systems says on which labels (ISO or
    ASTM style) the drawing appears; weight is its share among the code's single crops."""
    m = re.fullmatch(r"wash-(\d+)(-mild|-very-mild)?", code)
    if m:  # ISO/GINETEX: the temperature as a number; ASTM: 1-6 dots
        return [("number", ISO, 2), ("number-deg", ISO, 1), ("dots", ASTM, 2)]
    table = {
        "wash-hand": [("hand", BOTH, 1)],
        # ISO 3758:2023: hand wash at ambient temperature = hand in tub with one bar;
        # ASTM: hand wash cold = hand in tub with one dot
        "wash-hand-ambient": [("hand-bar", ISO, 2), ("hand-1dot", ASTM, 1)],
        "wash-no": [("tub-x", BOTH, 1)],
        "wash-machine": [("tub-plain", ASTM, 1)],
        "wash-machine-permanent-press": [("tub-1bar", ASTM, 1)],
        "wash-machine-delicate": [("tub-2bars", ASTM, 1)],
        "wring-no": [("wring-x", ASTM, 1)],
        "bleach-any": [("triangle", BOTH, 1)],
        "bleach-non-chlorine": [("bleach-left", BOTH, 1), ("bleach-right", BOTH, 1)],
        "bleach-no": [("outline-x", ISO, 1), ("filled-x", ASTM, 1)],
        "bleach-chlorine": [("cl", ISO, 1)],
        "tumble-normal": [("2dots", BOTH, 1)],
        "tumble-low": [("1dot", BOTH, 1)],
        "tumble-no": [("x", BOTH, 1)],
        "tumble-any": [("empty-circle", ASTM, 1)],
        "tumble-high": [("3dots", ASTM, 1)],
        "tumble-no-heat": [("filled-circle", ASTM, 1)],
        "tumble-permanent-press": [("1bar", ASTM, 1)],
        "tumble-delicate": [("2bars", ASTM, 1)],
        "dry-line": [("line-vertical", ISO, 1), ("line-sag", ASTM, 1)],
        "dry-drip": [("drip-2lines", ISO, 1), ("drip-3lines", ASTM, 1)],
        "dry-flat": [("flat-1line", BOTH, 1)],
        "dry-drip-flat": [("flat-2lines", ISO, 1)],
        "dry-shade": [("shade-2lines", ASTM, 1)],
        "dry-no": [("square-x", ASTM, 1)],
        "iron-low": [("1dot", BOTH, 1)],
        "iron-medium": [("2dots", BOTH, 1)],
        "iron-high": [("3dots", BOTH, 1)],
        "iron-no": [("x", BOTH, 1)],
        "iron-no-steam": [("steam-x", BOTH, 1)],
        "iron-any": [("plain", ASTM, 1)],
        "pro-p": [("letter", BOTH, 1)],
        "pro-f": [("letter", BOTH, 1)],
        "pro-p-mild": [("letter-1bar", ISO, 1)],
        "pro-f-mild": [("letter-1bar", ISO, 1)],
        "pro-no": [("x", BOTH, 1)],
        "pro-w": [("letter", ISO, 1)],
        "pro-w-mild": [("letter-1bar", ISO, 1)],
        "pro-w-very-mild": [("letter-2bars", ISO, 1)],
        "pro-w-no": [("w-x", ISO, 1)],
        "pro-a": [("letter", ASTM, 1)],
        "pro-any": [("plain", ASTM, 1)],
    }
    if code in table:
        return table[code]
    if code.endswith("-shade"):  # ISO: ONE oblique line in the top-left corner; ASTM draws two
        return [("shade-1line", ISO, 2), ("shade-2lines", ASTM, 1)]
    if code in TICKS:
        return [("tick-" + TICKS[code], ASTM, 1)]
    raise KeyError(code)


# ---------------------------------------------------------------------------------------------
# Fonts (found on this machine; the manifest lists those used)
# ---------------------------------------------------------------------------------------------
FONT_NAMES = {
    "digits": ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf",
               "DejaVuSansCondensed-Bold.ttf", "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf",
               "LiberationSansNarrow-Regular.ttf", "LiberationSansNarrow-Bold.ttf",
               "LiberationSerif-Bold.ttf", "DejaVuSerif-Bold.ttf", "LiberationMono-Bold.ttf"],
    "letters": ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LiberationSans-Regular.ttf",
                "LiberationSans-Bold.ttf", "LiberationSansNarrow-Bold.ttf", "DejaVuSerif.ttf",
                "LiberationSerif-Regular.ttf", "DejaVuSansCondensed-Bold.ttf"],
    "text": ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf",
             "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "LiberationSansNarrow-Regular.ttf",
             "LiberationSansNarrow-Bold.ttf", "LiberationMono-Regular.ttf", "DejaVuSansMono.ttf",
             "LiberationSerif-Regular.ttf"],
}


def find_fonts():
    """{role: [path]} of the fonts above that exist under /usr/share/fonts."""
    found = {}
    for root, _, files in os.walk("/usr/share/fonts"):
        for f in files:
            found.setdefault(f, os.path.join(root, f))
    fonts = {role: [found[n] for n in names if n in found] for role, names in FONT_NAMES.items()}
    for role, paths in fonts.items():
        if not paths:
            sys.exit(f"render_standards.py: no {role} font found under /usr/share/fonts "
                     f"(wanted one of {', '.join(FONT_NAMES[role])}; Debian: fonts-dejavu-core)")
    return fonts


FONTS = None  # set in main() and inherited by the workers
_font_cache = {}


def font(path, size):
    key = (path, int(size))
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(path, max(4, int(size)))
    return _font_cache[key]


# ---------------------------------------------------------------------------------------------
# Geometry helpers (points are (x, y) tuples in units)
# ---------------------------------------------------------------------------------------------
def qbez(p0, p1, p2, n=16):
    """Points of a quadratic Bezier curve."""
    t = np.linspace(0, 1, n)[:, None]
    p0, p1, p2 = (np.asarray(p, float) for p in (p0, p1, p2))
    return [tuple(p) for p in (1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t ** 2 * p2]


def arc(c, r, a0, a1, n=24):
    """Points on a circle arc from angle a0 to a1 (radians; y down, so positive is clockwise)."""
    return [(c[0] + r * math.cos(a), c[1] + r * math.sin(a)) for a in np.linspace(a0, a1, n)]


def rounded(pts, r, closed=True):
    """A polyline with its corners replaced by short Bezier fillets of size about r."""
    if r <= 0 or len(pts) < 3:
        return list(pts)
    out = []
    n = len(pts)
    idx = range(n) if closed else range(1, n - 1)
    if not closed:
        out.append(pts[0])
    for i in idx:
        p, a, b = np.array(pts[i]), np.array(pts[i - 1]), np.array(pts[(i + 1) % n])
        da, db = np.linalg.norm(a - p), np.linalg.norm(b - p)
        d = min(r, da * 0.45, db * 0.45)
        pa, pb = p + (a - p) / da * d, p + (b - p) / db * d
        out.extend(qbez(pa, p, pb, 8))
    if not closed:
        out.append(pts[-1])
    return out


def seg_point(a, b, t):
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def shorten(a, b, da, db=None):
    """Segment a-b with da cut off at a and db at b (units)."""
    db = da if db is None else db
    L = math.hypot(b[0] - a[0], b[1] - a[1])
    if L <= da + db:
        return a, b
    return seg_point(a, b, da / L), seg_point(a, b, 1 - db / L)


def stroke_polygons(pts, hw, closed=False, join="miter", cap="butt"):
    """A stroke of half-width hw along pts as polygons and discs: one quad per segment and, at
    each inner vertex, the miter wedge on both sides (the inner one lies under the quads), or a
    disc for round joins; caps butt, square or round."""
    p = [np.asarray(q, float) for q in pts]
    p = [q for i, q in enumerate(p) if i == 0 or np.linalg.norm(q - p[i - 1]) > 1e-9]
    if closed and len(p) > 2 and np.linalg.norm(p[0] - p[-1]) < 1e-9:
        p.pop()
    polys, discs = [], []
    n = len(p)
    if n < 2:
        return polys, [(tuple(p[0]), hw)] if p else []
    nseg = n if closed else n - 1
    for i in range(nseg):
        a, b = p[i], p[(i + 1) % n]
        t = (b - a) / np.linalg.norm(b - a)
        nr = np.array([-t[1], t[0]]) * hw
        if not closed and cap == "square":
            if i == 0:
                a = a - t * hw
            if i == nseg - 1:
                b = b + t * hw
        polys.append([a + nr, b + nr, b - nr, a - nr])
    verts = range(n) if closed else range(1, n - 1)
    for i in verts:
        v, a, b = p[i], p[i - 1], p[(i + 1) % n]
        if join == "round":
            discs.append((tuple(v), hw))
            continue
        t1, t2 = (v - a) / np.linalg.norm(v - a), (b - v) / np.linalg.norm(b - v)
        n1, n2 = np.array([-t1[1], t1[0]]), np.array([-t2[1], t2[0]])
        k = 1 + float(n1 @ n2)
        for s in (1, -1):
            if k > 0.12:  # miter; beyond the limit a bevel
                m = v + s * hw * (n1 + n2) / k
                polys.append([v, v + s * hw * n1, m, v + s * hw * n2])
            else:
                polys.append([v, v + s * hw * n1, v + s * hw * n2])
    if not closed and cap == "round":
        discs += [(tuple(p[0]), hw), (tuple(p[-1]), hw)]
    return [[tuple(q) for q in poly] for poly in polys], discs


# ---------------------------------------------------------------------------------------------
# A symbol: recorded drawing operations in units, rendered to a coverage mask
# ---------------------------------------------------------------------------------------------
class Sym:
    """Operations: ("stroke", pts, w, closed, join, cap), ("poly", pts), ("disc", c, r),
    ("ring", c, r, w), ("text", s, font, cx, cy, h, maxw), ("erase", op),
    ("knockout", base_ops, cut_ops): base XOR cut, e.g. a filled triangle with a cross that is
    white inside the triangle and ink outside; ("hand", params): a hand silhouette that hides
    what is under it, drawn filled or as an outline."""

    def __init__(self):
        self.ops = []
        self.lo = [math.inf, math.inf]
        self.hi = [-math.inf, -math.inf]

    def _ext(self, pts, pad=0.0):
        for x, y in pts:
            self.lo = [min(self.lo[0], x - pad), min(self.lo[1], y - pad)]
            self.hi = [max(self.hi[0], x + pad), max(self.hi[1], y + pad)]

    def stroke(self, pts, w, closed=False, join="miter", cap="butt"):
        self._ext(pts, w / 2)
        self.ops.append(("stroke", list(pts), w, closed, join, cap))

    def line(self, a, b, w, cap="butt"):
        self.stroke([a, b], w, cap=cap)

    def poly(self, pts):
        self._ext(pts)
        self.ops.append(("poly", list(pts)))

    def disc(self, c, r):
        self._ext([c], r)
        self.ops.append(("disc", c, r))

    def ring(self, c, r, w):
        self._ext([c], r + w / 2)
        self.ops.append(("ring", c, r, w))

    def text(self, s, path, cx, cy, h, maxw):
        self._ext([(cx - maxw / 2, cy - h * 0.75), (cx + maxw / 2, cy + h * 0.75)])
        self.ops.append(("text", s, path, cx, cy, h, maxw))

    def erase(self, op):
        self.ops.append(("erase", op))

    def knockout(self, base, cut):
        self.ops.append(("knockout", base, cut))

    def hand(self, params):
        self._ext(params["extent"])
        self.ops.append(("hand", params))


def _draw_op(op, draw, tf, s):
    """Draw one plain operation (fill 255) on an ImageDraw with transform tf(units)->px."""
    kind = op[0]
    if kind == "stroke":
        _, pts, w, closed, join, cap = op
        polys, discs = stroke_polygons(pts, w / 2, closed, join, cap)
        for poly in polys:
            draw.polygon([tf(q) for q in poly], fill=255)
        for c, r in discs:
            x, y = tf(c)
            draw.ellipse([x - r * s, y - r * s, x + r * s, y + r * s], fill=255)
    elif kind == "poly":
        draw.polygon([tf(q) for q in op[1]], fill=255)
    elif kind == "disc":
        x, y = tf(op[1])
        r = op[2] * s
        draw.ellipse([x - r, y - r, x + r, y + r], fill=255)
    elif kind == "text":
        _, txt, path, cx, cy, h, maxw = op
        f = font(path, 200)
        x0, y0, x1, y1 = f.getbbox(txt)
        size = 200 * h * s / max(1, y1 - y0)
        size = min(size, 200 * maxw * s / max(1, x1 - x0))
        f = font(path, size)
        x0, y0, x1, y1 = f.getbbox(txt)
        X, Y = tf((cx, cy))
        draw.text((X - (x0 + x1) / 2, Y - (y0 + y1) / 2), txt, font=f, fill=255)
    else:
        raise ValueError(kind)


def render_sym(sym, px_per_unit, pad_px=2):
    """Coverage mask (float32, 0-1) of a symbol at px_per_unit, with pad_px around its bounds,
    and the pixel position of the unit origin."""
    s = px_per_unit * SS
    lo, hi = sym.lo, sym.hi
    W = int(math.ceil((hi[0] - lo[0]) * px_per_unit + 2 * pad_px)) * SS
    H = int(math.ceil((hi[1] - lo[1]) * px_per_unit + 2 * pad_px)) * SS
    ox, oy = pad_px * SS - lo[0] * s, pad_px * SS - lo[1] * s

    def tf(q):
        return (q[0] * s + ox, q[1] * s + oy)

    def layer(ops):
        img = Image.new("L", (W, H), 0)
        d = ImageDraw.Draw(img)
        for op in ops:
            if op[0] == "ring":
                _, c, r, w = op
                x, y = tf(c)
                ro, ri = (r + w / 2) * s, (r - w / 2) * s
                d.ellipse([x - ro, y - ro, x + ro, y + ro], fill=255)
                if ri > 0:
                    d.ellipse([x - ri, y - ri, x + ri, y + ri], fill=0)
            else:
                _draw_op(op, d, tf, s)
        return np.asarray(img, np.float32) / 255.0

    acc = np.zeros((H, W), np.float32)
    for op in sym.ops:
        if op[0] == "erase":
            acc = np.minimum(acc, 1 - layer([op[1]]))
        elif op[0] == "knockout":
            a, b = layer(op[1]), layer(op[2])
            acc = np.maximum(acc, np.clip(a * (1 - b) + b * (1 - a), 0, 1))
        elif op[0] == "hand":
            acc = _draw_hand(acc, op[1], tf, s, W, H)
        else:
            acc = np.maximum(acc, layer([op]))
    img = Image.fromarray(acc, "F").resize((W // SS, H // SS), Image.BOX)
    return np.clip(np.asarray(img, np.float32), 0, 1), (ox / SS, oy / SS)


def _draw_hand(acc, hp, tf, s, W, H):
    """A hand silhouette (palm, four fingers, thumb, wrist) built from capsules; what lies under
    it (and a small gap around it) is hidden; drawn filled or as an outline of width lw."""
    img = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(img)
    for a, b, r in hp["capsules"]:
        _draw_op(("stroke", [a, b], 2 * r, False, "round", "round"), d, tf, s)
    for poly in hp["polys"]:
        _draw_op(("poly", poly), d, tf, s)
    F = np.asarray(img) > 127
    gap = hp["gap"] * s
    outside = ndimage.distance_transform_edt(~F)
    acc = np.where(outside <= gap, 0.0, acc).astype(np.float32)
    if hp["filled"]:
        ink = F
    else:
        inside = ndimage.distance_transform_edt(F)
        ink = F & (inside <= hp["lw"] * s)
    return np.maximum(acc, ink.astype(np.float32))


# ---------------------------------------------------------------------------------------------
# Symbol style: the free parameters of a drawing (stroke, corners, fonts, proportions)
# ---------------------------------------------------------------------------------------------
def random_style(rng, system):
    """Drawing parameters; "heavy" labels print thick strokes, fine ones thin."""
    weight = rng.choice(["thin", "regular", "heavy"], p=[0.25, 0.5, 0.25])
    lw = {"thin": rng.uniform(0.03, 0.045), "regular": rng.uniform(0.045, 0.07),
          "heavy": rng.uniform(0.07, 0.105)}[weight]
    round_corners = rng.random() < 0.4
    return {
        "system": system,
        "weight": str(weight),
        "lw": float(lw),
        "join": "round" if round_corners or rng.random() < 0.3 else "miter",
        "cap": str(rng.choice(["butt", "round", "square"])),
        "corner": float(rng.uniform(0.06, 0.16)) if round_corners else 0.0,
        "digits": str(rng.choice(FONTS["digits"])),
        "letters": str(rng.choice(FONTS["letters"])),
        "dot_r": float(rng.uniform(0.04, 0.062)),
        "x_ext": float(rng.uniform(-0.04, 0.07)),
        "x_lw": float(lw * rng.uniform(0.85, 1.25)),
        "bar_lw": float(lw * rng.uniform(0.9, 1.4)),
        "bar_gap": float(rng.uniform(0.06, 0.11)),
        "bar_inset": float(rng.uniform(0.0, 0.12)),
        # tub (ISO: trapezoid narrowing downwards with a wavy water line near the top)
        "tub_h": float(rng.uniform(0.6, 0.78)),
        "tub_taper": float(rng.uniform(0.07, 0.16)),
        "tub_top": str(rng.choice(["open", "open", "wave"])),
        "wave_y": float(rng.uniform(0.17, 0.27)),
        "wave_amp": float(rng.uniform(0.025, 0.05)),
        "wave_n": float(rng.choice([2, 2.5, 3, 3.5])),
        "wave_kind": str(rng.choice(["sine", "humps"])),
        "hand_filled": bool(rng.random() < 0.35),
        "hand_angle": float(rng.uniform(40, 58)),
        # tumble circle, natural-drying lines
        "circle_r": float(rng.uniform(0.32, 0.41)),
        "dots3": str(rng.choice(["row", "row", "triangle"])),
        "line_gap": float(rng.choice([0.0, 0.0, rng.uniform(0.08, 0.16)])),
        "shade_a": float(rng.uniform(0.2, 0.27)),
        "sag": float(rng.uniform(0.28, 0.42)),
        # triangle lines (non-chlorine)
        "tri_b": float(rng.uniform(0.3, 0.4)),
        "tri_db": float(rng.uniform(0.17, 0.24)),
        "tri_touch": bool(rng.random() < 0.6),
        # iron
        "iron_front": float(rng.uniform(0.26, 0.4)),
        "iron_top": float(rng.uniform(0.26, 0.34)),
        "iron_h": float(rng.uniform(0.62, 0.72)),
        "iron_handle": str(rng.choice(["angular", "rounded", "arched"])),
        "steam_n": int(rng.choice([2, 3, 3])),
        "letter_h": float(rng.uniform(0.42, 0.56)),
        "cl": str(rng.choice(["Cl", "CL"])),
        "tick_len": float(rng.uniform(0.24, 0.36)),
    }


# ---------------------------------------------------------------------------------------------
# Symbol families
# ---------------------------------------------------------------------------------------------
def add_bars(S, k, x0, x1, y, st):
    """k bars under a symbol whose bottom is at y (mild: one bar, very mild: two)."""
    for i in range(k):
        yy = y + st["bar_gap"] + st["bar_lw"] / 2 + i * (st["bar_gap"] + st["bar_lw"])
        S.line((x0, yy), (x1, yy), st["bar_lw"], cap=st["cap"] if st["cap"] != "square" else "butt")


def add_cross(S, x0, y0, x1, y1, st):
    e = st["x_ext"]
    S.line((x0 - e, y0 - e), (x1 + e, y1 + e), st["x_lw"], cap=st["cap"])
    S.line((x1 + e, y0 - e), (x0 - e, y1 + e), st["x_lw"], cap=st["cap"])


def dot_positions(n, cx, cy, sp, layout="row"):
    """Centres of n dots (1-6) around (cx, cy), spacing sp: rows of up to 3."""
    if n <= 3 and (n < 3 or layout == "row"):
        return [(cx + (i - (n - 1) / 2) * sp, cy) for i in range(n)]
    if n == 3:  # triangle
        return [(cx - sp / 2, cy + sp * 0.43), (cx + sp / 2, cy + sp * 0.43), (cx, cy - sp * 0.43)]
    rows = {4: [2, 2], 5: [3, 2], 6: [3, 3]}[n]
    out = []
    for r, k in enumerate(rows):
        y = cy + (r - 0.5) * sp
        out += [(cx + (i - (k - 1) / 2) * sp, y) for i in range(k)]
    return out


def tub(S, st, content=None, bars=0, cross=False):
    """ISO 3758 / ASTM washtub: sides narrowing downwards, flat bottom, a wavy water line near
    the top (the sides may rise above it, open at the top)."""
    h, tp, lw = st["tub_h"], st["tub_taper"], st["lw"]
    wy = st["wave_y"] * h / 0.7
    # sides pass through (0, 0)-(tp, h) and (1, 0)-(1 - tp, h)
    side_x = lambda y: tp * y / h  # noqa: E731
    top = 0.0 if st["tub_top"] == "open" else wy
    # the wave: from side to side at height wy
    xa, xb = side_x(wy), 1 - side_x(wy)
    n, amp = st["wave_n"], st["wave_amp"]
    xs = np.linspace(xa, xb, 80)
    ph = (xs - xa) / (xb - xa) * n * 2 * math.pi
    if st["wave_kind"] == "sine":
        ys = wy - amp * np.sin(ph)
    else:  # a row of humps (arcs)
        ys = wy - amp * 1.4 * np.abs(np.sin(ph / 2)) + amp * 0.4
    S.stroke(list(zip(xs, ys)), lw, join="round")
    water_c = (0.5, (wy + h) / 2 + 0.03)
    if content:
        kind = content[0]
        if kind == "number":
            txt = content[1] + ("°" if content[2] else "")
            S.text(txt, st["digits"], water_c[0], water_c[1], 0.27 * h / 0.7,
                   (1 - 2 * tp) * (0.82 if content[2] else 0.72))
        elif kind == "dots":
            k = content[1]
            sp = 0.15 if k > 3 else 0.17
            r = st["dot_r"] * (0.9 if k > 3 else 1.0)
            for c in dot_positions(k, water_c[0], water_c[1], sp, st["dots3"]):
                S.disc(c, r)
        elif kind == "hand":
            hand(S, st, wy, content[1])
    outline = [(side_x(top), top), (tp, h), (1 - tp, h), (1 - side_x(top), top)]
    S.stroke(rounded(outline, st["corner"] * 0.6, closed=False), lw, join=st["join"], cap="butt")
    if bars:
        i = st["bar_inset"] * tp / 0.12
        add_bars(S, bars, i, 1 - i, h + lw / 2, st)
    if cross:
        add_cross(S, 0.02, top if top > 0 else -0.02, 0.98, h + 0.02, st)


def hand(S, st, wy, extra):
    """A hand reaching into the tub from the upper right, fingers in the water; extra: a dot
    (ASTM cold) in the water left of the fingers."""
    th = math.radians(st["hand_angle"])
    R = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]])
    sc = 1.3
    origin = np.array([0.58, wy + 0.04])

    def T(p):
        return tuple(origin + R @ (np.asarray(p) * sc))

    caps = []
    for i, x in enumerate((-0.075, -0.025, 0.025, 0.075)):  # fingers, the middle ones longer
        L = (0.15, 0.19, 0.18, 0.14)[i]
        caps.append((T((x, 0.05)), T((x, 0.05 + L)), 0.027))
    caps.append((T((-0.1, -0.03)), T((-0.19, 0.06)), 0.028))  # thumb
    palm = [T(p) for p in [(-0.105, -0.07), (0.105, -0.07), (0.105, 0.07), (-0.105, 0.07)]]
    wrist = [T(p) for p in [(-0.08, -0.06), (0.08, -0.06), (0.075, -0.2), (-0.075, -0.2)]]
    pts = [q for c in caps for q in c[:2]] + palm + wrist
    ext = [(x, y) for x, y in pts]
    S.hand({"capsules": caps, "polys": [palm, wrist], "filled": st["hand_filled"],
            "lw": st["lw"] * 0.8, "gap": st["lw"] * 0.7,
            "extent": [(min(x for x, _ in ext) - 0.04, min(y for _, y in ext) - 0.04),
                       (max(x for x, _ in ext) + 0.04, max(y for _, y in ext) + 0.04)]})
    if extra == "dot":
        S.disc((0.22, st["tub_h"] - 0.13), st["dot_r"])


def triangle(S, st, content=None, cross=None):
    """Equilateral triangle standing on its base (ISO 3758 / ASTM bleaching)."""
    h = math.sqrt(3) / 2
    lw = st["lw"]
    A, B, C = (0.5, 0.0), (0.0, h), (1.0, h)
    outline = rounded([A, B, C], st["corner"] * 0.8)
    if cross == "filled":  # ASTM do not bleach: solid triangle, the cross white inside it
        e = st["x_ext"] + 0.05
        cut = [("stroke", [(0.08 - e, 0.12 - e), (0.92 + e, h + e)], st["x_lw"], False, "miter", "butt"),
               ("stroke", [(0.92 + e, 0.12 - e), (0.08 - e, h + e)], st["x_lw"], False, "miter", "butt")]
        S._ext([(0.08 - e, 0.12 - e), (0.92 + e, h + e)], st["x_lw"])
        S._ext(outline, lw / 2)
        S.knockout([("stroke", outline, lw, True, st["join"], "butt"), ("poly", outline)], cut)
        return
    S.stroke(outline, lw, closed=True, join=st["join"])
    if content == "cl":
        S.text(st["cl"], st["letters"], 0.5, h * 0.64, 0.24, 0.42)
    elif content in ("left", "right"):
        # two oblique lines parallel to the left side (ISO figure) or the right one (labels):
        # from the base to the opposite side
        g = 0.0 if st["tri_touch"] else lw * 1.6
        for b in (st["tri_b"], st["tri_b"] + st["tri_db"]):
            a, c = (b, h), ((1 + b) / 2, h * b)
            if content == "right":
                a, c = (1 - a[0], a[1]), (1 - c[0], c[1])
            a, c = shorten(a, c, lw / 2 + g)
            S.line(a, c, lw * 0.9)
    if cross == "outline":
        add_cross(S, 0.06, 0.1, 0.94, h + 0.02, st)


def square(S, st, content, bars=0, cross=False, shade=0):
    """Square for drying: a circle inside for tumble drying (dots for heat, filled for no heat);
    lines for natural drying (vertical: line, horizontal: flat, two: drip (ISO), three: drip
    (ASTM), a sag from the top corners: line (ASTM)); oblique lines in the top-left corner for
    shade (ISO one, ASTM two)."""
    lw = st["lw"]
    S.stroke(rounded([(0, 0), (1, 0), (1, 1), (0, 1)], st["corner"]), lw, closed=True, join=st["join"])
    kind = content[0] if content else None
    g = st["line_gap"]
    if kind == "circle":
        r = st["circle_r"]
        if content[1] == "filled":
            S.disc((0.5, 0.5), r + lw / 2)
        else:
            S.ring((0.5, 0.5), r, lw)
            if content[1]:
                for c in dot_positions(content[1], 0.5, 0.5, min(0.2, r * 0.55), st["dots3"]):
                    S.disc(c, st["dot_r"] * (1.1 if content[1] == 3 else 1.3))
    elif kind == "vertical":
        xs = {1: [0.5], 2: [0.42, 0.58], 3: [0.34, 0.5, 0.66]}[content[1]]
        for x in xs:
            S.line((x, lw / 2 + g), (x, 1 - lw / 2 - g), lw, cap="butt")
    elif kind == "horizontal":
        ys = {1: [0.5], 2: [0.42, 0.58]}[content[1]]
        for y in ys:
            S.line((lw / 2 + g, y), (1 - lw / 2 - g, y), lw, cap="butt")
    elif kind == "sag":
        d = st["corner"] * 0.6
        S.stroke(qbez((d + lw / 2, d + lw / 2), (0.5, 2 * st["sag"]), (1 - d - lw / 2, d + lw / 2), 24),
                 lw, join="round")
    if shade:
        a = st["shade_a"]
        for k in range(shade):
            aa = a + k * 0.12
            S.line((lw / 2, aa), (aa, lw / 2), lw * 0.9, cap="butt")
    if bars:
        add_bars(S, bars, st["bar_inset"], 1 - st["bar_inset"], 1 + lw / 2, st)
    if cross:
        add_cross(S, 0.0, 0.0, 1.0, 1.0, st)


def iron(S, st, dots=0, cross=False, steam_x=False):
    """Hand iron pointing left: flat sole plate, front curving up to the top, vertical heel,
    handle above (ISO 3758 / ASTM); 1-3 dots for the temperature."""
    lw = st["lw"]
    hb, ht, xf = st["iron_h"], st["iron_top"], st["iron_front"]
    body = [(1.0, hb), (1.0, ht + 0.02)] + qbez((1.0, ht), (1.0, ht), (0.96, ht), 3)[1:]
    body += [(xf, ht)] + qbez((xf, ht), (0.06, ht + 0.06), (0.0, hb), 14)[1:]
    S.stroke(rounded(body, st["corner"] * 0.5), lw, closed=True, join=st["join"])
    hr, ytop = 0.86, 0.03
    hf = xf + 0.12
    kind = st["iron_handle"]
    if kind == "angular":
        handle = [(hr, ht), (hr, ytop), (hf + 0.1, ytop), (hf, ht)]
    elif kind == "rounded":
        handle = rounded([(hr, ht), (hr, ytop), (hf + 0.06, ytop), (hf, ht)], 0.1, closed=False)
    else:
        handle = qbez((hr, ht), (hr - 0.02, ytop - 0.05), (hf + 0.2, ytop), 12) + \
            qbez((hf + 0.2, ytop), (hf + 0.02, ytop), (hf, ht), 10)[1:]
    S.stroke(handle, lw, join=st["join"])
    if dots:
        cx = (xf + 1.0) / 2 + 0.04
        cy = (ht + hb) / 2 + 0.02
        for c in dot_positions(dots, cx, cy, 0.17, "row"):
            S.disc(c, st["dot_r"])
    if steam_x:  # steam lines under the sole, crossed out
        n = st["steam_n"]
        xs = np.linspace(0.3, 0.72, n)
        for x in xs:
            S.line((x, hb + 0.08), (x - 0.07, hb + 0.25), lw * 0.85, cap="round")
        e = 0.02
        S.line((0.12 - e, hb + 0.03), (0.84 + e, hb + 0.31), st["x_lw"], cap=st["cap"])
        S.line((0.84 + e, hb + 0.03), (0.12 - e, hb + 0.31), st["x_lw"], cap=st["cap"])
    if cross:
        add_cross(S, 0.02, 0.02, 0.98, hb + 0.02, st)


def circle(S, st, letter=None, bars=0, cross=False, tick=None):
    """Professional care: a circle, with the solvent letter (P, F, W, A), bars under it for mild
    and very mild processes; ASTM modifiers as a short line beside the circle at a diagonal."""
    lw = st["lw"]
    r = 0.5 - lw / 2
    S.ring((0.5, 0.5), r, lw)
    if letter:
        S.text(letter, st["letters"], 0.5, 0.5, st["letter_h"] * (0.92 if letter == "W" else 1.0), 0.62)
    if bars:
        add_bars(S, bars, 0.08 + st["bar_inset"], 0.92 - st["bar_inset"], 1.0, st)
    if cross:
        add_cross(S, 0.06, 0.06, 0.94, 0.94, st)
    if tick:
        dx, dy = {"ne": (1, -1), "nw": (-1, -1), "se": (1, 1), "sw": (-1, 1)}[tick]
        u = np.array([dx, dy]) / math.sqrt(2)
        c = np.array([0.5, 0.5]) + u * (0.5 + lw * 1.3)
        t = np.array([-u[1], u[0]]) * st["tick_len"] / 2
        S.line(tuple(c - t), tuple(c + t), lw, cap="butt")


def wring(S, st):
    """ASTM do not wring: a twisted cloth, two lobes narrowing to a knot in the middle (a bow
    tie), oblique twist lines across the lobes; crossed out."""
    lw = st["lw"]
    cy, H, k = 0.3, 0.15, 0.055  # centre line, half-height at the ends, half-height at the knot
    for side in (-1, 1):
        def X(x):
            return 0.5 + side * x
        top = qbez((X(0.46), cy - H), (X(0.25), cy - k * 0.6), (X(0.06), cy - k))
        bot = qbez((X(0.06), cy + k), (X(0.25), cy + k * 0.6), (X(0.46), cy + H))
        S.stroke(top + bot, lw, closed=True, join=st["join"])
        for t in (0.17, 0.29, 0.41):  # twist lines, slanted
            S.line((X(t - 0.035), cy + H * (0.25 + t) * 0.95), (X(t + 0.035), cy - H * (0.25 + t) * 0.95),
                   lw * 0.75)
    S.disc((0.5, cy), k * 1.2)
    add_cross(S, 0.14, cy - 0.36, 0.86, cy + 0.36, st)


def build(code, variant, st):
    """The Sym of a code drawn as variant with style st."""
    S = Sym()
    m = re.fullmatch(r"wash-(\d+)(-mild|-very-mild)?", code)
    if m:
        bars = {None: 0, "-mild": 1, "-very-mild": 2}[m.group(2)]
        if variant == "dots":
            tub(S, st, ("dots", TUB_DOTS[m.group(1)]), bars)
        else:
            tub(S, st, ("number", m.group(1), variant == "number-deg"), bars)
    elif code == "wash-hand":
        tub(S, st, ("hand", None))
    elif code == "wash-hand-ambient":
        if variant == "hand-bar":
            tub(S, st, ("hand", None), bars=1)
        else:
            tub(S, st, ("hand", "dot"))
    elif code == "wash-no":
        tub(S, st, None, cross=True)
    elif code == "wash-machine":
        tub(S, st)
    elif code == "wash-machine-permanent-press":
        tub(S, st, bars=1)
    elif code == "wash-machine-delicate":
        tub(S, st, bars=2)
    elif code == "wring-no":
        wring(S, st)
    elif code.startswith("bleach-"):
        if code == "bleach-any":
            triangle(S, st)
        elif code == "bleach-non-chlorine":
            triangle(S, st, "left" if variant == "bleach-left" else "right")
        elif code == "bleach-no":
            triangle(S, st, cross="filled" if variant == "filled-x" else "outline")
        else:
            triangle(S, st, "cl")
    elif code.startswith("tumble-"):
        sub = code[7:]
        content = {"normal": ("circle", 2), "low": ("circle", 1), "high": ("circle", 3),
                   "no": ("circle", 0), "any": ("circle", 0), "no-heat": ("circle", "filled"),
                   "permanent-press": ("circle", 0), "delicate": ("circle", 0)}[sub]
        bars = {"permanent-press": 1, "delicate": 2}.get(sub, 0)
        square(S, st, content, bars=bars, cross=sub == "no")
    elif code == "dry-no":
        square(S, st, None, cross=True)
    elif code == "dry-shade":
        square(S, st, None, shade=2)
    elif code.startswith("dry-"):
        base = code[4:].replace("-shade", "")
        content = {"line": ("vertical", 1), "drip": ("vertical", 2), "flat": ("horizontal", 1),
                   "drip-flat": ("horizontal", 2)}[base]
        if variant == "line-sag":
            content = ("sag",)
        elif variant == "drip-3lines":
            content = ("vertical", 3)
        shade = {"shade-1line": 1, "shade-2lines": 2}.get(variant, 0)
        square(S, st, content, shade=shade)
    elif code.startswith("iron-"):
        sub = code[5:]
        iron(S, st, dots={"low": 1, "medium": 2, "high": 3}.get(sub, 0), cross=sub == "no",
             steam_x=sub == "no-steam")
    elif code.startswith("pro-"):
        sub = code[4:]
        letter = {"p": "P", "f": "F", "w": "W", "a": "A"}.get(sub.split("-")[0])
        if code in TICKS:
            circle(S, st, tick=TICKS[code])
        elif sub in ("any", "no"):
            circle(S, st, cross=sub == "no")
        else:
            bars = 2 if sub.endswith("very-mild") else 1 if sub.endswith("mild") else 0
            circle(S, st, letter, bars=bars, cross=sub.endswith("-no"))
    else:
        raise KeyError(code)
    return S


# ---------------------------------------------------------------------------------------------
# Fabrics and inks
# ---------------------------------------------------------------------------------------------
FABRICS = ("woven", "satin", "printed-cotton", "nylon-tape", "paper")
INKS = {"black": (22, 22, 26), "navy": (28, 38, 86), "grey-faded": (105, 105, 112)}


def smooth_noise(rng, H, W, cells, amp=1.0):
    """Low-frequency noise: a coarse random grid upsampled bicubically, -amp..amp."""
    gh, gw = max(2, int(H / cells) + 2), max(2, int(W / cells) + 2)
    g = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return amp * np.asarray(Image.fromarray(g, "F").resize((W, H), Image.BICUBIC), np.float32)


def fabric_texture(rng, kind, H, W):
    """(brightness multiplier HxW around 1, thread pattern 0-1 or None, thread pitch) of a label
    fabric: a woven label shows warp and weft, satin a sheen across it, printed cotton a fine
    plain weave, nylon tape fine ribs, paper a faint mottle."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    pitch = None
    pattern = None
    if kind == "woven":
        pitch = rng.uniform(2.6, 5.0)
        row = np.floor(y / pitch)
        twill = rng.random() < 0.5
        phase = (row * (0.5 if twill else 1.0)) * math.pi
        pattern = 0.5 + 0.5 * np.cos(2 * math.pi * x / pitch + phase)
        pattern *= 0.75 + 0.25 * np.cos(2 * math.pi * y / pitch) ** 2
        rowshade = rng.normal(0, 0.025, int(H / pitch) + 2)[row.astype(int)]
        tex = 1 + rng.uniform(0.06, 0.12) * (pattern - 0.5) + rowshade
        tex = ndimage.gaussian_filter(tex, 0.5)
    elif kind == "satin":
        streak = ndimage.gaussian_filter1d(rng.normal(0, 1, (H, W // 8 + 2)).astype(np.float32), 0.6, axis=0)
        streak = np.asarray(Image.fromarray(streak, "F").resize((W, H), Image.BILINEAR))
        a = rng.uniform(0, math.pi)
        d = (x * math.cos(a) + y * math.sin(a)) / max(H, W)
        c = rng.uniform(0.2, 0.8)
        sheen = np.exp(-((d - c) / rng.uniform(0.08, 0.25)) ** 2)
        tex = 0.93 + rng.uniform(0.1, 0.22) * sheen + 0.015 * streak
    elif kind == "printed-cotton":
        p = rng.uniform(1.8, 2.6)
        weave = np.cos(2 * math.pi * x / p) * np.cos(2 * math.pi * y / p)
        tex = 1 + 0.03 * weave + rng.normal(0, 0.025, (H, W)) + smooth_noise(rng, H, W, 60, 0.03)
        tex = ndimage.gaussian_filter(tex, 0.6)
    elif kind == "nylon-tape":
        p = rng.uniform(1.8, 3.2)
        tex = 1 + 0.05 * np.cos(2 * math.pi * y / p) + smooth_noise(rng, H, W, 90, 0.04)
        tex += 0.08 * np.exp(-((x / W - rng.uniform(0.2, 0.8)) / 0.2) ** 2)
    else:  # paper
        tex = 1 + smooth_noise(rng, H, W, 25, 0.02) + rng.normal(0, 0.015, (H, W))
        tex = ndimage.gaussian_filter(tex, 0.7)
    return tex.astype(np.float32), pattern, pitch


def label_colors(rng, fabric):
    """Label colour and ink: mostly light labels (white, cream, light grey) with black, navy or
    faded grey print; some dark satin labels printed white."""
    if fabric == "satin" and rng.random() < 0.2 or rng.random() < 0.02:
        base = np.array(rng.choice([(30, 30, 34), (40, 38, 60), (70, 20, 30)]), np.float32)
        return base + rng.uniform(-6, 6, 3), np.array((236, 234, 228), np.float32), "white-on-dark"
    base = np.array(rng.choice([(246, 245, 240), (240, 234, 218), (228, 228, 226), (250, 250, 250),
                                (235, 229, 210)]), np.float32) + rng.uniform(-8, 5, 3)
    ink = str(rng.choice(list(INKS), p=[0.55, 0.25, 0.2]))
    return base, np.array(INKS[ink], np.float32) + rng.uniform(-8, 8, 3), ink


def apply_ink(rng, base_rgb, tex, mask, ink_rgb, ink_name, fabric, pattern, pitch):
    """Colour of the label with the ink mask printed (or woven) on it."""
    a = mask.copy()
    if fabric == "woven":  # woven in: coverage follows the threads, edges step with the pitch
        small = np.asarray(Image.fromarray(a, "F").resize(
            (max(1, int(a.shape[1] / pitch)), max(1, int(a.shape[0] / pitch))), Image.BOX))
        blocky = np.asarray(Image.fromarray(small, "F").resize((a.shape[1], a.shape[0]), Image.NEAREST))
        a = 0.55 * a + 0.45 * blocky
        a = a * (0.8 + 0.2 * pattern)
    elif fabric in ("printed-cotton", "nylon-tape"):  # ink bleeds a little into the fibres
        a = ndimage.gaussian_filter(a, rng.uniform(0.3, 0.9))
    opacity = {"black": 0.96, "navy": 0.94, "grey-faded": 0.72, "white-on-dark": 0.92}[ink_name]
    if ink_name == "grey-faded" or rng.random() < 0.3:  # worn print: blotchy coverage
        worn = 1 - np.clip(smooth_noise(rng, *a.shape, rng.uniform(4, 14), 0.5) + 0.1, 0, 0.45)
        a = a * worn
    a = np.clip(a * opacity, 0, 1)[..., None]
    img = base_rgb[None, None, :] * tex[..., None]
    ink = ink_rgb[None, None, :] * (0.9 + 0.1 * tex[..., None])
    return img * (1 - a) + ink * a


# ---------------------------------------------------------------------------------------------
# Text on labels
# ---------------------------------------------------------------------------------------------
FIBRES = [("COTTON", "COTON", "BAUMWOLLE", "ALGODÓN", "COTONE"),
          ("POLYESTER", "POLYESTER", "POLYESTER", "POLIÉSTER", "POLIESTERE"),
          ("VISCOSE", "VISCOSE", "VISKOSE", "VISCOSA", "VISCOSA"),
          ("ELASTANE", "ÉLASTHANNE", "ELASTHAN", "ELASTANO", "ELASTAN"),
          ("WOOL", "LAINE", "SCHURWOLLE", "LANA", "LANA"),
          ("POLYAMIDE", "POLYAMIDE", "POLYAMID", "POLIAMIDA", "POLIAMMIDE"),
          ("LINEN", "LIN", "LEINEN", "LINO", "LINO"),
          ("ACRYLIC", "ACRYLIQUE", "POLYACRYL", "ACRÍLICO", "ACRILICO")]
COUNTRIES = ["BANGLADESH", "CHINA", "PORTUGAL", "TURKEY", "VIETNAM", "INDIA", "ITALY", "CAMBODIA",
             "MOROCCO", "PAKISTAN", "ROMANIA", "SRI LANKA", "INDONESIA", "U.S.A."]
ISO_WORDS = ["WASH INSIDE OUT", "WASH WITH SIMILAR COLOURS", "DO NOT SOAK", "RESHAPE WHILE DAMP",
             "LAVER À L'ENVERS", "NICHT IN DEN TROCKNER", "WASCHEN MIT GLEICHEN FARBEN",
             "SEPARATELY", "LAVAR DEL REVÉS", "COOL IRON ON REVERSE", "KEEP AWAY FROM FIRE"]
ASTM_WORDS = ["MACHINE WASH COLD", "TUMBLE DRY LOW", "WITH LIKE COLORS", "ONLY NON-CHLORINE BLEACH",
              "WHEN NEEDED", "COOL IRON IF NEEDED", "LINE DRY", "DO NOT DRY CLEAN", "WASH SEPARATELY",
              "REMOVE PROMPTLY", "RN 54817", "CA 30921", "HAND WASH COLD"]


def composition(rng, iso):
    k = int(rng.choice([1, 2, 2, 3]))
    idx = rng.choice(len(FIBRES), k, replace=False)
    cuts = sorted(rng.choice(range(5, 96, 5), k - 1, replace=False)) if k > 1 else []
    parts = np.diff([0] + list(cuts) + [100])
    parts = sorted(parts, reverse=True)
    lang = int(rng.integers(0, 5)) if iso else 0
    return " ".join(f"{p}% {FIBRES[i][lang]}" for p, i in zip(parts, idx))


def text_lines(rng, iso):
    """Text of a label: composition, origin, size and style numbers, care words."""
    lines = [composition(rng, iso)]
    if iso and rng.random() < 0.5:
        lines.append(composition(rng, iso))
    lines.append(f"MADE IN {rng.choice(COUNTRIES)}")
    if rng.random() < 0.6:
        lines.append(str(rng.choice([f"SIZE {rng.choice(['XS', 'S', 'M', 'L', 'XL'])}",
                                     f"EU {rng.integers(34, 48)} / UK {rng.integers(6, 20)}",
                                     f"ART. {rng.integers(1000, 9999)}/{rng.integers(10, 99)}",
                                     f"STYLE {rng.integers(100000, 999999)}",
                                     f"LOT {rng.integers(10, 99)}-{rng.integers(1000, 9999)}"])))
    words = ISO_WORDS if iso else ASTM_WORDS
    for w in rng.choice(words, int(rng.integers(0, 3)), replace=False):
        lines.append(str(w))
    order = rng.permutation(len(lines))
    return [lines[i] for i in order]


def draw_text_block(mask, lines, x0, y0, width, size, fnt, align, line_h=1.35):
    """Draws lines of text into the mask (float HxW) from (x0, y0); returns the y below it."""
    img = Image.fromarray((mask * 255).astype(np.uint8))
    d = ImageDraw.Draw(img)
    f = font(fnt, size)
    y = y0
    for ln in lines:
        x_0, y_0, x_1, y_1 = f.getbbox(ln)
        w = x_1 - x_0
        ff = f
        if w > width:  # shrink to fit
            ff = font(fnt, size * width / w)
            x_0, y_0, x_1, y_1 = ff.getbbox(ln)
            w = x_1 - x_0
        x = x0 + (width - w) / 2 if align == "center" else x0
        d.text((x - x_0, y), ln, font=ff, fill=255)
        y += size * line_h
    mask[:] = np.asarray(img, np.float32) / 255.0
    return y


# ---------------------------------------------------------------------------------------------
# Photo effects
# ---------------------------------------------------------------------------------------------
def garment_background(rng, H, W):
    """What is around the label in the photo: a garment's knit or weave in some colour."""
    col = np.array(rng.choice([(40, 40, 45), (200, 200, 205), (120, 30, 40), (30, 50, 100),
                               (180, 160, 120), (70, 90, 60), (230, 225, 215), (90, 90, 95)]),
                   np.float32) + rng.uniform(-15, 15, 3)
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    p = rng.uniform(3, 7)
    knit = np.abs(np.sin(math.pi * x / p + 0.6 * np.sin(math.pi * y / p)))
    tex = 0.88 + 0.16 * knit + smooth_noise(rng, H, W, 80, 0.06)
    return np.clip(col[None, None, :] * tex[..., None], 0, 255)


def lighting(rng, img, strength=1.0):
    """Uneven light and a colour cast."""
    H, W = img.shape[:2]
    g = 1 + smooth_noise(rng, H, W, max(H, W) / 2.5, 0.12 * strength)
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((x - W / 2) * math.cos(a) + (y - H / 2) * math.sin(a)) / max(H, W)
    g = g * (1 + rng.uniform(0, 0.25) * strength * ramp)
    cast = np.array([1 + rng.uniform(-0.06, 0.06), 1, 1 + rng.uniform(-0.08, 0.06)], np.float32)
    return img * g[..., None] * cast[None, None, :]


def fold(rng, H, W, strength=1.0):
    """A crease across the label: (brightness multiplier, dx, dy). Shading is a dark/light pair
    either side of the crease line; the displacement pulls the cloth towards the crease."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    a = rng.uniform(0, math.pi)
    nx, ny = math.cos(a), math.sin(a)
    px, py = rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H
    dist = (x - px) * nx + (y - py) * ny
    w = rng.uniform(6, 25) * strength + 4
    shade = 1 - rng.uniform(0.1, 0.3) * strength * (dist / w) * np.exp(-(dist / w) ** 2 + 0.5)
    shade -= rng.uniform(0.0, 0.12) * strength * np.exp(-(dist / (w * 0.3)) ** 2)
    disp = rng.uniform(2, 7) * strength * np.tanh(dist / w)
    return shade.astype(np.float32), (disp * nx).astype(np.float32), (disp * ny).astype(np.float32)


def warp_maps(rng, H, W, strength=1.0, extra=None):
    """Source coordinates (ys, xs) for every output pixel: perspective (corner jitter),
    cylinder-like curvature, and an optional displacement (dx, dy) from folds."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float64)
    j = 0.06 * strength
    src = np.array([[0, 0], [W, 0], [W, H], [0, H]], float)
    dst = src + rng.uniform(-j, j, (4, 2)) * [W, H]
    A = []
    for (xs_, ys_), (xd, yd) in zip(src, dst):  # homography from output (dst) to source
        A.append([xd, yd, 1, 0, 0, 0, -xs_ * xd, -xs_ * yd, -xs_])
        A.append([0, 0, 0, xd, yd, 1, -ys_ * xd, -ys_ * yd, -ys_])
    _, _, vt = np.linalg.svd(np.array(A))
    Hm = vt[-1].reshape(3, 3)
    den = Hm[2, 0] * x + Hm[2, 1] * y + Hm[2, 2]
    xs = (Hm[0, 0] * x + Hm[0, 1] * y + Hm[0, 2]) / den
    ys = (Hm[1, 0] * x + Hm[1, 1] * y + Hm[1, 2]) / den
    # curvature: the label bends around a horizontal or vertical cylinder
    c = rng.uniform(-1, 1) * 0.05 * strength
    if rng.random() < 0.5:
        u = (xs - W / 2) / (W / 2)
        ys = ys + c * H * (u ** 2 - 0.33)
        xs = W / 2 + (W / 2) * (u + 0.06 * strength * rng.uniform(-1, 1) * u ** 3)
    else:
        v = (ys - H / 2) / (H / 2)
        xs = xs + c * W * 0.5 * (v ** 2 - 0.33)
    if extra is not None:
        xs, ys = xs + extra[0], ys + extra[1]
    return ys, xs


def remap(img, ys, xs, order=1):
    """img (HxW or HxWxC) sampled at (ys, xs), edges repeated."""
    if img.ndim == 2:
        return ndimage.map_coordinates(img, [ys, xs], order=order, mode="nearest")
    return np.stack([ndimage.map_coordinates(img[..., k], [ys, xs], order=order, mode="nearest")
                     for k in range(img.shape[2])], -1)


def finger(rng, H, W, scale):
    """A finger-like blob from one image edge: (alpha HxW, colour HxWx3)."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    edge = rng.integers(0, 4)
    r = scale * rng.uniform(0.5, 0.8)
    length = scale * rng.uniform(1.5, 3)
    t = rng.uniform(0.1, 0.9)
    ang = rng.uniform(-0.5, 0.5)
    if edge == 0:   # from the bottom
        base, d = np.array([t * W, H + r]), np.array([math.sin(ang), -math.cos(ang)])
    elif edge == 1:  # from the top
        base, d = np.array([t * W, -r]), np.array([math.sin(ang), math.cos(ang)])
    elif edge == 2:  # from the left
        base, d = np.array([-r, t * H]), np.array([math.cos(ang), math.sin(ang)])
    else:
        base, d = np.array([W + r, t * H]), np.array([-math.cos(ang), math.sin(ang)])
    tip = base + d * length
    # distance to the segment base-tip: a capsule
    px, py = x - base[0], y - base[1]
    L2 = float(d @ d) * length ** 2
    tt = np.clip((px * d[0] * length + py * d[1] * length) / L2, 0, 1)
    dx, dy = px - tt * d[0] * length, py - tt * d[1] * length
    dist = np.sqrt(dx ** 2 + dy ** 2)
    alpha = np.clip((r - dist) / 2.5, 0, 1)
    skin = np.array(rng.choice([(226, 178, 150), (198, 140, 110), (141, 96, 70), (240, 200, 178)]),
                    np.float32)
    shade = 0.75 + 0.35 * np.clip(1 - dist / r, 0, 1) ** 0.5
    col = skin[None, None, :] * shade[..., None]
    return alpha.astype(np.float32), col, tip


def finish(rng, img, blur=None, noise=None):
    """Camera: blur (focus or motion), sensor noise, 8 bits. Returns a PIL image."""
    b = rng.uniform(0, 1.4) if blur is None else blur
    if rng.random() < 0.15:  # motion blur along a random direction
        k = int(rng.integers(3, 8))
        ker = np.zeros((k, k), np.float32)
        if rng.random() < 0.5:
            ker[k // 2, :] = 1
        else:
            np.fill_diagonal(ker, 1)
        ker /= ker.sum()
        img = np.stack([ndimage.convolve(img[..., c], ker, mode="nearest") for c in range(3)], -1)
    if b > 0.2:
        img = ndimage.gaussian_filter(img, (b, b, 0))
    n = rng.uniform(1.5, 7) if noise is None else noise
    img = img + rng.normal(0, n, img.shape) + rng.normal(0, n * 0.5, img.shape[:2])[..., None]
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB")


def save(im, path, rng, fmt="jpg"):
    if fmt == "png":
        im.save(path, "PNG", optimize=False)
    else:
        im.save(path, "JPEG", quality=int(rng.integers(50, 91)),
                subsampling=int(rng.choice([0, 2, 2])))


# ---------------------------------------------------------------------------------------------
# Singles: one symbol, cropped as a detector or a person would crop it
# ---------------------------------------------------------------------------------------------
def variant_for(code, i):
    """The i-th crop of a code cycles through its drawings by their weights."""
    cyc = [tag for tag, _, w in variants(code) for _ in range(w)]
    return cyc[i % len(cyc)]


def make_single(task):
    out, idx, code, k, seed = task
    rng = np.random.default_rng([seed, 1, idx])
    tag = variant_for(code, k)
    systems = dict((t, s) for t, s, _ in variants(code))[tag]
    system = str(rng.choice(systems))
    st = random_style(rng, system)
    sym = build(code, tag, st)
    size = int(round(math.exp(rng.uniform(math.log(64), math.log(400)))))
    fill = rng.uniform(0.5, 0.85)
    sw, sh = sym.hi[0] - sym.lo[0], sym.hi[1] - sym.lo[1]
    ppu = fill * size / max(sw, sh)
    mask, _ = render_sym(sym, ppu, pad_px=1)
    # place it in a crop of size x size, off centre within the margin
    H = W = size
    canvas = np.zeros((H, W), np.float32)
    mh, mw = mask.shape
    mh, mw = min(mh, H), min(mw, W)
    ox = int(rng.integers(0, max(1, W - mw + 1)))
    oy = int(rng.integers(0, max(1, H - mh + 1)))
    ox = int(round((ox + (W - mw) / 2) / 2))  # halfway between random and centred
    oy = int(round((oy + (H - mh) / 2) / 2))
    canvas[oy:oy + mh, ox:ox + mw] = mask[:mh, :mw]
    fab = str(rng.choice(FABRICS, p=[0.3, 0.2, 0.2, 0.15, 0.15]))
    base, ink_rgb, ink = label_colors(rng, fab)
    # the texture is made at "label scale" (a symbol about 90 px) and resized to this crop
    scale = max(0.35, min(2.5, (fill * size) / 90))
    th, tw = max(8, int(H / scale)), max(8, int(W / scale))
    tex, pattern, pitch = fabric_texture(rng, fab, th, tw)
    tex = np.asarray(Image.fromarray(tex, "F").resize((W, H), Image.BILINEAR))
    if pattern is not None:
        pattern = np.asarray(Image.fromarray(pattern.astype(np.float32), "F").resize((W, H), Image.BILINEAR))
        pitch = pitch * scale
    img = apply_ink(rng, base, tex, canvas, ink_rgb, ink, fab, pattern, pitch)
    if rng.random() < 0.3:
        shade, dx, dy = fold(rng, H, W, strength=0.5)
        img = img * shade[..., None]
    else:
        dx = dy = None
    img = lighting(rng, img, 0.7)
    ys, xs = warp_maps(rng, H, W, strength=0.5, extra=None if dx is None else (dx, dy))
    img = remap(img, ys, xs)
    im = finish(rng, img, blur=rng.uniform(0, 0.6 + size / 400))
    fmt = "png" if rng.random() < 0.3 else "jpg"
    name = f"singles/s{idx:05d}.{fmt}"
    save(im, os.path.join(out, name), rng, fmt)
    return {"path": name, "code": code, "family": CODES[code], "variant": tag,
            "style": {"system": system, "fabric": fab, "ink": ink, "weight": st["weight"],
                      "size": size, "fill": round(float(fill), 2)}}


# ---------------------------------------------------------------------------------------------
# Labels: 2-7 symbols in the standards' order, text around, then a photo of it
# ---------------------------------------------------------------------------------------------
ISO_POOLS = [
    ("wash", ["wash-95", "wash-70", "wash-60", "wash-60-mild", "wash-50", "wash-50-mild", "wash-40",
              "wash-40-mild", "wash-40-very-mild", "wash-30", "wash-30-mild", "wash-30-very-mild",
              "wash-hand", "wash-hand-ambient", "wash-no"]),
    ("bleach", ["bleach-any", "bleach-non-chlorine", "bleach-no", "bleach-chlorine"]),
    ("tumble", ["tumble-normal", "tumble-low", "tumble-no"]),
    ("natural", ["dry-line", "dry-drip", "dry-flat", "dry-drip-flat", "dry-line-shade", "dry-drip-shade",
                 "dry-flat-shade", "dry-drip-flat-shade"]),
    ("iron", ["iron-low", "iron-medium", "iron-high", "iron-no", "iron-no-steam"]),
    ("pro", ["pro-p", "pro-p-mild", "pro-f", "pro-f-mild", "pro-no"]),
    ("wet", ["pro-w", "pro-w-mild", "pro-w-very-mild", "pro-w-no"]),
]
ASTM_POOLS = [
    ("wash", ["wash-95", "wash-70", "wash-60", "wash-60-mild", "wash-50", "wash-50-mild", "wash-40",
              "wash-40-mild", "wash-40-very-mild", "wash-30", "wash-30-mild", "wash-30-very-mild",
              "wash-hand", "wash-hand-ambient", "wash-no", "wash-machine", "wash-machine-permanent-press",
              "wash-machine-delicate"]),
    ("wring", ["wring-no"]),
    ("bleach", ["bleach-any", "bleach-non-chlorine", "bleach-no"]),
    ("tumble", ["tumble-normal", "tumble-low", "tumble-no", "tumble-any", "tumble-high", "tumble-no-heat",
                "tumble-permanent-press", "tumble-delicate", "dry-no"]),
    ("natural", ["dry-line", "dry-drip", "dry-flat", "dry-shade", "dry-line-shade", "dry-flat-shade"]),
    ("iron", ["iron-low", "iron-medium", "iron-high", "iron-no", "iron-no-steam", "iron-any"]),
    ("pro", ["pro-any", "pro-a", "pro-p", "pro-f", "pro-no", "pro-short-cycle", "pro-reduced-moisture",
             "pro-low-heat", "pro-no-steam-finishing"]),
]


def pick_symbols(rng, system):
    """2-7 codes, one per family slot, in the order labels print them."""
    pools = ISO_POOLS if system == "iso" else ASTM_POOLS
    # how often each slot is printed (ISO: wash bleach tumble natural iron pro wet;
    # ASTM: wash wring bleach tumble natural iron pro)
    weights = np.array([3, 2.5, 2, 1.5, 2.5, 2, 1.0] if system == "iso" else [3, 0.6, 2.5, 2, 1.5, 2.5, 2])
    n = min(int(rng.integers(2, 8)), len(pools))
    slots = sorted(rng.choice(len(pools), n, replace=False, p=weights / weights.sum()))
    out = []
    for s in slots:
        code = str(rng.choice(pools[s][1]))
        tags = [t for t, sy, _ in variants(code) if system in sy]
        out.append((code, str(rng.choice(tags))))
    return out


def layout_label(rng, system, symbols):
    """Draws the label: returns (ink mask, symbol-id map, label rect, size, text font)."""
    W = int(rng.integers(920, 1081))
    n = len(symbols)
    st = random_style(rng, system)  # one style per label: labels print their symbols alike
    syms = [build(code, tag, st) for code, tag in symbols]
    two_rows = n >= 5 and rng.random() < 0.45
    per_row = [n] if not two_rows else [int(math.ceil(n / 2)), n - int(math.ceil(n / 2))]
    label_w = W * rng.uniform(0.8, 0.96)
    inner_w = label_w * 0.88
    widest = max(per_row)
    gap_r = rng.uniform(0.25, 0.6)
    u = min(rng.uniform(70, 130), inner_w / (widest * 1.15 + (widest - 1) * gap_r))
    masks = [render_sym(s, u, pad_px=1)[0] for s in syms]
    fnt = str(rng.choice(FONTS["text"]))
    tsize = float(np.clip(u * rng.uniform(0.22, 0.34), 15, 34))
    lines = text_lines(rng, system == "iso")
    k_above = int(rng.integers(0, min(3, len(lines)) + 1))
    above, below = lines[:k_above], lines[k_above:]
    row_h = [max(masks[i].shape[0] for i in range(sum(per_row[:r]), sum(per_row[:r + 1])))
             for r in range(len(per_row))]
    pad = u * rng.uniform(0.25, 0.5)
    content_h = (len(above) + len(below)) * tsize * 1.35 + sum(row_h) + (len(row_h) - 1) * u * 0.3 + 2 * pad + \
        (u * 0.25 if above else 0) + (u * 0.25 if below else 0)
    label_h = content_h
    H = int(label_h / rng.uniform(0.82, 0.95))
    lx = (W - label_w) / 2 + rng.uniform(-0.4, 0.4) * (W - label_w) / 2
    ly = (H - label_h) / 2 + rng.uniform(-0.4, 0.4) * (H - label_h) / 2
    ink = np.zeros((H, W), np.float32)
    ids = np.zeros((H, W), np.uint8)
    align = "center" if rng.random() < 0.6 else "left"
    tx0 = lx + (label_w - inner_w) / 2
    y = ly + pad
    if above:
        y = draw_text_block(ink, above, tx0, y, inner_w, tsize, fnt, align) + u * 0.25
    i = 0
    for r, k in enumerate(per_row):
        row = list(range(i, i + k))
        widths = [masks[j].shape[1] for j in row]
        gap = u * gap_r
        total = sum(widths) + gap * (k - 1)
        x = tx0 + ((inner_w - total) / 2 if align == "center" or rng.random() < 0.5 else 0)
        for j in row:
            m = masks[j]
            mh, mw = m.shape
            yy = int(round(y + (row_h[r] - mh) / 2))
            xx = int(round(x))
            ink[yy:yy + mh, xx:xx + mw] = np.maximum(ink[yy:yy + mh, xx:xx + mw], m)
            ids[yy:yy + mh, xx:xx + mw][m > 0.3] = j + 1
            x += mw + gap
        y += row_h[r] + u * 0.3
        i += k
    y += u * 0.25 - u * 0.3
    if below:
        draw_text_block(ink, below, tx0, y, inner_w, tsize, fnt, align)
    return ink, ids, (lx, ly, label_w, label_h), (W, H), st


def label_photo(rng, ink, ids, rect, size, effects=True):
    """Label fabric, print, garment around it, then the camera: returns (RGB float image, warped
    symbol-id map, style dict)."""
    W, H = size
    fab = str(rng.choice(FABRICS, p=[0.3, 0.2, 0.2, 0.15, 0.15]))
    base, ink_rgb, ink_name = label_colors(rng, fab)
    tex, pattern, pitch = fabric_texture(rng, fab, H, W)
    img = apply_ink(rng, base, tex, ink, ink_rgb, ink_name, fab, pattern, pitch)
    # the garment around the label, with a soft shadow under the label's edge
    lx, ly, lw, lh = rect
    inside = np.zeros((H, W), np.float32)
    inside[int(ly):int(ly + lh), int(lx):int(lx + lw)] = 1
    inside = ndimage.gaussian_filter(inside, 0.8)
    shadow = 1 - 0.35 * np.clip(ndimage.gaussian_filter(np.roll(inside, (3, 3), (0, 1)), 4) - inside, 0, 1)
    bg = garment_background(rng, H, W) * shadow[..., None]
    img = img * inside[..., None] + bg * (1 - inside[..., None])
    if rng.random() < 0.5:  # stitches along a hemmed edge of the label
        yy = int(ly + rng.choice([0.04, 0.96]) * lh)
        xs = np.arange(int(lx + 8), int(lx + lw - 8), 9)
        for x in xs:
            img[yy - 1:yy + 2, x:x + 5] *= 0.75
    style = {"fabric": fab, "ink": ink_name}
    extra = None
    if effects and rng.random() < 0.55:
        shade, dx, dy = fold(rng, H, W)
        img = img * shade[..., None]
        extra = (dx, dy)
        style["fold"] = True
    img = lighting(rng, img)
    if effects:
        ys, xs = warp_maps(rng, H, W, strength=rng.uniform(0.3, 1.0), extra=extra)
        img = remap(img, ys, xs)
        ids = remap(ids, ys, xs, order=0)
    return img, ids, style


def boxes_of(ids, n):
    """Bounding boxes [x, y, w, h] of symbols 1..n in an id map (None when absent)."""
    out = []
    objs = ndimage.find_objects(ids, max_label=n)
    for sl in objs:
        if sl is None:
            out.append(None)
        else:
            ys, xs = sl
            out.append([int(xs.start), int(ys.start), int(xs.stop - xs.start), int(ys.stop - ys.start)])
    return out


def make_label(task):
    out, idx, seed = task
    rng = np.random.default_rng([seed, 2, idx])
    system = "iso" if idx % 2 == 0 else "astm"  # half ISO, half ASTM
    for attempt in range(8):
        symbols = pick_symbols(rng, system)
        ink, ids, rect, size, st = layout_label(rng, system, symbols)
        img, wids, style = label_photo(rng, ink, ids, rect, size)
        boxes = boxes_of(wids, len(symbols))
        H, W = wids.shape
        # every symbol wholly in the frame (warps may push one out: draw again)
        if all(b and b[0] > 1 and b[1] > 1 and b[0] + b[2] < W - 1 and b[1] + b[3] < H - 1 for b in boxes):
            break
    areas = [np.count_nonzero(wids == j + 1) for j in range(len(symbols))]
    occl = None
    r = rng.random()
    if r < 0.2:  # a finger over at most 15 % of one symbol (of its ink and of its box),
        scale = np.median([b[3] for b in boxes])  # preferably touching one
        best = None
        for _ in range(30):
            alpha, col, _ = finger(rng, H, W, scale)
            on = alpha > 0.5
            cov = max(max(float(np.sum(on & (wids == j + 1))) / max(1, areas[j]),
                          float(np.mean(on[b[1]:b[1] + b[3], b[0]:b[0] + b[2]])))
                      for j, b in enumerate(boxes))
            if cov <= 0.15 and (best is None or cov > best[0]):
                best = (cov, alpha, col)
            if best and best[0] >= 0.04:
                break
        if best:
            cov, alpha, col = best
            img = img * (1 - alpha[..., None]) + col * alpha[..., None]
            occl = {"finger": round(cov, 3)}
    elif r < 0.35:  # crop through the first or last symbol of a row, at most 15 % of it
        j = int(rng.choice([0, len(symbols) - 1]))
        bx, by, bw, bh = boxes[j]
        cut = rng.uniform(0.03, 0.15)
        if j == 0:
            x0 = int(bx + cut * bw)
            others = [b for k, b in enumerate(boxes) if k != j and b[0] < x0 and (x0 - b[0]) > 0.15 * b[2]]
            if not others:
                img, wids = img[:, x0:], wids[:, x0:]
                occl = {"crop": "left", "cut": round(float(cut), 3)}
        else:
            x1 = int(bx + bw - cut * bw)
            others = [b for k, b in enumerate(boxes) if k != j and b[0] + b[2] > x1 and (b[0] + b[2] - x1) > 0.15 * b[2]]
            if not others:
                img, wids = img[:, :x1], wids[:, :x1]
                occl = {"crop": "right", "cut": round(float(cut), 3)}
        boxes = boxes_of(wids, len(symbols))
    im = finish(rng, img)
    name = f"labels/l{idx:05d}.jpg"
    save(im, os.path.join(out, name), rng, "jpg")
    style.update({"weight": st["weight"], "occlusion": occl})
    return {"path": name, "system": system, "style": style,
            "symbols": [{"code": c, "variant": t, "box": b} for (c, t), b in zip(symbols, boxes)]}


# ---------------------------------------------------------------------------------------------
# Negatives: no symbol anywhere
# ---------------------------------------------------------------------------------------------
BRANDS = ["NORDWIND", "maison lune", "ATELIER 9", "Kestrel & Co.", "FJORD", "urban thread", "MOLTO",
          "Sable", "BASICS", "verano", "Oak+Linen", "NOVA KIDS"]


def logo_mask(rng, H, W, cx, cy, s):
    """A brand mark without care-symbol shapes: a star, a leaf or waves, and a word mark."""
    img = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(img)
    kind = rng.integers(0, 3)
    if kind == 0:  # five-pointed star
        pts = [(cx + s * (0.5 if k % 2 else 1) * math.sin(k * math.pi / 5),
                cy - s * (0.5 if k % 2 else 1) * math.cos(k * math.pi / 5)) for k in range(10)]
        d.polygon(pts, fill=255)
    elif kind == 1:  # leaf
        up = qbez((cx, cy + s), (cx + s, cy), (cx, cy - s), 20)
        dn = qbez((cx, cy - s), (cx - s, cy), (cx, cy + s), 20)
        d.polygon(up + dn[1:], fill=255)
    else:  # three waves
        for k in range(3):
            pts = [(cx - s + t * 2 * s, cy + (k - 1) * s * 0.5 + 0.15 * s * math.sin(t * 4 * math.pi))
                   for t in np.linspace(0, 1, 40)]
            d.line(pts, fill=255, width=max(2, int(s * 0.12)))
    return np.asarray(img, np.float32) / 255.0


def make_negative(task):
    out, idx, seed = task
    rng = np.random.default_rng([seed, 3, idx])
    kind = ["text-label", "logo-label", "fabric", "seam", "hang-tag"][idx % 5]
    if kind in ("text-label", "logo-label", "hang-tag"):
        system = "iso" if rng.random() < 0.5 else "astm"
        W = int(rng.integers(700, 1081))
        fnt = str(rng.choice(FONTS["text"]))
        tsize = float(rng.uniform(18, 34))
        lines = text_lines(rng, system == "iso")
        if kind == "hang-tag":
            lines = [f"{rng.integers(9, 199)}.{rng.choice(['00', '95', '99'])} EUR",
                     f"SIZE {rng.choice(['S', 'M', 'L', 'XL', '38', '40'])}"] + \
                [ln for ln in lines if not ln.startswith("SIZE")][:2]
        label_w = W * rng.uniform(0.75, 0.95)
        top = 0
        if kind != "text-label":
            top = tsize * 4
        label_h = len(lines) * tsize * 1.35 + tsize * 2 + top
        H = int(label_h / rng.uniform(0.8, 0.95))
        lx, ly = (W - label_w) / 2, (H - label_h) / 2
        ink = np.zeros((H, W), np.float32)
        y = ly + tsize
        if kind == "logo-label":
            s = tsize * 1.2
            ink = np.maximum(ink, logo_mask(rng, H, W, lx + label_w / 2 - s * 3.5, y + s, s))
            y = draw_text_block(ink, [str(rng.choice(BRANDS))], lx + label_w / 2 - s * 2, y, label_w / 2 + s * 2,
                                s * 1.3, str(rng.choice(FONTS["text"])), "left") + tsize * 0.5
        elif kind == "hang-tag":  # a barcode
            bw = int(label_w * 0.5)
            bars = rng.random(int(bw / 3)) < 0.5
            x0 = int(lx + (label_w - bw) / 2)
            for k, b in enumerate(bars):
                if b:
                    ink[int(y):int(y + top * 0.7), x0 + 3 * k:x0 + 3 * k + 2] = 1
            y += top
        draw_text_block(ink, lines, lx + label_w * 0.06, y, label_w * 0.88, tsize, fnt,
                        "center" if rng.random() < 0.6 else "left")
        ids = np.zeros((H, W), np.uint8)
        img, _, style = label_photo(rng, ink, ids, (lx, ly, label_w, label_h), (W, H))
    else:
        W, H = int(rng.integers(400, 1001)), int(rng.integers(300, 801))
        img = garment_background(rng, H, W)
        if kind == "seam" or rng.random() < 0.3:
            a = rng.uniform(-0.3, 0.3)
            y0 = rng.uniform(0.3, 0.7) * H
            yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
            d = yy - (y0 + math.tan(a) * (xx - W / 2))
            img = img * (1 - 0.35 * np.exp(-(d / 4) ** 2))[..., None]  # the seam's groove
            img = np.where((d > 0)[..., None], img * rng.uniform(0.85, 1.1), img)
            for off in (-12, 12):  # two rows of stitches
                on = (np.abs(d - off) < 1.5) & (((xx + rng.integers(0, 9)) % 9) < 5)
                img[on] = img[on] * 0.6 + 60
        img = lighting(rng, img)
        ys, xs = warp_maps(rng, H, W, strength=0.6)
        img = remap(img, ys, xs)
        style = {"fabric": "garment"}
    im = finish(rng, img)
    name = f"negatives/n{idx:05d}.jpg"
    save(im, os.path.join(out, name), rng, "jpg")
    return {"path": name, "kind": kind, "style": style}


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------
def _init(fonts):
    global FONTS
    FONTS = fonts


def main():
    ap = argparse.ArgumentParser(description="Render the independent (standards-drawn) care test set.")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--singles", type=int, default=1240, help="single-symbol crops (spread evenly over the 62 codes)")
    ap.add_argument("--labels", type=int, default=200, help="label photos (half ISO, half ASTM style)")
    ap.add_argument("--negatives", type=int, default=200, help="photos without a care symbol")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    global FONTS
    FONTS = find_fonts()
    for sub in ("singles", "labels", "negatives"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    codes = list(CODES)
    singles = [(args.out, i, codes[i % 62], i // 62, args.seed) for i in range(args.singles)]
    labels = [(args.out, i, args.seed) for i in range(args.labels)]
    negatives = [(args.out, i, args.seed) for i in range(args.negatives)]
    t0 = time.time()
    with Pool(max(1, args.jobs), initializer=_init, initargs=(FONTS,)) as pool:
        for name, fn, tasks in (("singles", make_single, singles), ("labels", make_label, labels),
                                ("negatives", make_negative, negatives)):
            recs = pool.map(fn, tasks, chunksize=4)
            with open(os.path.join(args.out, f"{name}.jsonl"), "w", encoding="utf-8") as f:
                for r in recs:
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
            print(f"render_standards.py: {len(recs)} {name} ({time.time() - t0:.0f} s)", file=sys.stderr)
    with open(__file__, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    manifest = {"renderer": "benchmarks/care/render_standards.py", "sha256": sha, "seed": args.seed,
                "counts": {"singles": args.singles, "labels": args.labels, "negatives": args.negatives},
                "fonts": sorted({os.path.basename(p) for ps in FONTS.values() for p in ps}),
                "versions": {"python": sys.version.split()[0], "numpy": np.__version__,
                             "scipy": scipy.__version__, "Pillow": PIL_VERSION}}
    with open(os.path.join(args.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
