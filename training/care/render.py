#!/usr/bin/env python3
"""Training renderer for `atl-classify --task care`: care symbols, detector crops and label photos.

Draws the 62 codes of care-symbols.md the way docs/care-symbol-drawings.md describes them, with
every alternative drawing the page lists (ISO and ASTM), then photographs them: label textures,
polarity, perspective, blur, noise, JPEG, occluders, neighbours.

    CODES                              the 62 codes, in care-symbols.md order
    draw_symbol(code, rng, size)       clean ink coverage, float32 [0, 1]
    render_symbol_crop(code, rng, 48)  a detector's crop of the symbol, uint8 grey
    render_negative_crop(rng, 48)      a crop a detector may propose that is not a symbol
    render_label(rng, 1000)            a photo of a care label and its symbols' ink boxes
    render_negative_image(rng, 1000)   a photo with no care symbol
    render_text_label(rng, 1000)       a photo of a text-only label, and boxes around it and its text

    python3 training/care/render.py --preview OUT_DIR   contact sheets to look at
    python3 training/care/render.py --check             CODES against ../shared/care-symbols.md
    python3 training/care/render.py --time              CPU milliseconds per call of each renderer

Geometry is built in a unit frame (the main shape about 1 wide, y down) as a list of vector
operations, then rasterised with Pillow at 2-4x supersampling. Everything random comes from the
np.random.Generator passed in, so the output is a function of the generator's state (fonts come
from the pinned PyPI packages of FONT_PACKAGES, listed in sorted order).

One file on purpose, although long: train.py keys its sample cache on this file's source, so every
change to the renderer must land here to invalidate the cache.
"""

import argparse
import functools
import glob
import importlib
import io
import math
import os
import sys
import time

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont
from scipy import ndimage

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
CODES_DOC = os.path.join(REPO, "..", "shared", "care-symbols.md")

# ================================================================ codes

CODES = [
    "wash-95", "wash-70", "wash-60", "wash-60-mild", "wash-50", "wash-50-mild", "wash-40",
    "wash-40-mild", "wash-40-very-mild", "wash-30", "wash-30-mild", "wash-30-very-mild",
    "wash-hand", "wash-no", "wash-machine", "wring-no", "wash-hand-ambient",
    "wash-machine-permanent-press", "wash-machine-delicate",
    "bleach-any", "bleach-non-chlorine", "bleach-no", "bleach-chlorine",
    "tumble-normal", "tumble-low", "tumble-no", "tumble-any", "tumble-high", "tumble-no-heat",
    "tumble-permanent-press", "tumble-delicate",
    "dry-line", "dry-drip", "dry-flat", "dry-drip-flat", "dry-line-shade", "dry-drip-shade",
    "dry-flat-shade", "dry-drip-flat-shade", "dry-shade", "dry-no",
    "iron-low", "iron-medium", "iron-high", "iron-no", "iron-no-steam", "iron-any",
    "pro-p", "pro-p-mild", "pro-f", "pro-f-mild", "pro-no", "pro-w", "pro-w-mild",
    "pro-w-very-mild", "pro-w-no", "pro-a", "pro-any", "pro-short-cycle", "pro-reduced-moisture",
    "pro-low-heat", "pro-no-steam-finishing",
]

FAMILIES = ["washing", "bleaching", "drying", "ironing", "professional"]
_PREFIX_FAMILY = {"wash": "washing", "wring": "washing", "bleach": "bleaching", "tumble": "drying",
                  "dry": "drying", "iron": "ironing", "pro": "professional"}
FAMILY = {code: _PREFIX_FAMILY[code.split("-")[0]] for code in CODES}


def check_codes(path=CODES_DOC):
    """Problems (a list of strings, empty when all is well) between CODES/FAMILY and the table of
    care-symbols.md at `path`; no problems when the file does not exist."""
    if not os.path.exists(path):
        return []
    rows = []
    for line in open(path, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) >= 2:
            rows.append((cells[0].strip("`"), cells[1]))
    problems = []
    if [c for c, _ in rows] != CODES:
        missing = [c for c, _ in rows if c not in CODES]
        extra = [c for c in CODES if c not in [r[0] for r in rows]]
        problems.append(f"codes differ from {path}: missing {missing}, unknown {extra}, or order")
    problems += [f"{c}: family {f} in the document, {FAMILY.get(c)} here" for c, f in rows
                 if c in FAMILY and FAMILY[c] != f]
    return problems


# ================================================================ fonts and stroke glyphs

# Fonts come from PyPI packages pinned in requirements.txt, never from the system, so the same
# command draws the same pixels on any machine; none of them is a font the test renderer uses.
FONT_PACKAGES = ("font_amatic_sc", "font_caladea", "font_fjallaone", "font_fredoka_one",
                 "font_hanken_grotesk", "font_intuitive", "font_lato", "font_manrope", "font_rhd",
                 "font_roboto", "font_source_sans_pro", "font_source_serif_pro")


@functools.lru_cache(maxsize=1)
def _fonts():
    """Sorted font files of FONT_PACKAGES that draw digits and the symbols' letters (a TrueType
    file where a face comes as both; no variable fonts)."""
    faces = {}
    for package in FONT_PACKAGES:
        try:
            module = importlib.import_module(package)
        except ImportError:
            sys.exit(f"render.py: the font package {package} is missing; "
                     "pip install -r training/care/requirements.txt")
        folder = os.path.join(os.path.dirname(module.__file__), "files")
        for path in sorted(glob.glob(os.path.join(folder, "*.[ot]tf"))):
            stem, ext = os.path.splitext(os.path.basename(path))
            if "Variable" not in stem and (stem not in faces or ext == ".ttf"):
                faces[stem] = path
    usable = []
    for path in sorted(faces.values()):
        try:
            box = ImageFont.truetype(path, 40).getbbox("40°C PFWA")
        except OSError:
            continue
        if box[2] - box[0] > 40:
            usable.append(path)
    return tuple(usable)


@functools.lru_cache(maxsize=384)
def _font(path, px):
    return ImageFont.truetype(path, px)


def _font_px(px):
    """A font size rounded to a geometric grid (steps of 6%), so few font objects are loaded."""
    return max(6, int(round(1.06 ** round(math.log(max(px, 6)) / math.log(1.06)))))


@functools.lru_cache(maxsize=8192)
def _ink_box(path, px, text):
    return _font(path, px).getbbox(text)


def _text_aspect(path, text):
    """Ink width / ink height of text in a font."""
    x0, y0, x1, y1 = _ink_box(path, 100, text)
    return (x1 - x0) / max(1, y1 - y0)


def _arc(cx, cy, rx, ry, a0, a1, n=14):
    """Points on an elliptic arc; angles in degrees, 0 = right, 90 = down."""
    t = np.radians(np.linspace(a0, a1, n))
    return list(zip(cx + rx * np.cos(t), cy + ry * np.sin(t)))


def _six():
    loop = _arc(0.31, 0.7, 0.27, 0.3, 180, 540, 20)
    return [_arc(0.58, 0.72, 0.54, 0.7, 262, 180, 10) + loop]


# Hand-drawn single-stroke glyphs in a cell 1 high: (advance width, [polylines]).
_GLYPHS = {
    "0": (0.6, [_arc(0.3, 0.5, 0.27, 0.5, 0, 360, 24)]),
    "1": (0.45, [[(0.12, 0.22), (0.34, 0.0), (0.34, 1.0)]]),
    "2": (0.6, [_arc(0.3, 0.28, 0.27, 0.27, 190, 380, 12) + [(0.03, 1.0), (0.6, 1.0)]]),
    "3": (0.6, [_arc(0.3, 0.26, 0.25, 0.24, 200, 450, 12) + _arc(0.31, 0.74, 0.28, 0.26, 270, 520, 14)]),
    "4": (0.62, [[(0.46, 1.0), (0.46, 0.0), (0.0, 0.68), (0.62, 0.68)]]),
    "5": (0.6, [[(0.54, 0.0), (0.12, 0.0), (0.08, 0.46)] + _arc(0.3, 0.69, 0.28, 0.31, 220, 520, 16)]),
    "6": (0.6, _six()),
    "7": (0.6, [[(0.02, 0.0), (0.6, 0.0), (0.22, 1.0)]]),
    "8": (0.6, [_arc(0.3, 0.25, 0.23, 0.25, 90, 450, 18), _arc(0.3, 0.73, 0.28, 0.27, -90, 270, 18)]),
    "9": (0.6, [[(0.6 - x, 1.0 - y) for x, y in _six()[0]]]),
    "C": (0.66, [_arc(0.34, 0.5, 0.32, 0.5, 320, 40, 16)]),
    "l": (0.22, [[(0.1, 0.0), (0.1, 1.0)]]),
    "P": (0.6, [[(0.08, 1.0), (0.08, 0.0), (0.3, 0.0)] + _arc(0.3, 0.27, 0.25, 0.27, 270, 450, 10)
                + [(0.08, 0.54)]]),
    "F": (0.56, [[(0.55, 0.0), (0.08, 0.0), (0.08, 1.0)], [(0.08, 0.47), (0.45, 0.47)]]),
    "W": (0.82, [[(0.0, 0.0), (0.2, 1.0), (0.41, 0.28), (0.62, 1.0), (0.82, 0.0)]]),
    "A": (0.68, [[(0.0, 1.0), (0.34, 0.0), (0.68, 1.0)], [(0.12, 0.64), (0.56, 0.64)]]),
    "°": (0.32, [_arc(0.15, 0.13, 0.11, 0.12, 0, 360, 12)]),
    " ": (0.25, []),
}
_GLYPH_GAP = 0.14


def _stroke_text_width(text):
    return sum(_GLYPHS[c][0] for c in text) + _GLYPH_GAP * (len(text) - 1)


# ================================================================ vector drawing

class Drawing:
    """One symbol as vector operations in a unit frame (main shape about 1 wide, y down).

    `width` is the main stroke width in those units. Operations are drawn in order; a knock-out
    ("erase") clears earlier ink, as a hand in front of the tub's water line does. `points` are the
    extreme points of the ink (strokes widened by half their width), for its bounding box.
    """

    def __init__(self, width):
        self.width = width
        self.ops = []
        self.points = []

    def line(self, pts, width=None, closed=False, round_cap=False, erase=False):
        w = self.width if width is None else width
        pts = [(float(x), float(y)) for x, y in pts]
        self.ops.append(("line", pts, w, closed, round_cap, erase, _sharp(pts, closed)))
        if not erase:
            self._extent(pts, w / 2)

    def polygon(self, pts, erase=False):
        pts = [(float(x), float(y)) for x, y in pts]
        self.ops.append(("polygon", pts, erase))
        if not erase:
            self._extent(pts, 0)

    def ring(self, pts, width=None):
        """A closed outline with mitred corners (a filled polygon minus its inset); convex only."""
        w = self.width if width is None else width
        outer, inner = _offset_convex(pts, w / 2), _offset_convex(pts, -w / 2)
        self.ops.append(("polygon", outer, False))
        self.ops.append(("polygon", inner, True))
        self._extent(outer, 0)

    def ellipse(self, cx, cy, rx, ry, width=None):
        w = self.width if width is None else width
        self.ops.append(("ellipse", cx, cy, rx, ry, w))
        self._extent(_arc(cx, cy, rx, ry, 0, 360, 16), w / 2)

    def disc(self, cx, cy, rx, ry=None, erase=False):
        ry = rx if ry is None else ry
        self.ops.append(("disc", cx, cy, rx, ry, erase))
        if not erase:
            self._extent(_arc(cx, cy, rx, ry, 0, 360, 16), 0)

    def text(self, text, font, cx, cy, height, width=None, squeeze=1.0, slant=0.0):
        """Text whose ink box is centred on (cx, cy) and `height` high. `font` is a font file, or
        None for the hand-drawn stroke glyphs, drawn with stroke `width`, narrowed by `squeeze`
        and leaning right by `slant`."""
        if font is None:
            w = width if width is not None else 0.12 * height
            x = cx - _stroke_text_width(text) * height * squeeze / 2
            for ch in text:
                advance, strokes = _GLYPHS[ch]
                for stroke in strokes:
                    self.line([(x + (gx * squeeze + (0.5 - gy) * slant) * height, cy + (gy - 0.5) * height)
                               for gx, gy in stroke], w, round_cap=True)
                x += (advance + _GLYPH_GAP) * height * squeeze
            return
        half_w = _text_aspect(font, text) * height / 2
        self.ops.append(("text", text, font, cx, cy, height))
        self._extent([(cx - half_w, cy - height / 2), (cx + half_w, cy + height / 2)], 0)

    def _extent(self, pts, pad):
        for x, y in pts:
            self.points += [(x - pad, y - pad), (x + pad, y + pad)]
        self._box = None

    def bbox(self):
        """(x0, y0, x1, y1) of the ink in units."""
        if getattr(self, "_box", None) is None:
            p = np.asarray(self.points)
            self._box = (*p.min(axis=0), *p.max(axis=0))
        return self._box

    def outline_points(self):
        return np.asarray(self.points, dtype=np.float64)


def _sharp(pts, closed):
    """Whether a polyline turns by more than 20 degrees at a vertex (and so needs round joins to
    look whole when thick); smooth curves skip the joins, which are slow in Pillow."""
    p = np.asarray(pts + pts[:2] if closed else pts)
    if len(p) < 3:
        return False
    d = np.diff(p, axis=0)
    a, b = d[:-1], d[1:]
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    dot = (a * b).sum(axis=1)
    return bool(np.any(np.abs(np.arctan2(cross, dot)) > 0.35))


def text_width(text, font, height):
    """Ink width of text drawn `height` high (font None: stroke glyphs)."""
    if font is None:
        return _stroke_text_width(text) * height
    return _text_aspect(font, text) * height


def _offset_convex(pts, d):
    """A convex polygon's outline moved outwards by d (inwards when d < 0), corners mitred."""
    p = np.asarray(pts, dtype=np.float64)
    if _signed_area(p) < 0:
        p = p[::-1]
    n = len(p)
    out = []
    for i in range(n):
        a, b, c = p[i - 1], p[i], p[(i + 1) % n]
        n1 = _normal(b - a)
        n2 = _normal(c - b)
        bis = n1 + n2
        bis /= np.linalg.norm(bis)
        out.append(tuple(b + bis * d / max(0.2, float(np.dot(bis, n1)))))
    return out


def _signed_area(p):
    x, y = p[:, 0], p[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def _normal(v):
    """Outward normal of an edge of a polygon of positive signed area (y down)."""
    n = np.array([v[1], -v[0]], dtype=np.float64)
    return n / np.linalg.norm(n)


def _bezier(p0, c, p1, n=10):
    t = np.linspace(0, 1, n)[:, None]
    p0, c, p1 = (np.asarray(v, dtype=np.float64) for v in (p0, c, p1))
    return [tuple(v) for v in (1 - t) ** 2 * p0 + 2 * (1 - t) * t * c + t ** 2 * p1]


def _round_corners(pts, radius, closed=False, n=6):
    """The polyline with each interior corner replaced by a quadratic curve reaching `radius`."""
    if radius <= 0:
        return list(pts) + ([pts[0]] if closed else [])
    p = [np.asarray(v, dtype=np.float64) for v in pts]
    out = []
    m = len(p)
    for i in range(m):
        if not closed and i in (0, m - 1):
            out.append(tuple(p[i]))
            continue
        a, b = p[i - 1] - p[i], p[(i + 1) % m] - p[i]
        la, lb = np.linalg.norm(a), np.linalg.norm(b)
        out += _bezier(p[i] + a / la * min(radius, la / 2), p[i], p[i] + b / lb * min(radius, lb / 2), n)
    if closed:
        out.append(out[0])
    return out


def _clip_segment(p0, p1, poly):
    """The part of segment p0-p1 inside a convex polygon (Cyrus-Beck), or None."""
    p0, p1 = np.asarray(p0, dtype=np.float64), np.asarray(p1, dtype=np.float64)
    poly = np.asarray(poly, dtype=np.float64)
    if _signed_area(poly) < 0:
        poly = poly[::-1]
    t0, t1 = 0.0, 1.0
    d = p1 - p0
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        n = _normal(b - a)
        num, den = float(np.dot(n, a - p0)), float(np.dot(n, d))
        if abs(den) < 1e-12:
            if num < 0:
                return None
        elif den > 0:
            t1 = min(t1, num / den)
        else:
            t0 = max(t0, num / den)
    return (tuple(p0 + t0 * d), tuple(p0 + t1 * d)) if t0 < t1 else None


def rasterize_into(drawing, draw, scale, ox, oy):
    """Draw `drawing` with ImageDraw `draw` (mode L, ink 255), unit point p at p * scale + (ox, oy)
    in continuous pixel coordinates (pixel i spans [i, i + 1])."""
    ox, oy = ox - 0.5, oy - 0.5  # Pillow puts coordinate i at the centre of pixel i

    def xy(pts):
        return [(x * scale + ox, y * scale + oy) for x, y in pts]

    for op in drawing.ops:
        kind = op[0]
        if kind == "line":
            _, pts, w, closed, round_cap, erase, sharp = op
            wp = max(1, int(round(w * scale)))
            ink = 0 if erase else 255
            p = xy(pts)
            if closed:
                p = p + p[:2]
            draw.line(p, fill=ink, width=wp, joint="curve" if sharp and wp > 2 else None)
            if round_cap and not closed and wp > 2:
                for x, y in (p[0], p[-1]):
                    draw.ellipse([x - wp / 2 + 0.5, y - wp / 2 + 0.5, x + wp / 2 - 0.5, y + wp / 2 - 0.5], fill=ink)
        elif kind == "polygon":
            _, pts, erase = op
            draw.polygon(xy(pts), fill=0 if erase else 255)
        elif kind == "ellipse":
            _, cx, cy, rx, ry, w = op
            wp = max(1, int(round(w * scale)))
            x, y = cx * scale + ox, cy * scale + oy
            ax, ay = rx * scale + wp / 2, ry * scale + wp / 2
            draw.ellipse([x - ax + 0.5, y - ay + 0.5, x + ax - 0.5, y + ay - 0.5], outline=255, width=wp)
        elif kind == "disc":
            _, cx, cy, rx, ry, erase = op
            x, y = cx * scale + ox, cy * scale + oy
            ax, ay = rx * scale, ry * scale
            draw.ellipse([x - ax + 0.5, y - ay + 0.5, x + ax - 0.5, y + ay - 0.5], fill=0 if erase else 255)
        elif kind == "text":
            _, text, path, cx, cy, height = op
            ref = _ink_box(path, 100, text)
            px = _font_px(height * scale * 100.0 / max(1, ref[3] - ref[1]))  # within 3% of height
            x0, y0, x1, y1 = _ink_box(path, px, text)
            draw.text((cx * scale + ox + 0.5 - (x0 + x1) / 2, cy * scale + oy + 0.5 - (y0 + y1) / 2),
                      text, font=_font(path, px), fill=255)


def rasterize(drawing, scale, pad=1, ss=None):
    """The drawing at `scale` pixels per unit as (coverage float32 [h, w], x0, y0): the ink box plus
    `pad` pixels, anti-aliased by drawing at ss-times supersampling and averaging; (x0, y0) is
    where unit (0, 0) falls in the array's continuous pixel coordinates."""
    bx0, by0, bx1, by1 = drawing.bbox()
    if ss is None:
        ss = int(np.clip(math.ceil(6.0 / max(drawing.width * scale, 0.1)), 2, 4))
    w = int(math.ceil((bx1 - bx0) * scale)) + 2 * pad
    h = int(math.ceil((by1 - by0) * scale)) + 2 * pad
    ox, oy = pad - bx0 * scale, pad - by0 * scale
    canvas = Image.new("L", (w * ss, h * ss))
    rasterize_into(drawing, ImageDraw.Draw(canvas), scale * ss, ox * ss, oy * ss)
    coverage = np.asarray(canvas.reduce(ss), dtype=np.float32) / 255.0
    return coverage, ox, oy


# ================================================================ symbol geometry: shared parts

def _stroke_width(rng):
    """Main stroke width in units of the shape's width: thin to bold, 3% to 10%."""
    return float(np.exp(rng.uniform(np.log(0.03), np.log(0.10))))


@functools.lru_cache(maxsize=1)
def _upright_fonts():
    """The upright faces (symbols' digits and letters are hardly ever italic), grouped by family."""
    families = {}
    for path in _fonts():
        stem = os.path.splitext(os.path.basename(path))[0]
        if not any(tag in stem for tag in ("Italic", "It")):
            families.setdefault(stem.split("-")[0], []).append(path)
    return tuple(tuple(families[k]) for k in sorted(families))


def _pick_font(rng):
    """A font file for digits and letters (a family, then one of its weights, so that families
    with many weights do not dominate), or None for hand-drawn strokes."""
    families = _upright_fonts()
    if rng.random() < 0.25:
        return None
    faces = families[int(rng.integers(len(families)))]
    return faces[int(rng.integers(len(faces)))]


def _dot_rows(n, rng, max_per_row):
    """How n dots are arranged: counts per row, one row or two."""
    if n >= 4 and (n > max_per_row or rng.random() < 0.5):
        first = (n + 1) // 2 if rng.random() < 0.7 else n // 2
        return [first, n - first]
    if n == 3 and (n > max_per_row or rng.random() < 0.25):
        return [1, 2] if rng.random() < 0.5 else [2, 1]
    if n == 2 and n > max_per_row:
        return [1, 1]
    return [n]


def _dots(d, rng, n, cx, cy, max_w, max_h, r):
    """n filled dots centred on (cx, cy) inside a max_w x max_h region, in a row or two rows."""
    pitch = r * rng.uniform(2.3, 3.3)
    rows = _dot_rows(n, rng, max(1, int((max_w - 2 * r) // pitch) + 1))
    row_pitch = pitch * rng.uniform(0.85, 1.1)
    need_w = (max(rows) - 1) * pitch + 2 * r
    need_h = (len(rows) - 1) * row_pitch + 2 * r
    k = min(1.0, max_w / need_w, max_h / need_h)
    r, pitch, row_pitch = r * k, pitch * k, row_pitch * k
    for i, count in enumerate(rows):
        y = cy + (i - (len(rows) - 1) / 2) * row_pitch
        for j in range(count):
            d.disc(cx + (j - (count - 1) / 2) * pitch, y, r)


def _dot_radius(d, rng, lo=0.035, hi=0.065):
    return max(rng.uniform(lo, hi), 0.6 * d.width)


def _bars(d, rng, n, cx, bottom, width):
    """n short bars under a shape whose ink ends at y = bottom."""
    bw = d.width * rng.uniform(0.6, 1.1)
    y = bottom + rng.uniform(0.05, 0.24) + bw / 2
    step = bw + rng.uniform(0.04, 0.2)
    for _ in range(n):
        d.line([(cx - width / 2, y), (cx + width / 2, y)], bw)
        y += step


def _cross(d, rng, box, reach=(0.97, 1.12), width=None):
    """An X over the box (x0, y0, x1, y1), its arms reaching `reach` times the half-diagonal."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    k = rng.uniform(*reach)
    hx, hy = (x1 - x0) / 2 * k, (y1 - y0) / 2 * k * rng.uniform(0.95, 1.05)
    w = d.width * rng.uniform(0.75, 1.05) if width is None else width
    arms = [((cx - hx, cy - hy), (cx + hx, cy + hy)), ((cx + hx, cy - hy), (cx - hx, cy + hy))]
    for a, b in arms:
        d.line([a, b], w)
    return arms, w


def _glyph_style(rng):
    """Keyword arguments varying hand-drawn glyphs: narrower or wider, upright or leaning."""
    return {"squeeze": rng.uniform(0.8, 1.15), "slant": rng.uniform(0.05, 0.25) if rng.random() < 0.3 else 0.0}


def _number_text(temp, rng):
    return str(temp) + ["", "", "°", "°C", "°C", " °C"][int(rng.integers(6))]


# ================================================================ washing (tub)

WASH_SPEC = {  # code: (temperature, ASTM dots, bars)
    "wash-95": (95, 6, 0), "wash-70": (70, 5, 0), "wash-60": (60, 4, 0), "wash-60-mild": (60, 4, 1),
    "wash-50": (50, 3, 0), "wash-50-mild": (50, 3, 1), "wash-40": (40, 2, 0), "wash-40-mild": (40, 2, 1),
    "wash-40-very-mild": (40, 2, 2), "wash-30": (30, 1, 0), "wash-30-mild": (30, 1, 1),
    "wash-30-very-mild": (30, 1, 2), "wash-machine": (None, 0, 0), "wash-no": (None, 0, 0),
    "wash-machine-permanent-press": (None, 0, 1), "wash-machine-delicate": (None, 0, 2),
    "wash-hand": (None, 0, 0), "wash-hand-ambient": (None, 0, 0),
}


class _Tub:
    """The tub's dimensions: top 1 wide from x = 0, bottom at y = h, water line below `water`."""

    def __init__(self, h, slope, water, top):
        self.h, self.slope, self.water, self.top = h, slope, water, top

    def inner(self, y, margin):
        """x range inside the walls at height y, `margin` clear of them."""
        inset = self.slope * y / self.h
        return inset + margin, 1 - inset - margin


def _tub(d, rng):
    """Walls and bottom (a trapezoid without its top edge) and the wavy water line."""
    h = rng.uniform(0.58, 0.78)
    slope = rng.uniform(0.05, 0.16)
    rim = rng.uniform(0.05, 0.22) * h if rng.random() < 0.6 else 0.0
    amp = rng.uniform(0.022, 0.06)
    waves = float(rng.choice([1.5, 2.0, 2.5, 3.0, 3.5, 4.0]))
    phase = float(rng.choice([0.0, np.pi])) + (rng.uniform(-0.5, 0.5) if rim > 0 else 0.0)
    d.line(_round_corners([(0, 0), (slope, h), (1 - slope, h), (1, 0)], rng.uniform(0, 0.06)))
    xl = slope * rim / h
    xs = np.linspace(xl, 1 - xl, 40)
    ys = rim - amp * np.sin(2 * np.pi * waves * (xs - xl) / (1 - 2 * xl) + phase)
    d.line(zip(xs, ys))
    return _Tub(h, slope, rim + amp, min(0.0, rim - amp))


def _tub_number(d, rng, tub, temp):
    """The temperature as digits in the water (a "°" or "°C" may follow)."""
    font = _pick_font(rng)
    text = _number_text(temp, rng)
    y0, y1 = tub.water + d.width, tub.h - d.width / 2
    height = (y1 - y0) * rng.uniform(0.55, 0.82)
    cy = (y0 + y1) / 2 + rng.uniform(-0.1, 0.1) * (y1 - y0 - height)
    lo, hi = tub.inner(cy + height / 2, d.width * 1.2)
    height = min(height, (hi - lo) / (text_width(text, font, 1.0)))
    style = _glyph_style(rng)
    height = min(height, (hi - lo) / (text_width(text, font, 1.0) * (style["squeeze"] if font is None else 1)))
    d.text(text, font, 0.5, cy, height, width=d.width * rng.uniform(0.7, 1.0), **style)


def _tub_dots(d, rng, tub, n):
    y0, y1 = tub.water + d.width, tub.h - d.width / 2
    lo, hi = tub.inner(y1, d.width * 1.2)
    _dots(d, rng, n, 0.5, (y0 + y1) / 2, hi - lo, y1 - y0, _dot_radius(d, rng))


def _hand_outline(rng):
    """A hand pointing down (+y), wrist at y = 0, forearm going up; its thumb on the left."""
    tip_y, half = 0.38, 0.15
    if rng.random() < 0.5:
        tip = _arc(0.0, tip_y, half, half * rng.uniform(0.8, 1.2), 180, 0, 11)
    else:  # four finger tips
        r = half / 4
        tip = sum((_arc(-half + r * (2 * i + 1), tip_y + (0.03 if i in (1, 2) else 0), r, r * 1.2, 180, 0, 5)
                   for i in range(4)), [])
    return ([(-0.1, -2.0), (-0.1, 0.0), (-0.17, 0.05), (-0.25, 0.09), (-0.29, 0.13), (-0.26, 0.17),
             (-0.15, 0.22), (-half, tip_y)] + tip + [(half, 0.12), (0.1, 0.0), (0.1, -2.0)])


def _hand(d, rng, tub):
    """A hand dipping into the tub from above (fingers pointing down and to the left, or now and then
    to the right, forearm leaving the top); returns its outline points."""
    p = np.asarray(_hand_outline(rng))
    if rng.random() < 0.5:
        p[:, 0] = -p[:, 0]  # thumb on the other side
    p[:, 0] *= rng.uniform(1.0, 1.45)  # slender hand to broad mitten
    k = rng.uniform(0.9, 1.2) if rng.random() < 0.5 else rng.uniform(1.2, 1.6)  # big hands fill the tub
    a = np.radians(rng.uniform(8, 55) * (-1 if rng.random() < 0.12 else 1))  # mostly from the upper right
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    p = p * k @ rot.T
    tip = np.array([0.0, 0.53]) * k @ rot.T
    target = np.array([rng.uniform(0.4, 0.52), tub.water + rng.uniform(0.35, 0.6) * (tub.h - tub.water)])
    shift = target - tip
    p += shift
    # Cut the forearm where it leaves the picture, above the tub.
    y_cut = tub.top - (rng.uniform(0.15, 0.35) if rng.random() < 0.5 else rng.uniform(-0.02, 0.15))
    for i, j in ((0, 1), (-1, -2)):
        t = (y_cut - p[j, 1]) / (p[i, 1] - p[j, 1])
        p[i] = p[j] + t * (p[i] - p[j])
    style = rng.random()
    if style < 0.25:
        d.polygon(p)
    else:
        d.polygon(p, erase=True)
        d.line(p, round_cap=True)
        if style > 0.75:
            for x in (-0.075, 0.0, 0.075):
                seg = np.array([[x, 0.25], [x, 0.42]]) * k @ rot.T + shift
                d.line(seg, d.width * 0.7)
    return p


def _wash(code, rng):
    d = Drawing(_stroke_width(rng))
    tub = _tub(d, rng)
    temp, dots, bars = WASH_SPEC[code]
    if temp is not None:
        if rng.random() < 0.6:  # digits are the commoner drawing, and the harder to read
            _tub_number(d, rng, tub, temp)
        else:
            _tub_dots(d, rng, tub, dots)
    if code in ("wash-hand", "wash-hand-ambient"):
        hand = _hand(d, rng, tub)
        if code == "wash-hand-ambient" and rng.random() < 0.5:
            # ISO 3758:2023's own symbol: the hand-wash tub with one bar under it.
            bars = 1
        elif code == "wash-hand-ambient":
            # Also drawn (ASTM's "hand wash cold"): one dot in the water beside the hand.
            y = tub.h - d.width / 2 - rng.uniform(0.12, 0.2)
            spots = [(x, y) for x in (0.2, 0.3, 0.7, 0.8)] + [(0.5, y + 0.04)]
            far = max(spots, key=lambda s: np.min(np.hypot(hand[:, 0] - s[0], hand[:, 1] - s[1])))
            d.disc(far[0], far[1], _dot_radius(d, rng, 0.04, 0.065))
    if code == "wash-no":
        _cross(d, rng, (0, tub.top, 1, tub.h))
    if bars:
        _bars(d, rng, bars, 0.5, tub.h + d.width / 2, (1 - 2 * tub.slope) * rng.uniform(1.0, 1.3))
    return d


def _wring(rng):
    """A twisted cloth: two lobes joined by a twist, lying horizontally; crossed."""
    d = Drawing(_stroke_width(rng))
    length, half_h = rng.uniform(0.36, 0.46), rng.uniform(0.15, 0.25)
    twist, power = rng.uniform(0.015, 0.06), rng.uniform(0.5, 1.0)
    t = np.linspace(0, 2 * np.pi, 41)
    x = -(twist + length * (1 - np.cos(t)) / 2)
    y = half_h * np.sin(t) * ((1 - np.cos(t)) / 2) ** power
    flip = -1 if rng.random() < 0.5 else 1  # the right lobe turned over, as a twist does
    if rng.random() < 0.45:  # a sweet wrapper: each lobe fans out from the twist to a blunt end
        end_h = half_h * rng.uniform(1.0, 1.5)
        bulge = rng.uniform(-0.03, 0.05)
        for side in (-1, 1):
            ex = 0.5 + side * (twist + length)
            tx = 0.5 + side * twist
            top = [(tx + side * (ex - tx) * u, 0.3 - (twist + (end_h - twist) * u) - bulge * np.sin(np.pi * u))
                   for u in np.linspace(0, 1, 9)]
            bottom = [(x_, 0.6 - y_) for x_, y_ in top]
            d.line(top + [(ex + side * rng.uniform(-0.02, 0.03), 0.3)] + bottom[::-1], closed=True)
            if rng.random() < 0.5:  # creases running out of the twist
                for f in (-0.45, 0.45):
                    d.line([(tx + side * 0.04, 0.3), (tx + side * (ex - tx) * 0.6, 0.3 + f * end_h)], d.width * 0.6)
    else:
        d.line(zip(0.5 + x, 0.3 + y))
        d.line(zip(0.5 - x, 0.3 + flip * y))
    knot = rng.random()
    if knot < 0.4:
        d.ellipse(0.5, 0.3, twist + d.width * 0.3, rng.uniform(0.05, 0.1), d.width * 0.8)
    elif knot < 0.7:
        k = rng.uniform(0.05, 0.09)
        d.line([(0.5 - k * 0.6, 0.3 - k), (0.5 + k * 0.6, 0.3 + k)], d.width * 0.8)
        d.line([(0.5 + k * 0.6, 0.3 - k), (0.5 - k * 0.6, 0.3 + k)], d.width * 0.8)
    x0, y0, x1, y1 = d.bbox()
    # The cross is steeper than the cloth's flat box, so its arms do not lie along the lobes.
    half = max((y1 - y0) / 2 + 0.05, (x1 - x0) / 2 * rng.uniform(0.5, 0.85))
    _cross(d, rng, (x0, (y0 + y1) / 2 - half, x1, (y0 + y1) / 2 + half), reach=(0.85, 1.05))
    return d


# ================================================================ bleaching (triangle)

def _outline(d, rng, pts):
    """A closed convex outline with mitred corners or round joins."""
    if rng.random() < 0.5:
        d.ring(pts)
    else:
        d.line(pts, closed=True)


def _bleach(code, rng):
    d = Drawing(_stroke_width(rng))
    ht = rng.uniform(0.8, 0.9)
    tri = [(0.5, 0.0), (1.0, ht), (0.0, ht)]
    solid = code == "bleach-no" and rng.random() < 0.5
    if solid:
        d.polygon(_offset_convex(tri, d.width / 2))
    else:
        _outline(d, rng, tri)
    if code == "bleach-non-chlorine":
        # Two oblique lines from the base up to one side, parallel to the other: as drawn here
        # they meet the left side (parallel to the right one, as on many real labels); mirrored
        # they meet the right side, parallel to the left one, as ISO 3758's figure draws them.
        xb = rng.uniform(0.34, 0.48)
        lw = d.width * rng.uniform(0.8, 1.0)
        mirror = rng.random() < 0.5
        for base in (xb, min(0.85, xb + rng.uniform(0.17, 0.25))):
            a, b = np.array([base, ht]), np.array([0.5 * base, ht * (1 - base)])
            if mirror:
                a, b = np.array([1 - a[0], a[1]]), np.array([1 - b[0], b[1]])
            u = (b - a) / np.linalg.norm(b - a)
            inset = d.width * rng.uniform(0.4, 2.0)
            d.line([a + u * inset, b - u * inset], lw)
    elif code == "bleach-chlorine":
        font = _pick_font(rng)
        height = ht * rng.uniform(0.28, 0.4)
        cy = ht * rng.uniform(0.6, 0.68)
        room = (cy - height / 2) / ht - 3 * d.width
        height = min(height, room / text_width("Cl", font, 1.0))
        d.text("Cl", font, 0.5, cy, height, width=d.width * rng.uniform(0.7, 1.0))
    elif code == "bleach-no":
        arms, w = _cross(d, rng, (0, 0, 1, ht), reach=(1.08, 1.2) if solid else (0.95, 1.15))
        if solid and rng.random() < 0.6:
            for a, b in arms:  # the X knocked out of the solid triangle, ink outside it
                inside = _clip_segment(a, b, tri)
                if inside:
                    d.line(inside, w, erase=True)
    return d


# ================================================================ drying (square)

def _square(d, rng):
    """The square outline, 1 wide and a (0.9-1.1) high; returns a."""
    a = rng.uniform(0.9, 1.1)
    pts = [(0, 0), (1, 0), (1, a), (0, a)]
    if rng.random() < 0.2:
        d.line(_round_corners(pts, rng.uniform(0.03, 0.12), closed=True))
    else:
        _outline(d, rng, pts)
    return a


TUMBLE_SPEC = {"tumble-any": 0, "tumble-low": 1, "tumble-normal": 2, "tumble-high": 3,
               "tumble-no-heat": "solid", "tumble-no": "cross", "tumble-permanent-press": "bar1",
               "tumble-delicate": "bar2"}


def _tumble(code, rng):
    d = Drawing(_stroke_width(rng))
    a = _square(d, rng)
    gap = rng.uniform(0, 0.07) if rng.random() < 0.5 else 0.0
    rc = min(1, a) / 2 - d.width * rng.uniform(0.55, 1.0) - gap
    cx, cy = 0.5, a / 2
    spec = TUMBLE_SPEC[code]
    if spec == "solid":
        d.disc(cx, cy, rc + d.width / 2)
    else:
        d.ellipse(cx, cy, rc, rc)
    if isinstance(spec, int) and spec:
        inner = rc - d.width / 2
        _dots(d, rng, spec, cx, cy, inner * 1.35, inner * 1.2, _dot_radius(d, rng, 0.04, 0.07))
    if spec == "cross":
        _cross(d, rng, (0, 0, 1, a))
    if spec in ("bar1", "bar2"):
        _bars(d, rng, int(spec[-1]), 0.5, a + d.width / 2, rng.uniform(0.95, 1.15))
    return d


def _shade_lines(d, rng, limit):
    """The shade mark across the upper left corner, ending `limit` from it at most: one oblique
    line as ISO 3758 draws it, or two parallel ones as ASTM D5489 does (both occur on labels)."""
    lw = d.width * rng.uniform(0.8, 1.0)
    if rng.random() < 0.5:
        t = min(limit, rng.uniform(0.2, 0.34))
        d.line([(t, 0), (0, t)], lw)
        return
    t1 = rng.uniform(0.12, 0.2)
    t2 = t1 + rng.uniform(0.1, 0.15)
    if t2 > limit:
        t1, t2 = t1 * limit / t2, limit
    for t in (t1, t2):
        d.line([(t, 0), (0, t)], lw)


def _dry(code, rng):
    d = Drawing(_stroke_width(rng))
    a = _square(d, rng)
    kind = code.replace("-shade", "").replace("dry-", "")
    shade = code.endswith("shade")
    lw = d.width * rng.uniform(0.85, 1.05)
    limit = 0.45
    top = 0.0 if rng.random() < 0.8 else rng.uniform(0.04, 0.1) * a
    end = a if rng.random() < 0.4 else a * rng.uniform(0.55, 0.92)
    if kind == "line" and rng.random() < (0.3 if shade else 0.45):
        sag = a * rng.uniform(0.28, 0.5)  # ASTM: a line sagging from the upper corners
        y_end = rng.uniform(0.0, 0.12) * a
        xs = np.linspace(0, 1, 25)
        d.line(zip(xs, y_end + sag * (1 - (2 * xs - 1) ** 2)), lw)
    elif kind in ("line", "drip"):
        if kind == "line":
            xs = [0.5 + rng.uniform(-0.02, 0.02)]
        elif rng.random() < 0.6:
            s = rng.uniform(0.07, 0.14)
            xs = [0.5 - s, 0.5 + s]
        else:
            s = rng.uniform(0.14, 0.2)
            xs = [0.5 - s, 0.5, 0.5 + s]
        for x in xs:
            d.line([(x, top), (x, end)], lw)
        limit = min(limit, xs[0] - 1.5 * d.width - 0.03)
    elif kind in ("flat", "drip-flat"):
        ys = [a / 2] if kind == "flat" else [a / 2 - (s := rng.uniform(0.07, 0.13)), a / 2 + s]
        ys = [y + rng.uniform(-0.03, 0.03) for y in ys]
        g = 0.0 if rng.random() < 0.5 else rng.uniform(0.08, 0.18)
        for y in ys:
            d.line([(g, y), (1 - g, y)], lw)
        limit = min(limit, ys[0] - 1.5 * d.width - 0.03)
    if shade:
        _shade_lines(d, rng, max(0.12, limit))
    if code == "dry-no":
        _cross(d, rng, (0, 0, 1, a))
    return d


# ================================================================ ironing

IRON_DOTS = {"iron-any": 0, "iron-low": 1, "iron-medium": 2, "iron-high": 3, "iron-no": 0, "iron-no-steam": 0}


def _iron(code, rng):
    """A hand iron from the side: flat sole, nose on the left, handle loop on top."""
    d = Drawing(_stroke_width(rng))
    sole = rng.uniform(0.6, 0.75)
    top = sole - rng.uniform(0.42, 0.58) * sole  # top of the body; the handle reaches y = 0
    xn = rng.uniform(0.25, 0.45)
    slant = rng.uniform(0.0, 0.08)
    mid = np.array([xn / 2, (top + sole) / 2])
    ctrl = mid + rng.uniform(0, 1) * (np.array([0.02, top]) - mid)
    nose = _bezier((xn, top), ctrl, (0, sole), 12)
    body = _round_corners([(0, sole), (1, sole), (1 - slant, top), (xn, top)], rng.uniform(0, 0.08)) + nose[1:-1]
    d.line(body, closed=True)
    xr = 1 - slant - rng.uniform(0.04, 0.14)
    xf = xn + rng.uniform(-0.02, 0.12)
    style = rng.random()
    if style < 0.6:
        handle = _round_corners([(xr, top), (xr - rng.uniform(0, 0.1), 0), (xf + rng.uniform(0.04, 0.16), 0),
                                 (xf, top)], rng.uniform(0.04, 0.14))
    elif style < 0.85:
        handle = _bezier((xr, top), ((xr + xf) / 2, -top * rng.uniform(0.8, 1.0)), (xf, top), 16)
    else:  # a block on the body (a second tier), as some labels draw the handle
        inset = rng.uniform(0.03, 0.12)
        handle = _round_corners([(xr, top), (xr - inset, 0), (xf + inset + rng.uniform(0.0, 0.15), 0), (xf, top)],
                                rng.uniform(0.0, 0.05))
    d.line(handle)
    n = IRON_DOTS[code]
    if n:
        cy = top + (sole - top) * rng.uniform(0.45, 0.58)
        nose_x = np.interp(cy, [p[1] for p in nose], [p[0] for p in nose])
        r = min(_dot_radius(d, rng, 0.035, 0.06), (sole - top) / 2 - d.width)
        lo, hi = nose_x + d.width + r * 0.5, 1 - slant - d.width
        _dots(d, rng, n, (lo + hi) / 2 + rng.uniform(0, 0.04), cy, hi - lo, sole - top - 2 * d.width, r)
    if code == "iron-no":
        _cross(d, rng, (0, 0, 1, sole))
    if code == "iron-no-steam":
        _steam_crossed(d, rng, sole)
    return d


def _steam_crossed(d, rng, sole):
    """Two or three short steam lines under the sole, crossed by a small X."""
    n = 2 if rng.random() < 0.5 else 3
    pitch = rng.uniform(0.12, 0.3)
    length = rng.uniform(0.12, 0.32)
    lean = length * rng.uniform(-0.5, 0.5)
    cx = rng.uniform(0.4, 0.6)
    y0 = sole + d.width / 2 + rng.uniform(0.03, 0.14)
    lw = d.width * rng.uniform(0.7, 1.0)
    for i in range(n):
        x = cx + (i - (n - 1) / 2) * pitch
        d.line([(x + lean / 2, y0), (x - lean / 2, y0 + length)], lw)
    hx = (n - 1) * pitch / 2 + rng.uniform(0.06, 0.14)
    hy = length / 2 + rng.uniform(0.04, 0.1)
    cy = y0 + length / 2
    _cross(d, rng, (cx - hx, cy - hy, cx + hx, cy + hy), reach=(1.0, 1.0), width=lw)


# ================================================================ professional care (circle)

PRO_SPEC = {  # code: (letter, bars, crossed, tick at this clock hour)
    "pro-p": ("P", 0, False, None), "pro-p-mild": ("P", 1, False, None), "pro-f": ("F", 0, False, None),
    "pro-f-mild": ("F", 1, False, None), "pro-no": (None, 0, True, None), "pro-w": ("W", 0, False, None),
    "pro-w-mild": ("W", 1, False, None), "pro-w-very-mild": ("W", 2, False, None),
    "pro-w-no": ("W", 0, True, None), "pro-a": ("A", 0, False, None), "pro-any": (None, 0, False, None),
    "pro-short-cycle": (None, 0, False, 8), "pro-reduced-moisture": (None, 0, False, 10),
    "pro-low-heat": (None, 0, False, 2), "pro-no-steam-finishing": (None, 0, False, 4),
}


def _pro(code, rng):
    d = Drawing(_stroke_width(rng))
    d.ellipse(0.5, 0.5, 0.5, 0.5)
    letter, bars, crossed, hour = PRO_SPEC[code]
    if letter:
        font = _pick_font(rng)
        height = rng.uniform(0.42, 0.62)
        height = min(height, (0.74 - 2 * d.width) / text_width(letter, font, 1.0))
        d.text(letter, font, 0.5 + rng.uniform(-0.02, 0.02), 0.5 + rng.uniform(-0.02, 0.02), height,
               width=d.width * rng.uniform(0.75, 1.1), **_glyph_style(rng))
    if crossed:
        _cross(d, rng, (0, 0, 1, 1), reach=(0.72, 1.12))
    if bars:
        _bars(d, rng, bars, 0.5, 1 + d.width / 2, rng.uniform(0.7, 1.05))
    if hour:
        _tick(d, rng, hour)
    return d


def _tick(d, rng, hour):
    """ASTM's short straight mark outside the circle at a clock position."""
    theta = np.radians(hour * 30)
    out = np.array([np.sin(theta), -np.cos(theta)])
    along = np.array([-out[1], out[0]])
    length = rng.uniform(0.18, 0.3)
    c = 0.5 + out * (0.5 + d.width / 2 + rng.uniform(0.04, 0.12) + length / 2 * 0.5)
    mix = rng.random()
    direction = out if mix < 0.4 else along if mix < 0.8 else (out + along * rng.uniform(-1, 1))
    direction = direction / np.linalg.norm(direction)
    if mix < 0.4:
        c = c + out * length / 4
    d.line([c - direction * length / 2, c + direction * length / 2], d.width * rng.uniform(0.9, 1.2))


# ================================================================ symbols

def symbol_drawing(code, rng):
    """The vector Drawing of a code, with every variation the drawing page allows."""
    family = FAMILY[code]
    if code == "wring-no":
        return _wring(rng)
    if family == "washing":
        return _wash(code, rng)
    if family == "bleaching":
        return _bleach(code, rng)
    if family == "drying":
        return _tumble(code, rng) if code.startswith("tumble") else _dry(code, rng)
    if family == "ironing":
        return _iron(code, rng)
    return _pro(code, rng)


def draw_symbol(code, rng, size):
    """Ink coverage float32 (size, size) in [0, 1] of one drawing of `code`, its ink box centred and
    filling the square less a 6% margin; 4x supersampled."""
    d = symbol_drawing(code, rng)
    x0, y0, x1, y1 = d.bbox()
    scale = size * 0.88 / max(x1 - x0, y1 - y0)
    ox, oy = size / 2 - (x0 + x1) / 2 * scale, size / 2 - (y0 + y1) / 2 * scale
    canvas = Image.new("L", (size * 4, size * 4))
    rasterize_into(d, ImageDraw.Draw(canvas), scale * 4, ox * 4, oy * 4)
    return np.asarray(canvas.reduce(4), dtype=np.float32) / 255.0


# ================================================================ camera geometry

def _homography(angle_deg, persp, centre_in, centre_out, scale=1.0):
    """Page -> image: rotate and scale about centre_in, tilt by persp = (px, py) (per pixel), and
    put centre_in at centre_out."""
    a = math.radians(angle_deg)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    to_origin = np.array([[1, 0, -centre_in[0]], [0, 1, -centre_in[1]], [0, 0, 1]], dtype=np.float64)
    rotate = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], dtype=np.float64)
    tilt = np.array([[1, 0, 0], [0, 1, 0], [persp[0], persp[1], 1]], dtype=np.float64)
    to_out = np.array([[1, 0, centre_out[0]], [0, 1, centre_out[1]], [0, 0, 1]], dtype=np.float64)
    return to_out @ tilt @ rotate @ to_origin


def _warp_points(h, pts):
    """Points (n, 2) through homography h."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    x, y = p[:, 0], p[:, 1]
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    return np.stack([(h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w, (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w], axis=1)


def _pillow_coeffs(image_from_source, dx=0.0, dy=0.0):
    """Image.transform PERSPECTIVE coefficients for a homography source -> image, the output
    window starting at image pixel (dx, dy)."""
    shift = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], dtype=np.float64)
    inv = np.linalg.inv(image_from_source) @ shift
    inv /= inv[2, 2]
    return tuple(inv.ravel()[:8])


# ================================================================ surfaces and photographic effects

@functools.lru_cache(maxsize=16)
def _axes(n):
    """Pixel-centre coordinates of an n x n grid, centred: (x row vector, y column vector)."""
    v = np.arange(n, dtype=np.float32) - (n - 1) / 2
    return v[None, :], v[:, None]


@functools.lru_cache(maxsize=64)
def _lerp_matrix(n, cells):
    """(cells, n) weights interpolating `cells` samples linearly across n pixels."""
    pos = np.linspace(0, cells - 1, n)
    i = np.minimum(pos.astype(np.int64), cells - 2)
    t = pos - i
    m = np.zeros((cells, n), np.float32)
    m[i, np.arange(n)] = 1 - t
    m[i + 1, np.arange(n)] = t
    return m


def _smooth_field(rng, shape, cells=4):
    """A smooth random field in about [-1, 1]: a coarse random grid, bilinearly enlarged.

    einsum rather than matmul: OpenBLAS would spin up threads for the large product, which costs
    more CPU than it saves and fights the training's worker processes."""
    h, w = shape
    coarse = rng.uniform(-1, 1, (cells, cells)).astype(np.float32)
    rows = np.einsum("kc,ki->ic", coarse, _lerp_matrix(h, cells))
    return np.einsum("ik,kj->ij", rows, _lerp_matrix(w, cells))


TEXTURES = ["flat", "woven", "satin", "paper", "ribbed"]


def _texture(kind, rng, x, y, angle_deg, pitch=1.0):
    """A label surface: (relief, threads). relief is zero-mean, about unit amplitude; threads in
    [0, 1] is where the weave comes up (woven ink follows it), or None. x, y are pixel coordinates
    (a row and a column vector broadcast to the image); pitch scales the weave."""
    if angle_deg in (0.0, 90.0):  # axis-aligned: keep x and y separable, which is much cheaper
        u, v = (x, y) if angle_deg == 0.0 else (y, -x)
    else:
        a = math.radians(angle_deg)
        u = x * math.cos(a) + y * math.sin(a)
        v = y * math.cos(a) - x * math.sin(a)
    if kind == "woven":
        p1 = rng.uniform(2.2, 6.0) * pitch
        p2 = p1 * rng.uniform(0.8, 1.25)
        warp, weft = np.cos(2 * np.pi * u / p1), np.cos(2 * np.pi * v / p2)
        table = rng.normal(0, 0.35, 97).astype(np.float32)
        rows = table[np.floor(v / p2).astype(np.int64) % 97]
        threads = 0.5 + 0.5 * warp * weft
        return 0.6 * warp * weft + 0.3 * (warp + weft) + rows, threads
    if kind == "satin":
        fine = 0.25 * np.cos(2 * np.pi * u / (rng.uniform(1.6, 3.2) * pitch))
        span = float(np.max(np.abs(x)) + np.max(np.abs(y)))
        sheen = np.exp(-((v - rng.uniform(-0.6, 0.6) * span) / (rng.uniform(0.2, 0.7) * span)) ** 2)
        return fine + rng.uniform(0.5, 1.5) * (sheen - 0.4), None
    if kind == "ribbed":
        p = rng.uniform(5.0, 14.0) * pitch
        return 2.0 * np.abs(np.sin(np.pi * u / p)) ** rng.uniform(0.5, 2.0) - 1.0, None
    if kind == "paper":
        shape = np.broadcast_shapes(np.shape(x), np.shape(y))
        grain = rng.random(shape, dtype=np.float32) - 0.5
        if shape[0] * shape[1] < 20000:  # small crops: grain a little coarser than a pixel
            grain = ndimage.gaussian_filter(grain, rng.uniform(0.3, 0.7)) * 3
        return grain + _smooth_field(rng, shape, 5) * 0.6, None
    return np.zeros((1, 1), np.float32), None


def _blob(rng, n, max_area):
    """A soft blob (a finger, a crease of cloth, dirt) covering at most max_area of an n x n crop:
    its opacity mask."""
    x, y = _axes(n)
    area = rng.uniform(0.03, max_area) * n * n
    aspect = rng.uniform(0.45, 1.0)
    ra = math.sqrt(area / (math.pi * aspect))
    cx, cy = rng.uniform(-0.55, 0.55, 2) * n
    if rng.random() < 0.8:  # mostly over the crop's rim, as a thumb or a crease would be
        a = rng.uniform(0, 2 * np.pi)
        cx, cy = np.array([math.cos(a), math.sin(a)]) * n * rng.uniform(0.35, 0.6)
    a = rng.uniform(0, np.pi)
    dx, dy = x - cx, y - cy
    u = (dx * math.cos(a) + dy * math.sin(a)) / ra
    v = (dy * math.cos(a) - dx * math.sin(a)) / (ra * aspect)
    phi = np.arctan2(v, u)
    wobble = 1 + 0.12 * np.cos(2 * phi + rng.uniform(0, 6.3)) + 0.08 * np.cos(3 * phi + rng.uniform(0, 6.3))
    rho = np.sqrt(u * u + v * v) / wobble
    return np.clip((1 - rho) * ra / rng.uniform(0.8, 2.5), 0, 1)


def _half_plane(rng, n, distance, soft=1.0):
    """The part of an n x n crop beyond a straight line `distance` px from its centre, in a random
    direction: (mask, signed distance across the line, position along it)."""
    x, y = _axes(n)
    a = rng.uniform(0, 2 * np.pi)
    s = x * math.cos(a) + y * math.sin(a) - distance
    return np.clip(s / soft + 0.5, 0, 1), s, y * math.cos(a) - x * math.sin(a)


class _Look:
    """How a label looks in one picture: polarity, levels, surface. `difficulty` in [0, 1] bounds
    how bad it may get, so that few pictures are bad in every way at once."""

    def __init__(self, rng, angle, difficulty):
        self.dark_ink = rng.random() < 0.75
        contrast = 0.9 - 0.65 * difficulty * rng.random() ** 0.7
        if self.dark_ink:
            self.paper = rng.uniform(max(0.5, 0.02 + contrast), 0.97)
            self.ink = self.paper - contrast
        else:
            self.paper = rng.uniform(0.03, min(0.5, 0.98 - contrast))
            self.ink = self.paper + contrast
        self.kind = TEXTURES[int(rng.choice(5, p=[0.25, 0.3, 0.15, 0.15, 0.15]))]
        self.relief = contrast * rng.uniform(0.04, 0.1 + 0.2 * difficulty)
        self.angle = angle + rng.normal(0, 3)


def _ink_effects(c, rng, threads, difficulty):
    """Printing and weaving flaws on ink coverage c: bleed or thinning, fading, the weave showing
    through; stronger with difficulty in [0, 1]."""
    r = rng.random()
    k = 0.3 + 0.7 * difficulty
    if r < 0.2:
        c = np.clip(ndimage.gaussian_filter(c, rng.uniform(0.3, 0.9)) * rng.uniform(1.2, 2.0), 0, 1)
    elif r < 0.35:
        t = rng.uniform(0.1, 0.4) * k
        c = np.clip((ndimage.gaussian_filter(c, rng.uniform(0.3, 0.7)) - t) / (1 - t), 0, 1)
    if rng.random() < 0.3:
        c = c * (1 - rng.uniform(0.15, 0.5) * k * (0.5 + 0.5 * _smooth_field(rng, c.shape, 4)))
    if threads is not None and rng.random() < 0.7:
        c = c * (1 - rng.uniform(0.15, 0.5) * k * np.broadcast_to(threads, c.shape))
    return c * rng.uniform(0.85, 1.0)


def _finish_crop(img, rng, difficulty):
    """Camera and file: blur (sigma up to 1.5 px), noise, 8 bits, JPEG (quality 30-95)."""
    sigma = 1.5 * difficulty * rng.random() ** 0.7
    if sigma > 0.2:
        img = ndimage.gaussian_filter(img, sigma, mode="nearest")
    img = img + rng.normal(0, 0.045 * difficulty * rng.random(), img.shape)
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    if rng.random() < 0.75:
        out = _jpeg(out, int(round(95 - 65 * difficulty * rng.random())))
    return out


def _jpeg(a, quality):
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, "JPEG", quality=quality)
    buf.seek(0)
    return np.asarray(Image.open(buf).convert("RGB" if a.ndim == 3 else "L"))


# ================================================================ crops

class _CropView:
    """The flat label around a crop (the page, 1.6 times the crop) and the camera that sees it:
    rotation up to +-12 degrees and a mild perspective. Ink is drawn on the page at 2x the working
    resolution (itself 2x the crop), then warped into the crop."""

    SS = 2

    def __init__(self, rng, size):
        self.size = size
        self.n = 2 * size
        self.page = int(round(self.n * 1.6))
        self.angle = rng.uniform(-12, 12)
        persp = rng.uniform(-0.1, 0.1, 2) / (self.n / 2)
        c = self.page / 2
        self.h = _homography(self.angle, persp, (c, c), (self.n / 2, self.n / 2), rng.uniform(0.97, 1.03))
        self.h_inv = np.linalg.inv(self.h)
        self.canvas = Image.new("L", (self.page * self.SS, self.page * self.SS))
        self.draw = ImageDraw.Draw(self.canvas)

    def place(self, drawing, scale, centre):
        """Draw `drawing` at `scale` page pixels per unit, its ink box centred on page point centre."""
        x0, y0, x1, y1 = drawing.bbox()
        ox = centre[0] - (x0 + x1) / 2 * scale
        oy = centre[1] - (y0 + y1) / 2 * scale
        rasterize_into(drawing, self.draw, scale * self.SS, ox * self.SS, oy * self.SS)

    def fit(self, drawing, fill, centre_out):
        """(scale, page centre) making the drawing's warped ink box `fill` of the crop at its
        largest side, centred on crop point centre_out (working pixels)."""
        pts = drawing.outline_points()
        x0, y0, x1, y1 = drawing.bbox()
        pts = pts - [(x0 + x1) / 2, (y0 + y1) / 2]
        centre = _warp_points(self.h_inv, [centre_out])[0]
        q = _warp_points(self.h, pts + centre)
        scale = fill * self.n / max(np.ptp(q, axis=0))
        q = _warp_points(self.h, pts * scale + centre)
        got = (q.min(axis=0) + q.max(axis=0)) / 2
        centre = centre + _warp_points(self.h_inv, [centre_out])[0] - _warp_points(self.h_inv, [got])[0]
        return scale, centre

    def to_page(self, point_out):
        return _warp_points(self.h_inv, [point_out])[0]

    def ink(self):
        """Ink coverage at crop resolution (size x size, float32): warped at the working
        resolution, then averaged 2 x 2."""
        small = self.canvas.reduce(self.SS)
        warped = small.transform((self.n, self.n), Image.Transform.PERSPECTIVE, _pillow_coeffs(self.h),
                                 Image.Resampling.BILINEAR)
        return np.asarray(warped.reduce(2), dtype=np.float32) / 255.0


def _photograph_crop(view, rng, edge=None, occlusion=True):
    """A crop of view's ink on a label surface, photographed: uint8 (size, size).

    edge: None, or the distance (a fraction of the crop, from its centre) beyond which the label
    ends (the garment, a seam or a fold shows there)."""
    n = view.size
    difficulty = rng.random() ** 1.2
    look = _Look(rng, view.angle, difficulty)
    x, y = _axes(n)
    relief, threads = _texture(look.kind, rng, x, y, look.angle, pitch=0.6)
    c = _ink_effects(view.ink(), rng, threads, difficulty)
    surface = look.paper + look.relief * relief
    ink = look.ink + look.relief * 0.5 * relief
    img = surface + (ink - surface) * c
    if edge is not None:
        img = _crop_edge(img, rng, n, edge * n, look)
    if rng.random() < 0.25:  # a fold: a shading band
        _, s, _ = _half_plane(rng, n, rng.uniform(-0.4, 0.4) * n)
        band = rng.uniform(-0.25, 0.25) * np.tanh(s / rng.uniform(1, 5)) + rng.uniform(0, 0.2) * np.exp(
            -(s / rng.uniform(1, 4)) ** 2)
        img = img * (1 + band)
    if occlusion and rng.random() < 0.15:
        # A blob of up to 15% of the crop that hides at most a sliver of the ink: the marks that
        # tell codes apart (a tick, a dot, a bar, the shade lines) are small, and a crop whose
        # mark is hidden would be mislabelled.
        ink_mass = float(c.sum()) + 1e-6
        for _ in range(3):
            m = _blob(rng, n, 0.15)
            if float((m * c).sum()) / ink_mass < 0.03:
                colour = rng.uniform(0.1, 0.9) * (1 + 0.15 * _smooth_field(rng, (n, n), 3))
                img = img * (1 - m) + colour * m
                break
    light = 1 + rng.uniform(0, 0.35) * _smooth_field(rng, (n, n), 3) + (x * rng.uniform(-1, 1) + y * rng.uniform(-1, 1)) * (
        rng.uniform(0, 0.4) / n)
    img = img * light + rng.uniform(-0.05, 0.05)
    return _finish_crop(img.astype(np.float32), rng, difficulty)


def _crop_edge(img, rng, n, distance, look):
    """The label ending beyond `distance`: garment or table there, sometimes a seam of stitches."""
    mask, s, t = _half_plane(rng, n, distance, soft=rng.uniform(0.5, 2.0))
    other = float(np.clip(look.paper + rng.choice([-1, 1]) * rng.uniform(0.12, 0.5), 0.02, 0.98))
    x, y = _axes(n)
    relief, _ = _texture(TEXTURES[int(rng.integers(5))], rng, x, y, rng.uniform(0, 180), rng.uniform(0.5, 1.0))
    garment = other + rng.uniform(0.02, 0.12) * relief - rng.uniform(0, 0.15) * np.exp(-np.clip(s, 0, None) / 2)
    img = img * (1 - mask) + garment * mask
    if rng.random() < 0.35:  # stitches along the edge, on the label
        along = np.abs(s + rng.uniform(1.5, 4.5)) < rng.uniform(0.4, 0.9)
        dashes = np.cos(2 * np.pi * t / rng.uniform(2, 4.5)) > rng.uniform(-0.3, 0.3)
        img = np.where(along & dashes, look.ink * rng.uniform(0.6, 1.2), img)
    return img


# ================================================================ words

FIBRES = ["COTTON", "POLYESTER", "VISCOSE", "ELASTANE", "WOOL", "LINEN", "NYLON", "ACRYLIC", "SILK",
          "POLYAMIDE", "CASHMERE", "LYOCELL", "MODAL", "COTON", "BAUMWOLLE", "ALGODÓN", "COTONE",
          "KATOEN", "LAINE", "WOLLE", "LANA", "SEDA", "SOIE", "LEINEN", "POLIESTERE", "ELASTHAN",
          "BAWEŁNA", "BOMULD", "PUUVILLA", "ΒΑΜΒΑΚΙ", "ХЛОПОК", "Cotton", "Polyester", "Viscose"]
ORIGINS = ["MADE IN CHINA", "MADE IN BANGLADESH", "MADE IN PORTUGAL", "MADE IN TURKEY", "MADE IN VIETNAM",
           "MADE IN INDIA", "MADE IN ITALY", "MADE IN SRI LANKA", "MADE IN CAMBODIA", "FABRIQUÉ EN TURQUIE",
           "HECHO EN MÉXICO", "FABRICADO EN ESPAÑA", "HERGESTELLT IN INDIEN", "PRODOTTO IN ITALIA",
           "Made in China", "Made in Pakistan", "FABRIQUÉ AU MAROC", "MADE IN P.R.C."]
SIZES = ["S", "M", "L", "XL", "XXL", "XS", "EUR 40", "UK 12", "US 8", "38", "42/44", "M/M", "TAILLE M",
         "GRÖSSE 40", "T.40", "164 cm", "L/G", "XL/TG", "W32 L34"]
PHRASES = ["WASH INSIDE OUT", "WASH DARK COLOURS SEPARATELY", "DO NOT SOAK", "LAVER À L'ENVERS",
           "NICHT IN DEN TROCKNER", "COOL IRON", "RESHAPE WHILE DAMP", "LAVAR DEL REVÉS",
           "WASH WITH SIMILAR COLOURS", "REMOVE PROMPTLY", "Wash separately", "Do not iron print",
           "LAVARE A ROVESCIO", "SEPARAT WASCHEN", "NO USAR SECADORA", "EXCLUSIVE OF DECORATION",
           "SEE REVERSE", "MACHINE WASH COLD", "TUMBLE DRY LOW", "LINING / FUTTER / DOUBLURE"]
CODES_TEXT = ["RN 54321", "CA 12345", "ART. 4821-22", "STYLE 10293", "LOT 7741", "06/23", "REF 5520/301",
              "SS24", "PO 889120", "EAN 4006381333931", "100%", "40", "XL", "30°", "40°C", "60°", "95"]
LOGO_WORDS = ["NORDA", "Kestrel", "MAISON LUNE", "atelier", "VERANO", "Hollis & Co", "ZEPHYR", "OKO",
              "brava", "TEXA", "Mirren", "LUXE"]
_SYLLABLES = ["ka", "lo", "mi", "ter", "san", "ro", "vel", "di", "an", "os", "tra", "ne", "bu", "fi", "que",
              "ri", "po", "lan", "zu", "mer", "ch", "au", "ei", "ko"]


def _word(rng):
    w = "".join(_SYLLABLES[int(i)] for i in rng.integers(len(_SYLLABLES), size=int(rng.integers(1, 4))))
    return w.upper() if rng.random() < 0.6 else w


def _fibre_line(rng):
    if rng.random() < 0.4:
        return "100% " + " / ".join(FIBRES[int(i)] for i in rng.choice(len(FIBRES), int(rng.integers(1, 4)), False))
    p = int(rng.integers(2, 19)) * 5
    a, b = rng.choice(len(FIBRES), 2, False)
    return f"{100 - p}% {FIBRES[int(a)]} {p}% {FIBRES[int(b)]}"


def _text_line(rng):
    """One line of label text: fibre content, origin, size, care phrase, reference or words."""
    r = rng.random()
    if r < 0.3:
        return _fibre_line(rng)
    if r < 0.45:
        return ORIGINS[int(rng.integers(len(ORIGINS)))]
    if r < 0.55:
        return " ".join(SIZES[int(i)] for i in rng.choice(len(SIZES), int(rng.integers(1, 4)), False))
    if r < 0.72:
        return PHRASES[int(rng.integers(len(PHRASES)))]
    if r < 0.82:
        return CODES_TEXT[int(rng.integers(len(CODES_TEXT)))]
    return " ".join(_word(rng) for _ in range(int(rng.integers(1, 5))))


def _short_text(rng):
    """What a crop of label text may hold: a word, a number, a size."""
    r = rng.random()
    if r < 0.3:
        return CODES_TEXT[int(rng.integers(len(CODES_TEXT)))]
    if r < 0.45:
        return SIZES[int(rng.integers(len(SIZES)))]
    if r < 0.55:
        return "PFWACl"[int(rng.integers(6))] if rng.random() < 0.8 else "Cl"
    if r < 0.75:
        return _text_line(rng).split(" ")[0]
    return _text_line(rng)


def _text_font(rng):
    fonts = _fonts()
    return fonts[int(rng.integers(len(fonts)))] if fonts else None


def _text_drawing(lines, rng, font=None, line_gap=None):
    """Lines of text as a Drawing, cap height 1, centred or left-aligned."""
    font = font or _text_font(rng)
    d = Drawing(0.12)
    gap = rng.uniform(1.3, 1.8) if line_gap is None else line_gap
    left = rng.random() < 0.5
    for i, line in enumerate(lines):
        chars = "".join(ch for ch in line if font is not None or ch in _GLYPHS)
        if not chars.strip():
            continue
        w = text_width(chars, font, 1.0)
        d.text(chars, font, w / 2 if left else 0.0, i * gap, 1.0)
    return d


# ================================================================ crops

def _random_code(rng):
    return CODES[int(rng.integers(len(CODES)))]


def _neighbours(view, rng, scale, centre, box_units):
    """Symbols or text beside the main symbol (drawn at `scale`, centred on page point `centre`,
    ink box box_units), close enough that the crop's edges cut them."""
    half = np.array([box_units[2] - box_units[0], box_units[3] - box_units[1]]) * scale / 2
    for _ in range(int(rng.integers(1, 3))):
        axis = 0 if rng.random() < 0.7 else 1
        sign = rng.choice([-1, 1])
        if rng.random() < 0.65:
            other = symbol_drawing(_random_code(rng), rng)
            s = scale * rng.uniform(0.85, 1.15)
        else:
            other = _text_drawing([_short_text(rng) if axis == 0 else _text_line(rng)], rng)
            s = 2 * half[1] * rng.uniform(0.15, 0.4)
        ob = other.bbox()
        other_half = np.array([ob[2] - ob[0], ob[3] - ob[1]]) * s / 2
        offset = np.zeros(2)
        offset[axis] = sign * (half[axis] + other_half[axis] + rng.uniform(0.08, 0.5) * 2 * half.max())
        offset[1 - axis] = rng.uniform(-0.15, 0.15) * 2 * half.max()
        view.place(other, s, centre + offset)


def render_symbol_crop(code, rng, size=48, fill_range=(0.6, 0.9)):
    """A detector's crop of one symbol, uint8 grey (size, size): the symbol's ink box fills a share
    of the crop drawn from `fill_range` (60-90%), its centre within +-8%, photographed (label
    surface, polarity, contrast down to 0.25, rotation, perspective, blur, noise, JPEG, flaws,
    occluders, neighbours cut by the edges)."""
    view = _CropView(rng, size)
    d = symbol_drawing(code, rng)
    centre_out = view.n / 2 + rng.uniform(-0.08, 0.08, 2) * view.n
    fill = rng.uniform(*fill_range)
    scale, centre = view.fit(d, fill, centre_out)
    if rng.random() < 0.35:
        _neighbours(view, rng, scale, centre, d.bbox())
    view.place(d, scale, centre)
    edge = None
    if rng.random() < 0.1:
        edge = rng.uniform(fill / 2 + 0.1, 0.75)
    return _photograph_crop(view, rng, edge)


def _logo(rng):
    """A logo-like shape that is no care symbol: star, heart, framed word, diamond, wordmark."""
    d = Drawing(float(np.exp(rng.uniform(np.log(0.03), np.log(0.1)))))
    kind = int(rng.integers(6))
    filled = rng.random() < 0.4
    if kind == 0:
        k = int(rng.integers(5, 8))
        inner = rng.uniform(0.38, 0.55)
        t = np.linspace(-np.pi / 2, 1.5 * np.pi, 2 * k, endpoint=False)
        r = np.where(np.arange(2 * k) % 2 == 0, 0.5, 0.5 * inner)
        pts = list(zip(0.5 + r * np.cos(t), 0.5 + r * np.sin(t)))
        d.polygon(pts) if filled else d.line(pts, closed=True)
    elif kind == 1:
        t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
        x = 16 * np.sin(t) ** 3
        y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        pts = list(zip(0.5 + x / 34, 0.5 + y / 34))
        d.polygon(pts) if filled else d.line(pts, closed=True)
    elif kind == 2:
        word = LOGO_WORDS[int(rng.integers(len(LOGO_WORDS)))]
        font = _text_font(rng)
        h = 0.3
        w = text_width(word, font, h) + rng.uniform(0.15, 0.4)
        d.line(_round_corners([(0, 0), (w, 0), (w, 0.6), (0, 0.6)], rng.uniform(0, 0.15), closed=True))
        d.text(word, font, w / 2, 0.3, h)
    elif kind == 3:
        pts = [(0.5, 0), (1, 0.5), (0.5, 1), (0, 0.5)]
        d.polygon(pts) if filled else d.line(pts, closed=True)
        if rng.random() < 0.6:
            d.text(LOGO_WORDS[int(rng.integers(len(LOGO_WORDS)))][0], _text_font(rng), 0.5, 0.5, 0.3)
    elif kind == 4:
        d.text(LOGO_WORDS[int(rng.integers(len(LOGO_WORDS)))], _text_font(rng), 0, 0, 1.0)
    else:
        d.text("®©™&"[int(rng.integers(4))], _text_font(rng), 0, 0, 1.0)
    return d


def _pattern(rng):
    """Solid round things that are no care symbol: polka dots, a button with its holes, one disc
    or a few. (A thin empty circle would be `pro-any`, so there is none; dots never sit in a
    frame.)"""
    d = Drawing(0.06)
    kind = int(rng.integers(4))
    if kind == 0:  # polka dots, square or staggered grid, running past the crop
        r = rng.uniform(0.05, 0.16)
        pitch = r * rng.uniform(2.6, 5.0)
        stagger = rng.random() < 0.5
        for j, y in enumerate(np.arange(-1.0, 2.0, pitch)):
            for x in np.arange(-1.0, 2.0, pitch):
                d.disc(x + (pitch / 2 if stagger and j % 2 else 0.0), y, r)
    elif kind == 1:  # a button: a disc with two or four holes, sometimes a rim
        d.disc(0.5, 0.5, 0.5)
        if rng.random() < 0.5:
            d.disc(0.5, 0.5, rng.uniform(0.36, 0.42), erase=True)
            d.disc(0.5, 0.5, rng.uniform(0.3, 0.34))
        k = 2 if rng.random() < 0.5 else 4
        a0 = rng.uniform(0, np.pi)
        for i in range(k):
            a = a0 + 2 * np.pi * i / k
            d.disc(0.5 + 0.12 * np.cos(a), 0.5 + 0.12 * np.sin(a), rng.uniform(0.04, 0.07), erase=True)
    elif kind == 2:  # one disc or ellipse
        d.disc(0.5, 0.5, 0.5, 0.5 * rng.uniform(0.6, 1.0))
    else:  # a few scattered dots of different sizes
        for _ in range(int(rng.integers(2, 7))):
            d.disc(rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.05, 0.18))
    return d


def render_negative_crop(rng, size=48):
    """A crop a detector may propose on a label that is not a care symbol, uint8 grey (size, size):
    text, an edge, seam or fold, bare fabric, a symbol mostly outside, two half symbols, a logo, a
    close-up of part of a symbol, or nothing; photographed as render_symbol_crop does."""
    view = _CropView(rng, size)
    n = view.n
    kind = rng.choice(["text", "edge", "blank", "offcentre", "halves", "logo", "closeup", "pattern"],
                      p=[0.24, 0.09, 0.09, 0.15, 0.11, 0.13, 0.08, 0.11])
    edge = None
    if kind == "text":
        lines = [_short_text(rng) for _ in range(int(rng.choice([1, 1, 2, 3])))]
        d = _text_drawing(lines, rng)
        scale, centre = view.fit(d, rng.uniform(0.3, 1.3), n / 2 + rng.uniform(-0.2, 0.2, 2) * n)
        view.place(d, min(scale, n * rng.uniform(0.12, 0.45)), centre)
    elif kind == "edge":
        edge = rng.uniform(-0.35, 0.35)
        if rng.random() < 0.4:
            d = _text_drawing([_text_line(rng)], rng)
            view.place(d, n * rng.uniform(0.1, 0.25), view.to_page(rng.uniform(0.2, 0.8, 2) * n))
    elif kind == "offcentre":
        d = symbol_drawing(_random_code(rng), rng)
        a = rng.uniform(0, 2 * np.pi)
        direction = np.array([math.cos(a), math.sin(a)])
        fill = rng.uniform(0.6, 1.0)
        shift = rng.uniform(0.5, 0.5 + fill / 2) * n  # the centre on or past an edge of the crop
        scale, centre = view.fit(d, fill, n / 2 + shift * direction / np.abs(direction).max())
        view.place(d, scale, centre)
    elif kind == "halves":
        axis = 0 if rng.random() < 0.75 else 1
        fill = rng.uniform(0.55, 0.9)
        for sign in (-1, 1):
            d = symbol_drawing(_random_code(rng), rng)
            at = np.full(2, n / 2) + rng.uniform(-0.06, 0.06, 2) * n
            at[axis] += sign * rng.uniform(0.42, 0.6) * n
            scale, centre = view.fit(d, fill * rng.uniform(0.9, 1.1), at)
            view.place(d, scale, centre)
    elif kind == "logo":
        d = _logo(rng)
        scale, centre = view.fit(d, rng.uniform(0.45, 0.9), n / 2 + rng.uniform(-0.08, 0.08, 2) * n)
        view.place(d, scale, centre)
    elif kind == "closeup":
        d = symbol_drawing(_random_code(rng), rng)
        scale, centre = view.fit(d, rng.uniform(1.8, 3.2), n / 2 + rng.uniform(-0.6, 0.6, 2) * n)
        view.place(d, scale, centre)
    elif kind == "pattern":
        d = _pattern(rng)
        scale = n * (rng.uniform(0.6, 1.4) if len(d.ops) > 12 else rng.uniform(0.15, 0.85))
        view.place(d, scale, view.to_page(n / 2 + rng.uniform(-0.15, 0.15, 2) * n))
    if kind != "blank" and rng.random() < 0.2:
        d = _text_drawing([_text_line(rng)], rng)
        view.place(d, n * rng.uniform(0.1, 0.2), view.to_page((rng.uniform(0.1, 0.9) * n, rng.choice([0.05, 0.95]) * n)))
    return _photograph_crop(view, rng, edge)


# ================================================================ colours and scenes

LABEL_COLOURS = {  # name: (RGB, weight)
    "white": ((246, 246, 242), 0.33), "cream": ((240, 230, 205), 0.14), "grey": ((170, 172, 175), 0.1),
    "black": ((28, 28, 30), 0.15), "navy": ((30, 38, 72), 0.06), "red": ((168, 32, 40), 0.04),
    "beige": ((205, 190, 160), 0.06), "green": ((50, 95, 60), 0.03), "pink": ((235, 190, 200), 0.04),
    "blue": ((90, 130, 190), 0.05),
}
SKIN = [(241, 194, 167), (224, 172, 140), (198, 134, 98), (160, 106, 72), (110, 72, 50), (232, 190, 160)]


def _jitter_colour(rng, rgb, amount=12):
    return np.clip(np.asarray(rgb, np.float32) + rng.normal(0, amount, 3), 0, 255)


def _label_colours(rng):
    """(label RGB, ink RGB): dark ink on a light label or light ink on a dark one, sometimes faint."""
    names = list(LABEL_COLOURS)
    weights = np.array([LABEL_COLOURS[k][1] for k in names])
    base = _jitter_colour(rng, LABEL_COLOURS[names[int(rng.choice(len(names), p=weights / weights.sum()))]][0])
    light = base.mean() > 120
    contrast = 0.3 + 0.65 * rng.random() ** 0.7
    if light:
        ink = base * (1 - contrast) + _jitter_colour(rng, (25, 25, 30), 15) * contrast * rng.uniform(0.3, 1.0)
    else:
        ink = base + (_jitter_colour(rng, (235, 230, 215), 15) - base) * contrast
    return base, np.clip(ink, 0, 255)


def _merge_rgb(c1, c2, mix, relief):
    """An RGB image from two colours mixed by `mix` in [0, 1] and multiplied by `relief` (2-D
    arrays broadcasting to one shape), channel by channel (numpy is slow at (h, w, 3) broadcasts)."""
    shape = np.broadcast_shapes(np.shape(mix), np.shape(relief))
    bands = [Image.fromarray(np.clip(np.broadcast_to((c1[k] + (c2[k] - c1[k]) * mix) * relief, shape), 0, 255)
                             .astype(np.uint8)) for k in range(3)]
    return Image.merge("RGB", bands)


def _scene_background(rng, w, h):
    """What the label lies on, RGB Image (w, h): knit, stripes, plaid, gingham, polka-dot, denim,
    heathered or plain garment fabric, or a wooden or plain table, with soft folds and shading. Drawn at half
    resolution and enlarged."""
    hw, hh = (w + 1) // 2, (h + 1) // 2
    x = np.arange(hw, dtype=np.float32)[None, :]
    y = np.arange(hh, dtype=np.float32)[:, None]
    kind = rng.choice(["plain", "knit", "stripes", "plaid", "denim", "heather", "wood", "polka", "gingham"])
    c1 = rng.uniform(0, 255, 3).astype(np.float32)
    c2 = rng.uniform(0, 255, 3).astype(np.float32)
    p = rng.uniform(2, 6)
    mix, relief = np.zeros((1, 1), np.float32), np.ones((1, 1), np.float32)
    if kind == "knit":
        relief = 1 + 0.15 * np.cos(2 * np.pi * (y + np.abs(np.mod(x, p) - p / 2) * rng.uniform(0.6, 1.4)) / (p * 0.8))
    elif kind == "stripes":
        mix = (np.mod(y, p * rng.uniform(2, 8)) < p * rng.uniform(1, 4)).astype(np.float32)
    elif kind == "plaid":
        period = p * rng.uniform(3, 8)
        mix = 0.5 * ((np.mod(x, period) < period * rng.uniform(0.2, 0.5)).astype(np.float32)
                     + (np.mod(y, period) < period * rng.uniform(0.2, 0.5)).astype(np.float32))
    elif kind == "polka":  # dots 2 to 20 px across (at this half resolution), square or staggered
        r = rng.uniform(1.0, 10.0)
        pitch = r * rng.uniform(2.4, 5.0)
        shift = (np.floor(y / pitch) % 2) * pitch / 2 if rng.random() < 0.5 else 0.0
        dx = np.mod(x + shift, pitch) - pitch / 2
        dy = np.mod(y, pitch) - pitch / 2
        mix = np.clip(r + 0.5 - np.sqrt(dx * dx + dy * dy), 0, 1).astype(np.float32)
    elif kind == "gingham":
        period = p * rng.uniform(2, 6)
        mix = 0.5 * ((np.mod(x, period) < period / 2).astype(np.float32)
                     + (np.mod(y, period) < period / 2).astype(np.float32))
    elif kind == "denim":
        c1 = _jitter_colour(rng, (60, 80, 120), 25)
        relief = 1 + 0.08 * np.cos(2 * np.pi * (x + y) / (p * 0.6)) + 0.04 * np.cos(2 * np.pi * y / (p * 0.5))
    elif kind == "heather":
        relief = 1 + 0.1 * np.asarray(Image.fromarray(rng.normal(0, 1, (hh // 2 + 1, hw // 2 + 1)).astype(np.float32), "F")
                                      .resize((hw, hh), Image.Resampling.BILINEAR))
    elif kind == "wood":
        c1 = _jitter_colour(rng, (150, 105, 65), 30)
        bend = _smooth_field(rng, (hh, hw), 4) * rng.uniform(5, 30)
        relief = 1 + 0.12 * np.sin(2 * np.pi * (y + bend) / rng.uniform(3, 15))
    relief = relief * (1 + rng.uniform(0.05, 0.3) * _smooth_field(rng, (hh, hw), int(rng.integers(3, 7))))
    return _merge_rgb(c1, c2, mix, relief).resize((w, h), Image.Resampling.BILINEAR)


# ================================================================ labels

FAMILY_CODES = {f: [c for c in CODES if FAMILY[c] == f] for f in FAMILIES}


def _choose_codes(rng):
    """Rows of codes for one label: 2 to 7 symbols, usually one per family in family order."""
    chosen = []
    for family, p in zip(FAMILIES, (0.92, 0.75, 0.85, 0.85, 0.7)):
        if rng.random() < p:
            codes = FAMILY_CODES[family]
            k = 2 if rng.random() < 0.12 else 1
            chosen += [codes[int(i)] for i in rng.choice(len(codes), k, replace=False)]
    while len(chosen) < 2:
        chosen.append(_random_code(rng))
        chosen.sort(key=lambda c: FAMILIES.index(FAMILY[c]))
    chosen = chosen[:7]
    if rng.random() < 0.1:
        chosen = [chosen[int(i)] for i in rng.permutation(len(chosen))]
    if len(chosen) >= 3 and rng.random() < 0.2:
        cut = int(rng.integers(1, len(chosen)))
        return [chosen[:cut], chosen[cut:]]
    return [chosen]


class _LabelLayout:
    """Where everything goes on a label, in units of the symbols' shape width."""

    def __init__(self, rng, rows):
        self.rows = [[(code, symbol_drawing(code, rng)) for code in row] for row in rows]
        self.font = _text_font(rng)
        self.text_h = rng.uniform(0.18, 0.42)
        self.pitch = self.text_h * rng.uniform(1.5, 2.1)
        self.centred = rng.random() < 0.6
        gap = rng.uniform(0.2, 0.7)
        margin_x, margin_y = rng.uniform(0.25, 0.7), rng.uniform(0.15, 0.45)
        above = int(rng.choice(4, p=[0.35, 0.3, 0.2, 0.15]))
        below = int(rng.choice(6, p=[0.25, 0.2, 0.2, 0.15, 0.1, 0.1]))
        self.logo = rng.random() < 0.15
        self.logo_h = self.text_h * rng.uniform(1.6, 2.4)
        widths = [sum(d.bbox()[2] - d.bbox()[0] for _, d in row) + gap * (len(row) - 1) for row in self.rows]
        self.width = (max(widths) if widths else rng.uniform(2, 5)) * rng.uniform(1.0, 1.35) + 2 * margin_x
        self.lines, self.places = [], []
        self.margin_y = margin_y
        y = margin_y + (self.logo_h * 1.6 if self.logo else 0)
        for _ in range(above):
            self.lines.append((y, _text_line(rng)))
            y += self.pitch
        y += self.text_h * rng.uniform(0.3, 1.0) if above else 0
        row_gap = rng.uniform(0.25, 0.6)
        for row, row_w in zip(self.rows, widths):
            row_h = max(d.bbox()[3] - d.bbox()[1] for _, d in row)
            x = (self.width - row_w) / 2 if self.centred else margin_x
            for code, d in row:
                x0, y0, x1, y1 = d.bbox()
                self.places.append((code, d, x - x0, y + row_h / 2 - (y0 + y1) / 2 + rng.uniform(-0.03, 0.03)))
                x += (x1 - x0) + gap * rng.uniform(0.9, 1.1)
            y += row_h + row_gap
        y += (self.text_h * rng.uniform(0.0, 0.7) - row_gap) if self.rows else 0
        for _ in range(below):
            y += self.pitch * (0.35 if not self.lines and not self.rows else 0)
            self.lines.append((y + self.pitch - self.text_h, _text_line(rng)))
            y += self.pitch
        self.height = y + margin_y
        self.margin_x = margin_x

    def symbol_region(self):
        """(x0, y0, x1, y1) around all symbols, in units."""
        boxes = [(ox + d.bbox()[0], oy + d.bbox()[1], ox + d.bbox()[2], oy + d.bbox()[3]) for _, d, ox, oy in self.places]
        if not boxes:
            return 0, 0, self.width, self.height
        b = np.array(boxes)
        return b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max()


def _draw_label_text(layout, draw, u, rng):
    """Text lines (and a brand name) onto the label's ink image, u pixels per unit."""
    if layout.font is None:
        return
    cap = _ink_box(layout.font, 100, "H")
    px = _font_px(layout.text_h * u * 100 / max(1, cap[3] - cap[1]))
    font = _font(layout.font, px)
    room = (layout.width - 2 * layout.margin_x) * u
    for y, line in layout.lines:
        while font.getlength(line) > room and len(line) > 2:
            line = line.rsplit(" ", 1)[0] if " " in line else line[:-1]
        width = font.getlength(line)
        x = (layout.width * u - width) / 2 if layout.centred else layout.margin_x * u
        draw.text((x, y * u), line, font=font, fill=255)
    if layout.logo:
        word = LOGO_WORDS[int(rng.integers(len(LOGO_WORDS)))]
        px_big = px * layout.logo_h / layout.text_h
        px_big = min(px_big, px_big * layout.width * u * 0.9 / max(1.0, _font(layout.font, _font_px(px_big)).getlength(word)))
        big = _font(layout.font, _font_px(px_big))
        top = _ink_box(layout.font, big.size, word)[1]
        draw.text(((layout.width * u - big.getlength(word)) / 2, layout.margin_y * u - top), word, font=big, fill=255)


class _LabelPlane:
    """The flat label as the camera would see it face on (RGB, u pixels per unit, the surface
    running PAD pixels past the label's edges so the warp blends no black in), with each symbol's
    ink (coverage patch and its offset) kept for the ground truth."""

    PAD = 3

    def __init__(self, rng, layout, u):
        pad = self.PAD
        w, h = int(math.ceil(layout.width * u)) + 2 * pad, int(math.ceil(layout.height * u)) + 2 * pad
        self.size = (w, h)
        self.inner = [(pad, pad), (w - pad, pad), (w - pad, h - pad), (pad, h - pad)]
        text = Image.new("L", (w - 2 * pad, h - 2 * pad))
        _draw_label_text(layout, ImageDraw.Draw(text), u, rng)
        ink = np.zeros((h, w), np.float32)
        ink[pad:h - pad, pad:w - pad] = np.asarray(text, dtype=np.float32) / 255.0
        self.symbols = []
        for code, d, ox, oy in layout.places:
            patch, px0, py0 = rasterize(d, u)
            # Whole pixels only, so the patch is the ink exactly as drawn.
            x0 = int(round(pad + ox * u - px0))
            y0 = int(round(pad + oy * u - py0))
            ph, pw = patch.shape
            region = ink[y0:y0 + ph, x0:x0 + pw]
            np.maximum(region, patch[:region.shape[0], :region.shape[1]], out=region)
            self.symbols.append((code, patch, x0, y0))
        self.image = self._colour(rng, ink, w, h)

    @staticmethod
    def _colour(rng, ink, w, h):
        """The label's surface (woven, satin, printed, plain or ribbed), ink and a fold."""
        base, ink_rgb = _label_colours(rng)
        kind = rng.choice(["woven", "satin", "paper", "flat", "ribbed"], p=[0.4, 0.2, 0.2, 0.12, 0.08])
        x = np.arange(w, dtype=np.float32)[None, :]
        y = np.arange(h, dtype=np.float32)[:, None]
        relief, threads = _texture(kind, rng, x, y, float(rng.choice([0.0, 90.0])), 0.8)
        c = _ink_effects(ink, rng, threads, rng.random())
        surface = 1 + rng.uniform(0.03, 0.12) * relief
        ink_image = Image.new("RGB", (w, h), tuple(int(v) for v in ink_rgb))
        if rng.random() < 0.35:  # a fold across the label: a shading band over surface and ink
            a = rng.uniform(-0.3, 0.3)
            s = (x - rng.uniform(0.2, 0.8) * w) * math.cos(a) + (y - h / 2) * math.sin(a)
            width = rng.uniform(0.02, 0.1) * w
            shading = 1 + rng.uniform(-0.3, 0.3) * np.tanh(s / width) + rng.uniform(0, 0.25) * np.exp(-(s / width) ** 2)
            surface = surface * shading
            ink_image = _tinted(np.broadcast_to(shading, (h, w)), ink_rgb)
        surface_image = _tinted(np.broadcast_to(surface, (h, w)), base)
        return Image.composite(ink_image, surface_image, Image.fromarray((c * 255 + 0.5).astype(np.uint8)))


def _tinted(field, rgb):
    """An RGB image of colour rgb times a brightness field in [0, 2) (8-bit lookups per band)."""
    grey = Image.fromarray(np.clip(field * 128, 0, 255).astype(np.uint8))
    lut = np.arange(256) / 128.0
    return Image.merge("RGB", [grey.point(np.clip(lut * v, 0, 255).astype(np.uint8).tolist()) for v in rgb])


def _label_camera(rng, layout, u, width, height):
    """Homography label plane -> image (rotation up to +-20 degrees, perspective), and u, shrunk
    when needed so every symbol lies inside the image."""
    angle = rng.uniform(-20, 20) if rng.random() < 0.8 else rng.uniform(-5, 5)
    tilt = rng.uniform(-0.18, 0.18, 2)  # the scale changes by up to +-9% across the symbols
    sx0, sy0, sx1, sy1 = layout.symbol_region()
    for _ in range(6):
        region = np.array([(sx0, sy0), (sx1, sy0), (sx1, sy1), (sx0, sy1)]) * u + _LabelPlane.PAD
        middle = region.mean(axis=0)
        centre = np.array([width / 2, height / 2]) + rng.uniform(-0.12, 0.12, 2) * [width, height]
        hom = _homography(angle, tilt / np.ptp(region, axis=0).max(), middle, centre)
        q = _warp_points(hom, region)
        lo, hi = q.min(axis=0), q.max(axis=0)
        room = np.array([width, height]) * 0.96
        if np.all(hi - lo <= room):
            shift = np.clip(lo, 0.02 * np.array([width, height]), None) - lo
            shift -= np.clip(hi + shift - 0.98 * np.array([width, height]), 0, None)
            hom = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]]) @ hom
            return hom, u
        u *= float(np.min(room / (hi - lo))) * 0.97
    return hom, u


def _ink_box_in_image(patch, x0, y0, hom, threshold=0.5):
    """Axis-aligned box [x, y, w, h] of a symbol's ink (coverage >= threshold) after the warp, and
    the warped centres of its ink pixels."""
    ink = patch >= threshold
    if not ink.any():
        ink = patch > 0
    # A homography keeps convex hulls, so the leftmost and rightmost ink pixel of each row bound
    # the warped ink as well as all of it would.
    rows = np.nonzero(ink.any(axis=1))[0]
    left = ink[rows].argmax(axis=1)
    right = ink.shape[1] - 1 - ink[rows, ::-1].argmax(axis=1)
    px = np.concatenate([left, right]) + x0
    py = np.concatenate([rows, rows]) + y0
    corners = np.concatenate([np.stack([px + dx, py + dy], axis=1) for dx in (0, 1) for dy in (0, 1)])
    q = _warp_points(hom, corners)
    x_lo, y_lo = q.min(axis=0)
    x_hi, y_hi = q.max(axis=0)
    ys, xs = np.nonzero(ink[::2, ::2])
    centres = _warp_points(hom, np.stack([xs * 2 + x0 + 0.5, ys * 2 + y0 + 0.5], axis=1))
    return [x_lo, y_lo, x_hi - x_lo, y_hi - y_lo], centres


def _paste_label(scene, plane, hom, rng):
    """The label warped into the scene (an RGB Image, in place), with a soft shadow sometimes."""
    width, height = scene.size
    q = _warp_points(hom, plane.inner)
    x0, y0 = np.clip(np.floor(q.min(axis=0)).astype(int), 0, [width, height])
    x1, y1 = np.clip(np.ceil(q.max(axis=0)).astype(int), 0, [width, height])
    if x1 <= x0 or y1 <= y0:
        return
    size = (int(x1 - x0), int(y1 - y0))
    source = plane.image
    if rng.random() < 0.4:  # defocus, applied to the flat label: half the pixels of the photo
        source = source.filter(ImageFilter.BoxBlur(float(rng.uniform(0.3, 1.5))))
    warped = source.transform(size, Image.Transform.PERSPECTIVE, _pillow_coeffs(hom, x0, y0),
                                   Image.Resampling.BILINEAR)
    mask = Image.new("L", (size[0] * 2, size[1] * 2))
    ImageDraw.Draw(mask).polygon([((x - x0) * 2 - 0.5, (y - y0) * 2 - 0.5) for x, y in q], fill=255)
    mask = mask.reduce(2)
    window = scene.crop((int(x0), int(y0), int(x1), int(y1)))
    if rng.random() < 0.5:
        dx, dy = (int(v) for v in rng.integers(-6, 7, 2))
        shadow = ImageChops.offset(mask, dx, dy).filter(ImageFilter.BoxBlur(float(rng.uniform(2, 8))))
        k = rng.uniform(0.2, 0.5)
        window = Image.composite(Image.new("RGB", size), window, shadow.point(lambda v: int(v * k)))
    window.paste(warped, (0, 0), mask)
    scene.paste(window, (int(x0), int(y0)))


def _thumb(scene, rng, hom, plane, symbols):
    """A thumb over a corner of the label (drawn into the RGB Image scene); symbols it covers by
    more than 20% leave the ground truth."""
    width, height = scene.size
    corners = _warp_points(hom, plane.inner)
    centre = corners.mean(axis=0)
    corner = corners[int(rng.integers(4))]
    inward = (centre - corner) / (np.linalg.norm(centre - corner) + 1e-6)
    length = rng.uniform(0.07, 0.15) * width
    tip = corner + inward * length * rng.uniform(0.2, 0.9)
    axis = inward + rng.normal(0, 0.25, 2)
    axis /= np.linalg.norm(axis)
    c = tip - axis * length  # the thumb comes from outside the label
    a, b = length * 1.1, length * rng.uniform(0.45, 0.6)
    across = np.array([-axis[1], axis[0]])

    def rho(p):
        dx, dy = p[:, 0] - c[0], p[:, 1] - c[1]
        return ((dx * axis[0] + dy * axis[1]) / a) ** 2 + ((dx * across[0] + dy * across[1]) / b) ** 2

    box = np.clip(np.array([c[0] - a, c[1] - a, c[0] + a, c[1] + a]).astype(int), 0, [width, height, width, height])
    if box[2] > box[0] and box[3] > box[1]:
        yy, xx = np.mgrid[box[1]:box[3], box[0]:box[2]]
        pts = np.stack([xx.ravel() + 0.5, yy.ravel() + 0.5], axis=1)
        r = rho(pts).reshape(xx.shape)
        mask = np.clip((1 - r) * 8, 0, 1)
        along = ((pts[:, 0] - c[0]) * axis[0] + (pts[:, 1] - c[1]) * axis[1]) / a
        shade = 1 - 0.35 * np.clip(r, 0, 1) + 0.1 * along.reshape(xx.shape)
        skin = _jitter_colour(rng, SKIN[int(rng.integers(len(SKIN)))], 10)
        region = np.asarray(scene.crop(tuple(int(v) for v in box)), dtype=np.float32)
        out = region * (1 - mask[..., None]) + (shade[..., None] * skin) * mask[..., None]
        scene.paste(Image.fromarray(np.clip(out, 0, 255).astype(np.uint8)), (int(box[0]), int(box[1])))
    return [s for s in symbols if np.mean(rho(s["_ink"]) < 1.0) <= 0.2]


def _finish_photo(image, rng, blur=True):
    """Camera and file for a whole photo (an RGB Image): exposure and colour cast, uneven light,
    noise, blur (unless the caller blurred already), JPEG; returned as a uint8 array."""
    w, h = image.size
    gains = rng.uniform(0.6, 1.0) * (1 - np.abs(rng.normal(0, 0.05, 3)))  # exposure and colour cast
    light = 1 - rng.uniform(0, 0.45) * (0.5 + 0.5 * _smooth_field(rng, (h // 16 + 2, w // 16 + 2), int(rng.integers(2, 5))))
    light = Image.fromarray((light * 255).astype(np.uint8)).resize((w, h), Image.Resampling.BILINEAR)
    bands = [light.point([int(v * g) for v in range(256)]) for g in gains]
    image = ImageChops.multiply(image, Image.merge("RGB", bands))
    k = int(rng.integers(0, 12)) if rng.random() < 0.7 else 0
    if k:
        noise = Image.fromarray(rng.integers(0, 2 * k + 1, (h, w), dtype=np.uint8))
        image = ImageChops.add(image, Image.merge("RGB", (noise, noise, noise)), 1.0, -k)
    if blur and rng.random() < 0.4:
        image = image.filter(ImageFilter.BoxBlur(float(rng.uniform(0.3, 1.5))))
    if rng.random() < 0.85:
        buf = io.BytesIO()
        image.save(buf, "JPEG", quality=int(rng.integers(30, 96)))
        buf.seek(0)
        image = Image.open(buf).convert("RGB")
    return np.array(image)


def render_label(rng, width=1000):
    """A photo of a whole care label, uint8 RGB (H, width, 3), and its symbols in reading order
    (rows top to bottom, left to right) as dicts code and box = [x, y, w, h], the axis-aligned box
    of the symbol's ink in image pixels."""
    height = int(round(width * rng.uniform(0.62, 1.0)))
    scene = _scene_background(rng, width, height)
    layout = _LabelLayout(rng, _choose_codes(rng))
    u = width * rng.uniform(0.055, 0.175)
    hom, u = _label_camera(rng, layout, u, width, height)
    plane = _LabelPlane(rng, layout, u)
    _paste_label(scene, plane, hom, rng)
    symbols = []
    for code, patch, x0, y0 in plane.symbols:
        box, ink = _ink_box_in_image(patch, x0, y0, hom)
        symbols.append({"code": code, "box": box, "_ink": ink})
    if rng.random() < 0.12:
        symbols = _thumb(scene, rng, hom, plane, symbols)
    image = _finish_photo(scene, rng, blur=False)
    return image, [{"code": s["code"], "box": [round(float(v), 1) for v in s["box"]]} for s in symbols]


# ================================================================ images without symbols

def _shapes_scene(rng, width, height):
    """A random scene: a gradient and filled coloured shapes and thick lines. Shapes are filled, so
    none is a care symbol's outline."""
    x = np.linspace(0, 1, width, dtype=np.float32)[None, :]
    y = np.linspace(0, 1, height, dtype=np.float32)[:, None]
    a, b = rng.uniform(-1, 1, 2)
    mix = np.clip(0.5 + a * (x - 0.5) + b * (y - 0.5), 0, 1)
    image = _merge_rgb(rng.uniform(0, 255, 3), rng.uniform(0, 255, 3), mix, np.ones((1, 1), np.float32))
    draw = ImageDraw.Draw(image)
    for _ in range(int(rng.integers(3, 15))):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        r = rng.uniform(0.02, 0.25) * width
        kind = rng.integers(4)
        if kind == 0:
            draw.ellipse([cx - r, cy - r * rng.uniform(0.4, 1), cx + r, cy + r], fill=colour)
        elif kind == 1:
            draw.rectangle([cx - r, cy - r * rng.uniform(0.2, 1), cx + r, cy + r], fill=colour)
        elif kind == 2:
            t = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(3, 8))))
            draw.polygon([(cx + r * math.cos(v), cy + r * math.sin(v)) for v in t], fill=colour)
        else:
            draw.line([(cx, cy), (cx + rng.uniform(-2, 2) * r, cy + rng.uniform(-2, 2) * r)], fill=colour,
                      width=int(rng.integers(2, 20)))
    return image


def render_negative_image(rng, width=1000):
    """A photo with no care symbol, uint8 RGB (H, width, 3): a label with text only, a blank label,
    a label with a brand logo only, bare garment fabric or table, or a random scene of shapes."""
    height = int(round(width * rng.uniform(0.62, 1.0)))
    kind = rng.choice(["text", "blank", "logo", "fabric", "shapes"], p=[0.3, 0.15, 0.15, 0.2, 0.2])
    if kind == "fabric":
        return _finish_photo(_scene_background(rng, width, height), rng)
    if kind == "shapes":
        return _finish_photo(_shapes_scene(rng, width, height), rng)
    scene = _scene_background(rng, width, height)
    layout = _LabelLayout(rng, [])
    if kind == "blank":
        layout.lines, layout.logo = [], False
    elif kind == "logo":
        layout.lines, layout.logo = layout.lines[:1], True
    elif not layout.lines:
        layout.lines = [(layout.height * 0.4, _text_line(rng))]
    return _photograph_text_label(rng, scene, layout, width, height)[0]


def _photograph_text_label(rng, scene, layout, width, height):
    """A label without symbols photographed on `scene`: the photo, the homography label plane ->
    image and the label's scale (u pixels per unit)."""
    u = width * rng.uniform(0.08, 0.25)
    hom, u = _label_camera(rng, layout, u, width, height)
    plane = _LabelPlane(rng, layout, u)
    _paste_label(scene, plane, hom, rng)
    if rng.random() < 0.12:
        _thumb(scene, rng, hom, plane, [])
    return _finish_photo(scene, rng, blur=False), hom, u


def render_text_label(rng, width=1000):
    """A photo of a label with text only, uint8 RGB (H, width, 3), and boxes [x, y, w, h] that a
    detector may propose on it although they hold no symbol: the whole label (its outline round
    lines of text looks like a tub or a square) and pieces of its text one to three letters high
    (a large "O" is a circle, an "E" a square with a line in it)."""
    height = int(round(width * rng.uniform(0.62, 1.0)))
    scene = _scene_background(rng, width, height)
    layout = _LabelLayout(rng, [])
    if not layout.lines:
        layout.lines = [(layout.height * 0.4, _text_line(rng))]
    image, hom, u = _photograph_text_label(rng, scene, layout, width, height)
    pad = _LabelPlane.PAD
    corners = [(pad, pad), (pad + layout.width * u, pad), (pad + layout.width * u, pad + layout.height * u),
               (pad, pad + layout.height * u)]
    q = _warp_points(hom, corners)
    boxes = [[*q.min(axis=0), *np.ptp(q, axis=0)]]
    for _ in range(int(rng.integers(2, 5))):
        y, _line = layout.lines[int(rng.integers(len(layout.lines)))]
        centre = np.array([rng.uniform(layout.margin_x, layout.width - layout.margin_x),
                           y + layout.text_h * rng.uniform(0.3, 0.9)]) * u + pad
        side = layout.text_h * u * rng.uniform(0.9, 3.0)
        q = _warp_points(hom, [centre - side / 2, centre + side / 2])
        middle, extent = q.mean(axis=0), np.abs(q[1] - q[0]).max()
        boxes.append([middle[0] - extent / 2, middle[1] - extent / 2, extent, extent])
    return image, [[round(float(v), 1) for v in b] for b in boxes]


# ================================================================ preview

def _caption(image, text, xy, fill=0):
    ImageDraw.Draw(image).text(xy, text, fill=fill)


def _preview_symbols(out_dir, rng, clean=6, crops=8, cell=64):
    """One sheet per family: each code with `clean` draw_symbol variations and `crops` crops."""
    paths = []
    for family in FAMILIES:
        codes = FAMILY_CODES[family]
        label_w = 190
        sheet = Image.new("L", (label_w + (clean + crops) * (cell + 4), len(codes) * (cell + 4) + 4), 255)
        for r, code in enumerate(codes):
            y = 4 + r * (cell + 4)
            _caption(sheet, code, (4, y + cell // 2 - 6))
            for i in range(clean):
                ink = draw_symbol(code, rng, cell)
                sheet.paste(Image.fromarray((255 - ink * 255).astype(np.uint8)), (label_w + i * (cell + 4), y))
            for i in range(crops):
                crop = Image.fromarray(render_symbol_crop(code, rng, 48)).resize((cell, cell), Image.Resampling.NEAREST)
                sheet.paste(crop, (label_w + (clean + i) * (cell + 4), y))
        path = os.path.join(out_dir, f"symbols-{family}.png")
        sheet.save(path)
        paths.append(path)
    return paths


def _preview_negatives(out_dir, rng, rows=8, cols=16, cell=64):
    sheet = Image.new("L", (cols * (cell + 4), rows * (cell + 4)), 255)
    for r in range(rows):
        for c in range(cols):
            crop = Image.fromarray(render_negative_crop(rng, 48)).resize((cell, cell), Image.Resampling.NEAREST)
            sheet.paste(crop, (c * (cell + 4), r * (cell + 4)))
    path = os.path.join(out_dir, "negative-crops.png")
    sheet.save(path)
    return [path]


def _preview_labels(out_dir, rng, count=8):
    """Labels with their ground-truth boxes and codes drawn, and a few symbol-free images."""
    paths = []
    for i in range(count):
        image, symbols = render_label(rng)
        im = Image.fromarray(image)
        draw = ImageDraw.Draw(im)
        for s in symbols:
            x, y, w, h = s["box"]
            draw.rectangle([x, y, x + w, y + h], outline=(255, 0, 0), width=2)
            draw.rectangle([x, y - 12, x + 6 * len(s["code"]) + 4, y], fill=(255, 0, 0))
            draw.text((x + 2, y - 12), s["code"], fill=(255, 255, 255))
        path = os.path.join(out_dir, f"label-{i}.png")
        im.save(path)
        paths.append(path)
    thumbs = [Image.fromarray(render_negative_image(rng)).resize((330, 250)) for _ in range(6)]
    sheet = Image.new("RGB", (3 * 334, 2 * 254), (255, 255, 255))
    for i, t in enumerate(thumbs):
        sheet.paste(t, ((i % 3) * 334, (i // 3) * 254))
    path = os.path.join(out_dir, "negative-images.png")
    sheet.save(path)
    return paths + [path]


def preview(out_dir, seed=0):
    """Contact sheets for a person to check: every code (clean and as crops), negative crops,
    labels with their boxes, symbol-free images. Returns the files written."""
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(seed)
    return _preview_symbols(out_dir, rng) + _preview_negatives(out_dir, rng) + _preview_labels(out_dir, rng)


def _timings(rng):
    """Mean CPU milliseconds per call of the public renderers."""
    out = {}
    for name, call, n in (("render_symbol_crop", lambda i: render_symbol_crop(CODES[i % len(CODES)], rng), 1000),
                          ("render_negative_crop", lambda i: render_negative_crop(rng), 1000),
                          ("render_label", lambda i: render_label(rng), 50),
                          ("render_negative_image", lambda i: render_negative_image(rng), 30)):
        call(0)
        start = time.process_time()
        for i in range(n):
            call(i)
        out[name] = (time.process_time() - start) / n * 1000
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preview", metavar="OUT_DIR", help="write contact sheets to OUT_DIR")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true", help="compare CODES with care-symbols.md")
    parser.add_argument("--time", action="store_true", help="measure the renderers (CPU ms per call)")
    args = parser.parse_args(argv)
    problems = check_codes()
    for p in problems:
        print("care-symbols.md:", p, file=sys.stderr)
    if args.check:
        print("codes: ok" if not problems else "codes: MISMATCH")
    if args.preview:
        for path in preview(args.preview, args.seed):
            print(path)
    if args.time:
        for name, ms in _timings(np.random.default_rng(args.seed)).items():
            print(f"{name}: {ms:.1f} ms CPU")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
