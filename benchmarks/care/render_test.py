#!/usr/bin/env python3
"""Independent test set for `atl-classify --task care`: symbol crops, care-label photos, negatives.

    python3 benchmarks/care/render_test.py --out DIR --seed N [--singles 620] [--labels 300]
                                           [--negatives 200] [--jobs 2] [--preview]

Writes, under DIR:
  singles/NNNN.png   + singles.jsonl    {"path": "singles/0001.png", "code": "wash-40", "variant": ...}
  labels/NNNN.jpg    + labels.jsonl     {"path": ..., "width": ..., "height": ...,
                                         "symbols": [{"code": ..., "box": [x, y, w, h], "variant": ...}]}
  negatives/NNNN.jpg + negatives.jsonl  {"path": ..., "kind": "text-label", "symbols": []}

This renderer is deliberately independent of the training renderer (training/care/, Pillow): it
draws with matplotlib's Agg rasteriser (paths, patches, glyph outlines from the fonts matplotlib
ships), makes textures, warps and camera effects with numpy/scipy, and uses Pillow only to encode
PNG/JPEG. Geometry follows docs/care-symbol-drawings.md, with its own shapes; every drawing the
page lists for a code (ISO and ASTM) is drawn.

Ground-truth boxes are the axis-aligned box of each symbol's ink (bars and cross included) after
all geometric warps (rotation, perspective, bends, folds): every symbol is rasterised on its own,
pushed through the same inverse map as the photo, and its box is where the warped coverage is at
least BOX_COVERAGE. Blur, noise and lighting come after and do not move boxes.

Deterministic for a seed: every image draws from its own generator, seeded by (seed, subset,
index), so the result does not depend on how the work is split between processes. Fonts come
from matplotlib's own data directory, so the same matplotlib version gives the same pixels.

--preview writes contact sheets into DIR instead of the test set: preview-codes.png (every code,
every listed drawing, clean), preview-styles.png (every code in three random styles),
preview-singles.png and preview-labels.png (rendered samples, truth boxes outlined).
"""

import argparse
import io
import json
import math
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool

import numpy as np
import matplotlib

matplotlib.use("Agg")
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.ft2font import FT2Font  # noqa: E402
from matplotlib.patches import PathPatch  # noqa: E402
from matplotlib.path import Path  # noqa: E402
from matplotlib.textpath import TextPath  # noqa: E402
from matplotlib.transforms import Affine2D  # noqa: E402
from scipy import ndimage  # noqa: E402
from PIL import Image  # noqa: E402

# =============================================================================================
# Vocabulary (shared/care-symbols.md; these codes are an interface)
# =============================================================================================
CODES = (
    "wash-95 wash-70 wash-60 wash-60-mild wash-50 wash-50-mild wash-40 wash-40-mild "
    "wash-40-very-mild wash-30 wash-30-mild wash-30-very-mild wash-hand wash-no wash-machine "
    "wring-no wash-hand-ambient wash-machine-permanent-press wash-machine-delicate "
    "bleach-any bleach-non-chlorine bleach-no bleach-chlorine "
    "tumble-normal tumble-low tumble-no tumble-any tumble-high tumble-no-heat "
    "tumble-permanent-press tumble-delicate dry-line dry-drip dry-flat dry-drip-flat "
    "dry-line-shade dry-drip-shade dry-flat-shade dry-drip-flat-shade dry-shade dry-no "
    "iron-low iron-medium iron-high iron-no iron-no-steam iron-any "
    "pro-p pro-p-mild pro-f pro-f-mild pro-no pro-w pro-w-mild pro-w-very-mild pro-w-no "
    "pro-a pro-any pro-short-cycle pro-reduced-moisture pro-low-heat pro-no-steam-finishing"
).split()
assert len(CODES) == 62 and len(set(CODES)) == 62

FAMILIES = ("washing", "bleaching", "drying", "ironing", "professional")
WASH_DOTS = {"30": 1, "40": 2, "50": 3, "60": 4, "70": 5, "95": 6}  # ASTM temperature dots
PROCESS_BARS = {None: 0, "mild": 1, "very-mild": 2}
TICK_CLOCK = {"pro-short-cycle": 8, "pro-reduced-moisture": 10, "pro-low-heat": 2,
              "pro-no-steam-finishing": 4}

# Coverage at or above which a warped pixel counts as a symbol's ink, for ground-truth boxes.
BOX_COVERAGE = 0.4


def family(code):
    """The family a code belongs to (the table in care-symbols.md)."""
    if code.startswith(("wash-", "wring-")):
        return "washing"
    if code.startswith("bleach-"):
        return "bleaching"
    if code.startswith(("tumble-", "dry-")):
        return "drying"
    if code.startswith("iron-"):
        return "ironing"
    return "professional"


def variants(code):
    """The drawings the drawing page lists for a code (ISO and ASTM alternatives)."""
    if re.fullmatch(r"wash-\d\d(-mild|-very-mild)?", code):
        return ("number", "dots")
    if code in ("dry-line", "dry-line-shade"):
        return ("vertical-line", "sagging-line")
    if code in ("dry-drip", "dry-drip-shade"):
        return ("two-lines", "three-lines")
    if code == "bleach-no":
        return ("outline", "filled")
    if code == "iron-no-steam":
        return ("two-steam-lines", "three-steam-lines")
    return ("standard",)


# =============================================================================================
# Fonts (only those matplotlib ships, so the pixels do not depend on the system's fonts)
# =============================================================================================
FONT_DIR = os.path.join(matplotlib.get_data_path(), "fonts", "ttf")
SYMBOL_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
                "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf", "STIXGeneral.ttf",
                "STIXGeneralBol.ttf", "cmss10.ttf", "cmr10.ttf", "cmb10.ttf")
TEXT_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSerif.ttf",
              "DejaVuSerif-Italic.ttf", "DejaVuSansMono.ttf", "STIXGeneral.ttf",
              "STIXGeneralItalic.ttf", "cmss10.ttf", "cmtt10.ttf", "cmr10.ttf")
_CHARMAPS = {}
_GLYPHS = {}


def font_path(name):
    """Absolute path of a font file in matplotlib's data directory."""
    return os.path.join(FONT_DIR, name)


def font_has(name, text):
    """Whether a font has a glyph for every non-space character of text."""
    if name not in _CHARMAPS:
        _CHARMAPS[name] = set(FT2Font(font_path(name)).get_charmap())
    return all(ord(c) in _CHARMAPS[name] for c in text if not c.isspace())


def glyph_path(text, font):
    """Outline of text in a font, unscaled (matplotlib TextPath, y up, baseline at 0)."""
    key = (text, font)
    if key not in _GLYPHS:
        _GLYPHS[key] = TextPath((0, 0), text, size=100, prop=FontProperties(fname=font_path(font)))
    return _GLYPHS[key]


# =============================================================================================
# Drawing primitives
# =============================================================================================
@dataclass
class Mark:
    """One piece of a drawing: a path stroked `width` wide (drawing units) or, with width 0,
    filled. A knockout paints the background instead of ink (a gap behind a hand, a cross)."""
    path: Path
    width: float = 0.0
    knockout: bool = False


@dataclass
class Symbol:
    """A care symbol ready to rasterise: its marks in symbol units (y up; the base shapes sit
    between y = 0 and y ≈ 1), its stroke width, how strokes end and join, and which listed
    drawing it is."""
    code: str
    variant: str
    marks: list
    lw: float
    cap: str
    join: str


def polyline(points, closed=False, radius=0.0):
    """A path through points; with radius > 0, every corner is rounded by a quadratic curve."""
    pts = [np.asarray(p, float) for p in points]
    n = len(pts)
    if radius <= 0:
        verts = pts + ([pts[0]] if closed else [])
        codes = [Path.MOVETO] + [Path.LINETO] * (n - 1) + ([Path.CLOSEPOLY] if closed else [])
        return Path(np.array(verts), codes)
    verts, codes = [], []

    def toward(i, j):
        d = pts[j % n] - pts[i]
        length = float(np.hypot(*d))
        return pts[i] + d * min(radius, length / 2.5) / max(length, 1e-9)

    for i in range(n):
        corner = closed or 0 < i < n - 1
        if corner:
            verts += [toward(i, i - 1), pts[i], toward(i, i + 1)]
            codes += [Path.LINETO if verts[:-3] else Path.MOVETO, Path.CURVE3, Path.CURVE3]
        else:
            verts.append(pts[i])
            codes.append(Path.LINETO if verts[:-1] else Path.MOVETO)
    if closed:
        verts.append(verts[0])
        codes.append(Path.CLOSEPOLY)
    return Path(np.array(verts), codes)


def segment(p, q):
    """A straight line from p to q."""
    return Path(np.array([p, q], float))


def ellipse(cx, cy, rx, ry=None, angle_deg=0.0):
    """A closed ellipse (a circle when ry is None)."""
    ry = rx if ry is None else ry
    return Affine2D().scale(rx, ry).rotate_deg(angle_deg).translate(cx, cy).transform_path(
        Path.unit_circle())


def bezier(*points):
    """A path of cubic Bézier pieces: start, then (c1, c2, end) triples."""
    codes = [Path.MOVETO] + [Path.CURVE4] * (len(points) - 1)
    return Path(np.array(points, float), codes)


def text_marks(text, font, height, center, max_width, ref="0"):
    """Filled glyph marks for text, its digit/capital height `height`, centred on center,
    squeezed to max_width. Returns (marks, (x0, y0, x1, y1))."""
    path = glyph_path(text, font)
    ext = path.get_extents()
    cap = glyph_path(ref, font).get_extents().height if ref else ext.height
    scale = height / cap
    if ext.width * scale > max_width:
        scale = max_width / ext.width
    cx = ext.x0 + ext.width / 2
    cy = ext.y0 + ext.height / 2
    tr = Affine2D().translate(-cx, -cy).scale(scale).translate(*center)
    out = tr.transform_path(path)
    w, h = ext.width * scale, ext.height * scale
    return [Mark(out)], (center[0] - w / 2, center[1] - h / 2, center[0] + w / 2, center[1] + h / 2)


def marks_bounds(marks, join="round"):
    """Box (x0, y0, x1, y1) around the ink of marks, strokes included (generous at mitres)."""
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for m in marks:
        if m.knockout:
            continue
        e = m.path.get_extents()
        pad = m.width * (1.0 if join == "miter" else 0.5)
        x0, y0 = min(x0, e.x0 - pad), min(y0, e.y0 - pad)
        x1, y1 = max(x1, e.x1 + pad), max(y1, e.y1 + pad)
    return x0, y0, x1, y1


# =============================================================================================
# Style: the free geometry choices, drawn once per symbol (singles) or per label (a label's
# symbols share one hand)
# =============================================================================================
@dataclass
class Style:
    """Free choices within the drawing page: stroke, fonts, shape proportions, modifiers."""
    lw: float
    cap: str
    join: str
    digit_font: str
    letter_font: str
    tub_taper: float
    tub_height: float
    tub_lip: float
    tub_round: float
    wave_kind: str
    wave_cycles: float
    wave_amp: float
    wave_level: float
    degree: str
    number_height: float
    dot_r: float
    dot_rows: bool
    bar_gap: float
    bar_stretch: float
    cross_over: float
    iron_kind: str
    iron_round: float
    hand_fill: bool
    tumble_gap: float
    line_len: float
    line_spread: float
    shade_cut: float
    tick_kind: str
    tick_len: float
    letter_height: float
    nonchlorine_touch: bool
    cross_knockout: bool


def random_style(rng):
    """Draw a style. Strokes run from thin (3.5% of the shape height) to bold (9%)."""
    lw = float(rng.uniform(0.035, 0.09))
    choice = lambda seq, p=None: str(rng.choice(seq, p=p))  # noqa: E731
    return Style(
        lw=lw,
        cap=choice(["round", "butt", "projecting"], [0.5, 0.3, 0.2]),
        join=choice(["round", "miter", "bevel"], [0.45, 0.4, 0.15]),
        digit_font=choice(SYMBOL_FONTS),
        letter_font=choice(SYMBOL_FONTS),
        tub_taper=float(rng.uniform(0.66, 0.84)),
        tub_height=float(rng.uniform(0.8, 0.96)),
        tub_lip=float(rng.choice([0.0, rng.uniform(0.05, 0.11)], p=[0.55, 0.45])),
        tub_round=float(rng.choice([0.0, rng.uniform(0.04, 0.12)])),
        wave_kind=choice(["sine", "scallop-down", "scallop-up"], [0.5, 0.25, 0.25]),
        wave_cycles=float(rng.choice([2.0, 2.5, 3.0])),
        wave_amp=float(rng.uniform(0.035, 0.06)),
        wave_level=float(rng.uniform(0.7, 0.8)),
        degree=choice(["", "°", "°C"], [0.5, 0.3, 0.2]),
        number_height=float(rng.uniform(0.3, 0.4)),
        dot_r=float(rng.uniform(0.042, 0.066)) + lw * 0.15,
        dot_rows=bool(rng.random() < 0.5),
        bar_gap=float(rng.uniform(0.07, 0.14)),
        bar_stretch=float(rng.uniform(1.0, 1.22)),
        cross_over=float(rng.uniform(0.0, 0.09)),
        iron_kind=choice(["curved", "angular", "boat"]),
        iron_round=float(rng.choice([0.0, rng.uniform(0.03, 0.08)])),
        hand_fill=bool(rng.random() < 0.25),
        tumble_gap=float(rng.uniform(0.0, 0.06)),
        line_len=float(rng.uniform(0.62, 0.9)),
        line_spread=float(rng.uniform(0.11, 0.16)),
        shade_cut=float(rng.uniform(0.15, 0.2)),
        tick_kind=choice(["radial", "tangent"], [0.7, 0.3]),
        tick_len=float(rng.uniform(0.16, 0.26)),
        letter_height=float(rng.uniform(0.42, 0.56)),
        nonchlorine_touch=bool(rng.random() < 0.6),
        cross_knockout=bool(rng.random() < 0.4),
    )


def plain_style():
    """A neutral style for the clean contact sheet."""
    return Style(lw=0.06, cap="round", join="round", digit_font="DejaVuSans.ttf",
                 letter_font="DejaVuSans.ttf", tub_taper=0.74, tub_height=0.9, tub_lip=0.07,
                 tub_round=0.0, wave_kind="sine", wave_cycles=2.5, wave_amp=0.05, wave_level=0.76,
                 degree="", number_height=0.36, dot_r=0.06, dot_rows=False, bar_gap=0.1,
                 bar_stretch=1.1, cross_over=0.04, iron_kind="curved", iron_round=0.04,
                 hand_fill=False, tumble_gap=0.03, line_len=0.75, line_spread=0.13,
                 shade_cut=0.18, tick_kind="radial", tick_len=0.2, letter_height=0.5,
                 nonchlorine_touch=True, cross_knockout=False)


# =============================================================================================
# Modifiers: dots, numbers, bars, cross
# =============================================================================================
def dot_marks(n, center, st, max_width, rows=None):
    """n filled dots centred on center, in one row or (st.dot_rows, n ≥ 4) two rows."""
    r = st.dot_r
    pitch = r * 2.9
    if rows is None:
        rows = [n] if (n < 4 or not st.dot_rows) and n * pitch <= max_width else \
            [math.ceil(n / 2), n // 2]
    widest = max(rows)
    if widest * pitch > max_width:  # shrink to fit the shape
        pitch = max_width / widest
        r = min(r, pitch / 2.5)
    marks = []
    row_pitch = pitch * 0.95
    for ri, count in enumerate(rows):
        y = center[1] + (len(rows) - 1) * row_pitch / 2 - ri * row_pitch
        for k in range(count):
            x = center[0] + (k - (count - 1) / 2) * pitch
            marks.append(Mark(ellipse(x, y, r)))
    return marks


def number_marks(digits, st, center, height, max_width):
    """The temperature as digits, optionally followed by a small drawn degree ring and "C"."""
    font = st.digit_font
    marks, (x0, y0, x1, y1) = text_marks(digits, font, height, (0, 0), 99)
    extra = []
    if st.degree:
        r = height * 0.14
        gap = height * 0.08
        cx = x1 + gap + r
        extra.append(Mark(ellipse(cx, y1 - r, r * 0.75), width=r * 0.5))
        x1 = cx + r
        if st.degree == "°C":
            cm, (_, _, cx1, _) = text_marks("C", font, height * 0.92, (0, 0), 99, ref="C")
            cw = cx1 * 2
            shift = Affine2D().translate(x1 + gap * 0.5 + cw / 2, -(height - height * 0.92) / 2)
            extra += [Mark(shift.transform_path(m.path)) for m in cm]
            x1 = x1 + gap * 0.5 + cw
    all_marks = marks + extra
    width = x1 - x0
    scale = min(1.0, max_width / width)
    tr = Affine2D().translate(-(x0 + x1) / 2, -(y0 + y1) / 2).scale(scale).translate(*center)
    return [Mark(tr.transform_path(m.path), m.width * scale, m.knockout) for m in all_marks]


def bar_marks(count, width, st, cx=0.0, bottom=0.0):
    """count (0–2) short horizontal bars under a shape whose lowest ink is at `bottom`."""
    marks = []
    y = bottom - st.lw / 2 - st.bar_gap - st.lw / 2
    for _ in range(count):
        marks.append(Mark(segment((cx - width / 2, y), (cx + width / 2, y)), st.lw))
        y -= st.lw + st.bar_gap * 0.85
    return marks


def cross_marks(box, st):
    """An X over the whole box, its ends reaching st.cross_over beyond it."""
    x0, y0, x1, y1 = box
    o = st.cross_over
    return [Mark(segment((x0 - o, y0 - o), (x1 + o, y1 + o)), st.lw),
            Mark(segment((x0 - o, y1 + o), (x1 + o, y0 - o)), st.lw)]


# =============================================================================================
# Washing: tub, hand, twisted cloth
# =============================================================================================
def wave_points(x0, x1, y, st, n=90):
    """The water line: a sine or a row of arcs from wall to wall."""
    t = np.linspace(0.0, 1.0, n)
    if st.wave_kind == "sine":
        dy = st.wave_amp * np.sin(2 * np.pi * st.wave_cycles * t)
    else:
        arcs = round(st.wave_cycles * 1.2) + 1
        s = np.abs(np.sin(np.pi * arcs * t))
        dy = st.wave_amp * ((2 * s - 1) if st.wave_kind == "scallop-down" else (1 - 2 * s))
    return np.column_stack([x0 + (x1 - x0) * t, y + dy])


def tub(st):
    """The washing tub: open trapezoid (optional rim lips), water line reaching both walls.
    Returns (marks, info) with the free area below the water for a number or dots."""
    top_w, h = 1.36, st.tub_height
    bot_w = top_w * st.tub_taper
    wall_x = lambda y: bot_w / 2 + (top_w - bot_w) / 2 * (y / h)  # noqa: E731
    pts = [(-top_w / 2, h), (-bot_w / 2, 0), (bot_w / 2, 0), (top_w / 2, h)]
    if st.tub_lip:
        pts = [(-top_w / 2 - st.tub_lip, h)] + pts + [(top_w / 2 + st.tub_lip, h)]
    marks = [Mark(polyline(pts, radius=st.tub_round), st.lw)]
    yw = h * st.wave_level
    wave = wave_points(-wall_x(yw), wall_x(yw), yw, st)
    wave[0, 0] = -wall_x(wave[0, 1])
    wave[-1, 0] = wall_x(wave[-1, 1])
    marks.append(Mark(Path(wave), st.lw))
    top_free = yw - st.wave_amp - st.lw * 1.3
    bottom_free = st.lw * 1.2
    cy = (top_free + bottom_free) / 2
    info = dict(box=(-top_w / 2 - st.tub_lip, 0.0, top_w / 2 + st.tub_lip, h), bottom=bot_w,
                center=(0.0, cy), free_h=top_free - bottom_free,
                free_w=2 * (wall_x(cy) - st.lw * 1.6), water=yw)
    return marks, info


HAND_OUTLINE = [  # a hand pointing down (fingertips at the origin), wrist at the top; cubic pieces
    (-0.13, 0.78), (-0.14, 0.6), (-0.155, 0.42), (-0.155, 0.3),
    (-0.16, 0.1), (-0.09, -0.01), (0.0, -0.01),
    (0.09, -0.01), (0.14, 0.1), (0.14, 0.26),
    (0.14, 0.3), (0.145, 0.33), (0.15, 0.36),
    (0.22, 0.37), (0.29, 0.43), (0.285, 0.5),
    (0.28, 0.56), (0.2, 0.57), (0.15, 0.545),
    (0.14, 0.63), (0.135, 0.7), (0.13, 0.78),
]


def hand_marks(st, tip, angle_deg=-36.0, scale=1.08):
    """The hand dipping into the tub from the upper right: a knockout fill (hides the water
    behind it), its outline, a cuff line and two finger lines."""
    tr = Affine2D().scale(scale).rotate_deg(angle_deg).translate(*tip)
    outline = bezier(*HAND_OUTLINE)
    closed = Path(np.vstack([outline.vertices, outline.vertices[:1]]),
                  list(outline.codes) + [Path.CLOSEPOLY])
    marks = [Mark(tr.transform_path(closed), knockout=True)]
    if st.hand_fill:
        marks.append(Mark(tr.transform_path(closed)))
    else:
        marks.append(Mark(tr.transform_path(outline), st.lw * 0.85))
        for x in (-0.045, 0.045):
            marks.append(Mark(tr.transform_path(segment((x, 0.05), (x * 1.1, 0.2))), st.lw * 0.6))
    marks.append(Mark(tr.transform_path(segment((-0.17, 0.8), (0.17, 0.8))), st.lw * 0.85))
    return marks


def twisted_cloth(st):
    """wring-no's drawing before the cross: two lobes joined by a twist, lying horizontally."""
    marks = []
    for side in (-1, 1):
        lobe = bezier((side * 0.1, 0.56), (side * 0.3, 0.64), (side * 0.55, 0.76), (side * 0.74, 0.78),
                      (side * 0.7, 0.6), (side * 0.78, 0.4), (side * 0.74, 0.2),
                      (side * 0.55, 0.22), (side * 0.3, 0.34), (side * 0.1, 0.42))
        marks.append(Mark(lobe, st.lw))
        # twist creases fanning out of the knot
        for end in (0.6, 0.38):
            marks.append(Mark(segment((side * 0.2, 0.49), (side * 0.6, end)), st.lw * 0.6))
    marks.append(Mark(ellipse(0.0, 0.49, 0.1, 0.13), st.lw))
    marks.append(Mark(segment((-0.06, 0.4), (0.06, 0.58)), st.lw * 0.7))
    return marks, (-0.78, 0.2, 0.78, 0.78)


def washing_symbol(code, variant, st):
    """Tub-based codes, and wring-no."""
    if code == "wring-no":
        marks, _ = twisted_cloth(st)
        # the X spans a squarer box than the cloth, so its arms do not run along the lobes' edges
        return marks + cross_marks((-0.6, -0.02, 0.6, 1.02), st)
    marks, info = tub(st)
    m = re.fullmatch(r"wash-(\d\d)(?:-(mild|very-mild))?", code)
    bars = 0
    if m:
        temp, bars = m.group(1), PROCESS_BARS[m.group(2)]
        if variant == "dots":
            marks += dot_marks(WASH_DOTS[temp], info["center"], st, info["free_w"])
        else:
            height = min(st.number_height, info["free_h"] * 0.92)
            marks += number_marks(temp, st, info["center"], height, info["free_w"])
    elif code in ("wash-hand", "wash-hand-ambient"):
        tip = (-0.2, info["water"] * 0.3)
        marks += hand_marks(st, tip)
        if code == "wash-hand-ambient":
            marks.append(Mark(ellipse(0.4, info["water"] * 0.3, st.dot_r)))
    elif code == "wash-no":
        marks += cross_marks(info["box"], st)
    elif code == "wash-machine-permanent-press":
        bars = 1
    elif code == "wash-machine-delicate":
        bars = 2
    marks += bar_marks(bars, info["bottom"] * st.bar_stretch, st)
    return marks


# =============================================================================================
# Bleaching: triangle
# =============================================================================================
def bleaching_symbol(code, variant, st):
    """Triangle codes: empty, non-chlorine lines, crossed (outline or solid), "Cl"."""
    w = 1.16
    h = w * math.sqrt(3) / 2
    tri = polyline([(-w / 2, 0), (w / 2, 0), (0, h)], closed=True)
    if code == "bleach-no" and variant == "filled":
        marks = [Mark(tri), Mark(tri, st.lw)]
        o = st.cross_over + 0.1  # a cross over a solid triangle shows only outside it
        box = (-w / 2 - o + st.cross_over, -o + st.cross_over, w / 2 + o - st.cross_over, h)
        cross = cross_marks(box, st)
        if st.cross_knockout:
            marks += [Mark(c.path, st.lw * 2.6, knockout=True) for c in cross]
        return marks + cross
    marks = [Mark(tri, st.lw)]
    if code == "bleach-no":
        marks += cross_marks((-w / 2, 0, w / 2, h), st)
    elif code == "bleach-non-chlorine":
        inset = 0.0 if st.nonchlorine_touch else st.lw * 1.5
        for b in (0.0, 0.2):  # start on the base, run parallel to the right side to the left side
            y_top = (b + w / 2) * h / w
            p = np.array([b, 0.0])
            q = np.array([b - y_top * (w / 2) / h, y_top])
            d = (q - p) / np.linalg.norm(q - p)
            p, q = p + d * (st.lw * 0.5 + inset), q - d * (st.lw * 0.9 + inset)
            marks.append(Mark(segment(p, q), st.lw))
    elif code == "bleach-chlorine":
        marks += text_marks("Cl", st.letter_font, 0.3, (0.0, 0.27), 0.46, ref="C")[0]
    return marks


# =============================================================================================
# Drying: square
# =============================================================================================
def drying_symbol(code, variant, st):
    """Square codes: tumble circle with dots/fill/bars/cross, line/drip/flat lines, shade."""
    marks = [Mark(polyline([(-0.5, 0), (0.5, 0), (0.5, 1), (-0.5, 1)], closed=True), st.lw)]
    box = (-0.5, 0.0, 0.5, 1.0)
    if code.startswith("tumble-"):
        r = 0.5 - st.lw - st.tumble_gap
        kind = code[len("tumble-"):]
        marks.append(Mark(ellipse(0, 0.5, r), 0 if kind == "no-heat" else st.lw))
        dots = {"low": 1, "normal": 2, "high": 3}.get(kind, 0)
        if dots:
            marks += dot_marks(dots, (0, 0.5), st, r * 1.3, rows=[dots])
        if kind == "no":
            marks += cross_marks(box, st)
        marks += bar_marks({"permanent-press": 1, "delicate": 2}.get(kind, 0),
                           1.0 * st.bar_stretch * 0.95, st)
        return marks
    if code == "dry-no":
        return marks + cross_marks(box, st)
    shade = code.endswith("-shade")
    base = code[:-len("-shade")] if shade else code
    inner = 0.5 - st.lw / 2
    if base == "dry-line" and variant == "sagging-line":
        sag = 1.0 - st.line_len * 0.55
        marks.append(Mark(Path(np.array([(-inner, 1 - st.lw / 2), (0, 2 * sag - 1),
                                          (inner, 1 - st.lw / 2)]),
                               [Path.MOVETO, Path.CURVE3, Path.CURVE3]), st.lw))
    elif base in ("dry-line", "dry-drip"):
        count = 1 if base == "dry-line" else (2 if variant == "two-lines" else 3)
        spread = st.line_spread if count == 2 else st.line_spread * 1.45
        xs = [0.0] if count == 1 else [(k - (count - 1) / 2) * spread for k in range(count)]
        if shade and count == 3:
            xs = [x + 0.06 for x in xs]  # leave the corner lines room
        y_end = 1 - st.line_len
        for x in xs:
            marks.append(Mark(segment((x, 1 - st.lw / 2), (x, y_end)), st.lw))
    elif base in ("dry-flat", "dry-drip-flat"):
        ys = [0.5] if base == "dry-flat" else [0.5 - st.line_spread * 0.7, 0.5 + st.line_spread * 0.7]
        for y in ys:
            marks.append(Mark(segment((-inner, y), (inner, y)), st.lw))
    if shade or code == "dry-shade":
        for c in (st.shade_cut, st.shade_cut + max(0.13, st.lw * 2.3)):
            marks.append(Mark(segment((-0.5 + c, 1.0), (-0.5, 1.0 - c)), st.lw))
    return marks


# =============================================================================================
# Ironing: iron
# =============================================================================================
def iron_body(st):
    """The iron: flat sole, pointed nose on the left, handle loop on top. Returns (marks, box,
    body centre for dots, free width)."""
    r = st.iron_round
    if st.iron_kind == "curved":
        body = Path(np.array([(-0.7, 0), (0.64, 0), (0.66, 0.24), (0.65, 0.5), (-0.12, 0.5),
                              (-0.4, 0.5), (-0.6, 0.22), (-0.7, 0), (-0.7, 0)]),
                    [Path.MOVETO, Path.LINETO, Path.CURVE3, Path.CURVE3, Path.LINETO,
                     Path.CURVE4, Path.CURVE4, Path.CURVE4, Path.CLOSEPOLY])
        handle = bezier((-0.24, 0.5), (-0.12, 0.7), (-0.06, 0.86), (0.1, 0.86),
                        (0.25, 0.86), (0.4, 0.86), (0.5, 0.86),
                        (0.59, 0.86), (0.6, 0.8), (0.6, 0.5))
    elif st.iron_kind == "angular":
        body = polyline([(-0.7, 0), (0.66, 0), (0.66, 0.48), (-0.2, 0.48)], closed=True, radius=r)
        handle = polyline([(-0.26, 0.48), (-0.04, 0.84), (0.56, 0.84), (0.6, 0.48)], radius=r)
    else:  # "boat": sloping back, nose raised a little off the sole line
        body = Path(np.array([(-0.72, 0.04), (-0.6, 0.0), (0.64, 0.0), (0.6, 0.52), (-0.16, 0.52),
                              (-0.5, 0.52), (-0.7, 0.2), (-0.72, 0.04), (-0.72, 0.04)]),
                    [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.LINETO,
                     Path.CURVE4, Path.CURVE4, Path.CURVE4, Path.CLOSEPOLY])
        handle = bezier((-0.1, 0.52), (-0.06, 0.9), (0.52, 0.96), (0.54, 0.52))
    marks = [Mark(body, st.lw), Mark(handle, st.lw)]
    return marks, (-0.72, 0.0, 0.66, 0.9), (0.06, 0.22), 0.8


def ironing_symbol(code, variant, st):
    """Iron codes: dots, crossed, or steam lines under the sole crossed by a small X."""
    marks, box, centre, free_w = iron_body(st)
    dots = {"iron-low": 1, "iron-medium": 2, "iron-high": 3}.get(code, 0)
    if dots:
        marks += dot_marks(dots, centre, st, free_w, rows=[dots])
    elif code == "iron-no":
        marks += cross_marks(box, st)
    elif code == "iron-no-steam":
        count = 2 if variant == "two-steam-lines" else 3
        top, bottom = -st.lw - 0.08, -st.lw - 0.36
        xs = [0.0 + (k - (count - 1) / 2) * 0.2 for k in range(count)]
        for x in xs:  # near-vertical, so they stand apart from the X's shallow diagonals
            marks.append(Mark(segment((x + 0.025, top), (x - 0.025, bottom)), st.lw * 0.8))
        pad = 0.16
        small = (min(xs) - pad, bottom - 0.03, max(xs) + pad, top + 0.01)
        marks += cross_marks(small, Style(**{**st.__dict__, "cross_over": 0.0, "lw": st.lw * 0.8}))
    return marks


# =============================================================================================
# Professional care: circle
# =============================================================================================
def professional_symbol(code, variant, st):
    """Circle codes: letters P F W A, bars, cross, and ASTM clock-position ticks."""
    r = 0.5
    marks = [Mark(ellipse(0, 0.5, r), st.lw)]
    m = re.fullmatch(r"pro-([pfwa])(?:-(mild|very-mild|no))?", code)
    if m:
        letter, mod = m.group(1).upper(), m.group(2)
        marks += text_marks(letter, st.letter_font, st.letter_height, (0, 0.5), 0.62, ref=letter)[0]
        if mod == "no":
            marks += cross_marks((-r, 0, r, 1), st)
        else:
            marks += bar_marks(PROCESS_BARS[mod], 2 * r * 0.86 * st.bar_stretch, st)
    elif code == "pro-no":
        marks += cross_marks((-r, 0, r, 1), st)
    elif code in TICK_CLOCK:
        theta = math.radians(90 - 30 * TICK_CLOCK[code])
        u = np.array([math.cos(theta), math.sin(theta)])
        c = np.array([0.0, 0.5])
        gap = st.lw * 1.2 + 0.05
        if st.tick_kind == "radial":
            p = c + u * (r + gap)
            q = c + u * (r + gap + st.tick_len)
        else:
            t = np.array([-u[1], u[0]])
            mid = c + u * (r + gap + st.lw)
            p, q = mid - t * st.tick_len / 2, mid + t * st.tick_len / 2
        marks.append(Mark(segment(p, q), st.lw))
    return marks


FAMILY_DRAWERS = {"washing": washing_symbol, "bleaching": bleaching_symbol,
                  "drying": drying_symbol, "ironing": ironing_symbol,
                  "professional": professional_symbol}


def build_symbol(code, variant, st):
    """The drawing of a code in a style (variant: one of variants(code))."""
    marks = FAMILY_DRAWERS[family(code)](code, variant, st)
    return Symbol(code, variant, marks, st.lw, st.cap, st.join)


# =============================================================================================
# Rasterising (matplotlib Agg)
# =============================================================================================
def rasterize(marks, width, height, to_px, cap="round", join="round"):
    """Ink coverage (0–1, float32, height × width) of marks drawn through to_px, an Affine2D from
    drawing units to pixel coordinates (x right, y down; pixel (i, j) covers [j, j+1)×[i, i+1)).
    Stroke widths scale with the transform; knockouts paint background over earlier ink."""
    fig = Figure(figsize=(width / 72 + 1e-6, height / 72 + 1e-6), dpi=72)
    fig.patch.set_facecolor("white")
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    px_per_unit = math.sqrt(abs(np.linalg.det(to_px.get_matrix()[:2, :2])))
    for m in marks:
        colour = "white" if m.knockout else "black"
        if m.width > 0:
            patch = PathPatch(m.path, fill=False, edgecolor=colour, linewidth=m.width * px_per_unit,
                              capstyle=cap, joinstyle=join)
        else:
            patch = PathPatch(m.path, facecolor=colour, edgecolor="none", linewidth=0)
        patch.set_transform(to_px + ax.transData)
        patch.set_snap(False)
        ax.add_patch(patch)
    canvas.draw()
    grey = np.asarray(canvas.buffer_rgba())[:height, :width, 0].astype(np.float32)
    return 1.0 - grey / 255.0


def symbol_tile(sym, px_per_unit, angle_deg=0.0, pad_px=2, origin=(0.0, 0.0)):
    """Rasterise a symbol at px_per_unit, rotated by angle_deg, on its own tile.
    Returns (coverage, (x0, y0)): the tile and where its corner sits, in pixels of a plane in
    which the symbol's unit point (0, 0.5) lands on `origin`."""
    x0, y0, x1, y1 = marks_bounds(sym.marks, sym.join)
    tr = Affine2D().translate(0, -0.5).rotate_deg(angle_deg).scale(px_per_unit, -px_per_unit) \
        .translate(*origin)
    corners = tr.transform(np.array([(x0, y0), (x0, y1), (x1, y0), (x1, y1)]))
    tx0 = int(math.floor(corners[:, 0].min())) - pad_px
    ty0 = int(math.floor(corners[:, 1].min())) - pad_px
    tx1 = int(math.ceil(corners[:, 0].max())) + pad_px
    ty1 = int(math.ceil(corners[:, 1].max())) + pad_px
    tile = rasterize(sym.marks, tx1 - tx0, ty1 - ty0, tr + Affine2D().translate(-tx0, -ty0),
                     sym.cap, sym.join)
    return tile, (tx0, ty0)


# =============================================================================================
# Surfaces: label materials, fabrics, tables
# =============================================================================================
LABEL_COLOURS = (  # name, rgb, weight; dark labels take light ink
    ("white", (0.95, 0.95, 0.94), 0.28), ("cream", (0.94, 0.9, 0.79), 0.14),
    ("grey", (0.7, 0.7, 0.69), 0.07), ("black", (0.07, 0.07, 0.08), 0.2),
    ("navy", (0.1, 0.13, 0.3), 0.08), ("burgundy", (0.45, 0.08, 0.13), 0.05),
    ("beige", (0.8, 0.72, 0.6), 0.07), ("pink", (0.93, 0.77, 0.8), 0.04),
    ("green", (0.14, 0.32, 0.2), 0.04), ("sky", (0.66, 0.8, 0.92), 0.03),
)
DARK_INKS = ((0.04, 0.04, 0.05), (0.18, 0.18, 0.2), (0.07, 0.09, 0.27), (0.24, 0.14, 0.07),
             (0.35, 0.35, 0.36))
LIGHT_INKS = ((0.96, 0.96, 0.94), (0.93, 0.88, 0.74), (0.76, 0.76, 0.79), (0.84, 0.7, 0.38))
FABRICS = ("knit", "denim", "plaid", "stripes", "heather", "gingham", "twill")
TABLES = ("wood", "laminate")


def luminance(rgb):
    """Relative luminance of an rgb triple (0–1)."""
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def pick_weighted(rng, items):
    """One (name, value, weight) item, chosen by weight."""
    w = np.array([it[-1] for it in items], float)
    return items[int(rng.choice(len(items), p=w / w.sum()))]


def pick(rng, seq):
    """One element of a sequence."""
    return seq[int(rng.integers(len(seq)))]


def coords(h, w):
    """Pixel-index grids (y, x), float32."""
    y, x = np.mgrid[0:h, 0:w]
    return y.astype(np.float32), x.astype(np.float32)


def low_noise(rng, h, w, cells):
    """Smooth noise, about unit variance, varying over `cells` cells across the larger side."""
    gh = max(2, int(round(cells * h / max(h, w))) + 2)
    gw = max(2, int(round(cells * w / max(h, w))) + 2)
    g = rng.standard_normal((gh, gw)).astype(np.float32)
    out = ndimage.zoom(g, (h / gh * 1.0001, w / gw * 1.0001), order=3, mode="nearest")
    return out[:h, :w]


def streaks(rng, h, w, length, axis):
    """Fine fibre streaks: white noise averaged along one axis, unit variance."""
    n = rng.standard_normal((h, w)).astype(np.float32)
    n = ndimage.uniform_filter1d(n, size=max(2, int(length)), axis=axis)
    return n / (n.std() + 1e-6)


def jitter_colour(rng, rgb, amount=0.04):
    """A colour nudged a little, clipped to 0–1."""
    return np.clip(np.asarray(rgb, np.float32) + rng.normal(0, amount, 3), 0, 1).astype(np.float32)


def label_surface(rng, h, w, base, material):
    """The label's cloth without ink: (rgb, thread) where thread (−1…1) is the weave for ink."""
    y, x = coords(h, w)
    base = np.asarray(base, np.float32)
    if material == "woven":
        pitch = rng.uniform(2.2, 4.2)
        a = rng.uniform(-0.03, 0.03)
        u, v = x + a * y, y - a * x
        thread = np.cos(2 * np.pi * u / pitch) * np.cos(2 * np.pi * v / (pitch * rng.uniform(0.8, 1.2)))
        thread = 0.7 * thread + 0.3 * streaks(rng, h, w, pitch * 6, 1) * 0.5
        shade = 1 + rng.uniform(0.05, 0.13) * thread + 0.02 * low_noise(rng, h, w, 5)
    elif material == "satin":
        thread = streaks(rng, h, w, rng.uniform(15, 40), 1) * 0.5
        phi = rng.uniform(0, np.pi)
        s = (x * np.cos(phi) + y * np.sin(phi)) / max(h, w)
        band = np.exp(-((s - rng.uniform(0.1, 0.9)) / rng.uniform(0.08, 0.25)) ** 2)
        shade = 1 + 0.03 * thread + rng.uniform(0.05, 0.22) * band - 0.05
    else:  # printed tape or paper-like
        thread = ndimage.gaussian_filter(rng.standard_normal((h, w)).astype(np.float32), 0.7)
        thread /= thread.std() + 1e-6
        shade = 1 + 0.02 * thread + 0.015 * low_noise(rng, h, w, 4)
    rgb = base[None, None, :] * shade[..., None]
    if luminance(base) < 0.3:  # sheen shows as a lighter veil on dark cloth
        rgb = rgb + (shade[..., None] - 1) * 0.25
    return np.clip(rgb, 0, 1).astype(np.float32), np.clip(thread, -1, 1).astype(np.float32)


def ink_on_cloth(rng, ink, thread, material, max_cell=3):
    """How ink sits on a material: woven ink steps along the threads (cells of 2…max_cell px),
    printed ink bleeds and fades a little, satin ink stays crisp."""
    if material == "woven":
        cell = int(rng.integers(2, max_cell + 1))
        h, w = ink.shape
        hh, ww = h // cell * cell, w // cell * cell
        coarse = ink[:hh, :ww].reshape(hh // cell, cell, ww // cell, cell).mean(axis=(1, 3))
        stepped = ink.copy()
        stepped[:hh, :ww] = np.repeat(np.repeat(coarse, cell, 0), cell, 1)
        ink = 0.55 * ink + 0.45 * stepped
        ink = ink * (0.88 + 0.12 * thread)
    elif material == "printed":
        ink = ndimage.gaussian_filter(ink, rng.uniform(0.2, 0.7))
        ink = ink * np.clip(rng.uniform(0.85, 1.0) + 0.05 * low_noise(rng, *ink.shape, 6), 0, 1)
    return np.clip(ink, 0, 1)


def fabric(rng, h, w, kind):
    """A garment-fabric background (rgb float32, h × w × 3)."""
    y, x = coords(h, w)
    c1 = jitter_colour(rng, pick(rng, ((0.2, 0.25, 0.45), (0.6, 0.6, 0.62), (0.12, 0.12, 0.13),
                                        (0.75, 0.2, 0.2), (0.85, 0.82, 0.75), (0.3, 0.45, 0.3),
                                        (0.9, 0.9, 0.9), (0.55, 0.4, 0.3), (0.9, 0.7, 0.3))), 0.06)
    c2 = jitter_colour(rng, pick(rng, ((0.9, 0.9, 0.88), (0.1, 0.1, 0.12), (0.7, 0.15, 0.15),
                                        (0.2, 0.3, 0.55), (0.85, 0.75, 0.45))), 0.06)
    fine = streaks(rng, h, w, 3, 0) * 0.5
    if kind == "knit":
        p = rng.uniform(7, 15)
        q = p * rng.uniform(0.6, 0.9)
        fx = (x / p) % 1.0
        v = np.abs(fx - 0.5)
        rows = np.cos(2 * np.pi * (y / q + v * 1.3))
        t = 0.5 + 0.25 * rows - 0.35 * np.exp(-((fx - 0.5) / 0.08) ** 2) * 0.5
        rgb = c1 * (0.75 + 0.35 * t[..., None])
    elif kind == "denim":
        p = rng.uniform(3, 6)
        tw = np.sin(2 * np.pi * (x + y * 0.6) / p)
        weft = np.clip(streaks(rng, h, w, 12, 0), -2, 2) * 0.5
        denim = np.array([0.17, 0.26, 0.45], np.float32) * rng.uniform(0.7, 1.3)
        rgb = denim * (1 + 0.15 * tw[..., None]) + 0.18 * np.clip(weft, 0, None)[..., None]
    elif kind in ("plaid", "gingham"):
        p = rng.uniform(20, 70)
        sx = ((x / p) % 1.0) < rng.uniform(0.3, 0.6)
        sy = ((y / p) % 1.0) < rng.uniform(0.3, 0.6)
        mix = (sx.astype(np.float32) + sy) / 2
        if kind == "plaid":
            thin = (((x / p + 0.5) % 1.0) < 0.06) | (((y / p + 0.5) % 1.0) < 0.06)
            mix = np.where(thin, 0.15, mix)
        rgb = c1 * (1 - mix[..., None]) + c2 * mix[..., None]
        rgb = rgb * (1 + 0.06 * np.sin(2 * np.pi * (x - y) / 3.0))[..., None]
    elif kind == "stripes":
        p = rng.uniform(12, 60)
        axis = x if rng.random() < 0.3 else y
        s = (((axis / p) % 1.0) < rng.uniform(0.3, 0.6)).astype(np.float32)
        s = ndimage.gaussian_filter(s, 0.8)
        rgb = c1 * (1 - s[..., None]) + c2 * s[..., None]
    elif kind == "twill":
        p = rng.uniform(4, 8)
        rgb = c1 * (1 + 0.08 * np.sin(2 * np.pi * (x - y) / p))[..., None]
    else:  # heather: mottled plain jersey
        rgb = c1 * (1 + 0.06 * low_noise(rng, h, w, 30)[..., None] + 0.08 * fine[..., None])
    folds = 1 + rng.uniform(0.03, 0.12) * low_noise(rng, h, w, rng.uniform(2, 5))
    rgb = rgb * folds[..., None] * (1 + 0.04 * fine[..., None])
    return np.clip(rgb, 0, 1).astype(np.float32)


def table(rng, h, w, kind):
    """A table-top background: wood grain or laminate."""
    y, x = coords(h, w)
    if kind == "wood":
        light = jitter_colour(rng, (0.72, 0.52, 0.32), 0.08)
        dark = light * rng.uniform(0.5, 0.75)
        bend = low_noise(rng, h, w, 4) * rng.uniform(10, 30)
        grain = np.sin(2 * np.pi * (y + bend) / rng.uniform(12, 40))
        fibre = streaks(rng, h, w, 40, 1) * 0.5
        t = np.clip(0.5 + 0.35 * grain + 0.15 * fibre, 0, 1)
        if rng.random() < 0.5:
            t = t.T[:h, :w] if h == w else t
        rgb = dark * (1 - t[..., None]) + light * t[..., None]
    else:
        base = jitter_colour(rng, pick(rng, ((0.9, 0.9, 0.88), (0.55, 0.55, 0.56), (0.25, 0.25, 0.27),
                                             (0.85, 0.8, 0.7))), 0.03)
        rgb = base * (1 + 0.03 * low_noise(rng, h, w, 3) + 0.01 * rng.standard_normal((h, w)))[..., None]
    return np.clip(rgb, 0, 1).astype(np.float32)


def background(rng, h, w):
    """What a label lies on: a garment fabric (70%) or a table (30%)."""
    if rng.random() < 0.7:
        return fabric(rng, h, w, pick(rng, FABRICS))
    return table(rng, h, w, pick(rng, TABLES))


# =============================================================================================
# Camera: homography, bends and folds, light, blur, noise, JPEG
# =============================================================================================
def homography(src, dst):
    """3×3 H with H·src ≈ dst for four point pairs (direct linear transform)."""
    a = []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.asarray(a, float))
    hm = vt[-1].reshape(3, 3)
    return hm / hm[2, 2]


def apply_h(hm, pts):
    """Apply a homography to N×2 points."""
    p = np.column_stack([pts, np.ones(len(pts))]) @ hm.T
    return p[:, :2] / p[:, 2:3]


@dataclass
class Fold:
    """A crease across the label: a line in plane coordinates, a small shift of the cloth on its
    far side, and shading (a dark crease and one side a little brighter)."""
    point: tuple
    normal: tuple
    shift: float
    width: float
    crease: float
    side: float


def random_fold(rng, lw, lh):
    """A crease near horizontal or vertical, somewhere inside the label."""
    angle = rng.normal(0, 0.25) + (0 if rng.random() < 0.6 else np.pi / 2)
    normal = (float(-math.sin(angle)), float(math.cos(angle)))
    point = (float(rng.uniform(0.15, 0.85) * lw), float(rng.uniform(0.15, 0.85) * lh))
    return Fold(point, normal, float(rng.uniform(1.0, 4.0)), float(rng.uniform(3, 10)),
                float(rng.uniform(0.08, 0.25)), float(rng.uniform(-0.08, 0.08)))


def plane_map(hm_inv, out_h, out_w, bend, folds):
    """For every output pixel, where it comes from in the label plane (continuous coordinates),
    and the fold shading there. bend = (ax, ay, period_x, period_y, phase)."""
    y, x = coords(out_h, out_w)
    xs, ys = x + 0.5, y + 0.5
    den = hm_inv[2, 0] * xs + hm_inv[2, 1] * ys + hm_inv[2, 2]
    u = (hm_inv[0, 0] * xs + hm_inv[0, 1] * ys + hm_inv[0, 2]) / den
    v = (hm_inv[1, 0] * xs + hm_inv[1, 1] * ys + hm_inv[1, 2]) / den
    ax, ay, px, py, ph = bend
    u2 = u + ax * np.sin(2 * np.pi * v / py + ph)
    v2 = v + ay * np.sin(2 * np.pi * u / px + ph * 1.7)
    shade = np.ones_like(u)
    for f in folds:
        d = (u - f.point[0]) * f.normal[0] + (v - f.point[1]) * f.normal[1]
        step = 0.5 * (1 + np.tanh(d / f.width))
        u2 = u2 + f.normal[0] * f.shift * step
        v2 = v2 + f.normal[1] * f.shift * step
        shade = shade * (1 - f.crease * np.exp(-(d / f.width) ** 2)) * (1 + f.side * np.tanh(d / f.width))
    return u2.astype(np.float32), v2.astype(np.float32), shade.astype(np.float32)


def sample(plane, u, v, order=1):
    """Sample a plane image (2-D or h × w × c) at continuous coordinates (u, v); outside is 0."""
    rows, cols = v - 0.5, u - 0.5
    if plane.ndim == 2:
        return ndimage.map_coordinates(plane, [rows, cols], order=order, mode="constant", cval=0.0)
    return np.stack([ndimage.map_coordinates(plane[..., c], [rows, cols], order=order,
                                             mode="constant", cval=0.0)
                     for c in range(plane.shape[2])], axis=-1)


def warped_box(tile, origin, u, v):
    """Ground-truth box of one symbol: its tile pushed through the photo's inverse map."""
    tx0, ty0 = origin
    th, tw = tile.shape
    sel = (u >= tx0 - 1) & (u <= tx0 + tw + 1) & (v >= ty0 - 1) & (v <= ty0 + th + 1)
    ys, xs = np.nonzero(sel)
    if len(xs) == 0:
        return None
    cov = ndimage.map_coordinates(tile, [v[ys, xs] - ty0 - 0.5, u[ys, xs] - tx0 - 0.5],
                                  order=1, mode="constant", cval=0.0)
    hit = cov >= BOX_COVERAGE
    if not hit.any():
        return None
    hx, hy = xs[hit], ys[hit]
    return [int(hx.min()), int(hy.min()), int(hx.max() - hx.min() + 1), int(hy.max() - hy.min() + 1)]


def light_field(rng, h, w):
    """Uneven light: a gradient, a soft spot, vignetting, sometimes a shadow edge; per-channel
    colour cast. Returns h × w × 3 multipliers."""
    y, x = coords(h, w)
    yn, xn = y / h - 0.5, x / w - 0.5
    t = rng.uniform(0, 2 * np.pi)
    field = 1 + rng.uniform(0, 0.45) * (xn * np.cos(t) + yn * np.sin(t))
    cx, cy = rng.uniform(-0.4, 0.4, 2)
    field = field + rng.uniform(0, 0.25) * np.exp(-((xn - cx) ** 2 + (yn - cy) ** 2) / rng.uniform(0.02, 0.2))
    field = field * (1 - rng.uniform(0, 0.35) * (xn ** 2 + yn ** 2))
    if rng.random() < 0.2:  # the shadow of a phone or a hand
        t2 = rng.uniform(0, 2 * np.pi)
        d = xn * np.cos(t2) + yn * np.sin(t2) - rng.uniform(-0.1, 0.4)
        field = field * (1 - rng.uniform(0.2, 0.45) * 0.5 * (1 + np.tanh(d / rng.uniform(0.02, 0.1))))
    exposure = rng.uniform(0.6, 1.1)
    cast = np.array([1.0, 1.0, 1.0], np.float32) + rng.normal(0, 0.05, 3).astype(np.float32)
    return (field[..., None] * exposure * cast).astype(np.float32)


def motion_kernel(length, angle):
    """A normalised line kernel for motion blur."""
    size = int(math.ceil(length)) | 1
    k = np.zeros((size, size), np.float32)
    c = size // 2
    for t in np.linspace(-length / 2, length / 2, 4 * size):
        k[int(round(c + t * math.sin(angle))), int(round(c + t * math.cos(angle)))] = 1
    return k / k.sum()


def blur_and_noise(rng, img, blur_max=1.6, noise_max=0.04, motion_max=7.0):
    """Defocus (Gaussian, sigma up to blur_max) or motion blur (a line up to motion_max px),
    then sensor noise (read + shot, partly chromatic)."""
    r = rng.random()
    if r < 0.12:
        k = motion_kernel(rng.uniform(min(2.5, motion_max), motion_max), rng.uniform(0, np.pi))
        img = np.stack([ndimage.convolve(img[..., c], k, mode="nearest") for c in range(3)], -1)
    elif r < 0.85:
        s = rng.uniform(0.0, blur_max) * rng.uniform(0.3, 1.0)
        if s > 0.25:
            img = ndimage.gaussian_filter(img, (s, s, 0))
    read = rng.uniform(0.003, noise_max)
    shot = rng.uniform(0, 0.03)
    h, w, _ = img.shape
    luma_noise = rng.standard_normal((h, w, 1)).astype(np.float32)
    chroma = rng.standard_normal((h, w, 3)).astype(np.float32)
    mix = rng.uniform(0.2, 0.6)
    n = (1 - mix) * luma_noise + mix * chroma
    if rng.random() < 0.5:  # demosaicked noise is not white
        n = ndimage.gaussian_filter(n, (0.6, 0.6, 0))
        n /= n.std() + 1e-6
    img = img + n * (read + shot * np.sqrt(np.clip(img, 0, 1)))
    return np.clip(img, 0, 1)


def to_uint8(img):
    """float 0–1 → uint8."""
    return (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)


def jpeg_bytes(img_u8, quality):
    """JPEG-encode an rgb uint8 array (Pillow; optimise off, so the bytes are reproducible)."""
    buf = io.BytesIO()
    Image.fromarray(img_u8).save(buf, format="JPEG", quality=int(quality))
    return buf.getvalue()


# =============================================================================================
# Singles: a crop of one symbol
# =============================================================================================
# Legibility budget for crops: the test must stay readable by a person at 40 px.
MIN_STROKE_PX = 1.2          # thinnest stroke in a crop as stored
MIN_RENDER_SYMBOL_PX = 26    # a low-resolution crop renders its symbol no smaller than this
MIN_CONTRAST = 0.16          # luminance difference between ink and cloth, at least


def crop_background(rng, h, w):
    """Background and natural ink colour of a crop: label cloth (woven, satin, printed), plain
    or a gradient. Returns (rgb, thread, material, ink rgb, cloth rgb)."""
    _, base, _ = pick_weighted(rng, LABEL_COLOURS)
    base = jitter_colour(rng, base, 0.03)
    r = rng.random()
    if r < 0.6:
        material = pick(rng, ("woven", "satin", "printed"))
        rgb, thread = label_surface(rng, h, w, base, material)
    elif r < 0.8:
        material = "printed"
        rgb = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        thread = np.zeros((h, w), np.float32)
    else:
        material = "printed"
        y, x = coords(h, w)
        t = rng.uniform(0, 2 * np.pi)
        g = ((x - w / 2) * np.cos(t) + (y - h / 2) * np.sin(t)) / max(h, w)
        rgb = np.clip(base * (1 + rng.uniform(0.1, 0.5) * g)[..., None], 0, 1).astype(np.float32)
        thread = np.zeros((h, w), np.float32)
    inks = DARK_INKS if luminance(base) >= 0.4 else LIGHT_INKS
    return rgb, thread, material, jitter_colour(rng, pick(rng, inks), 0.02), base


def ensure_contrast(ink, cloth, minimum):
    """Ink pushed away from the cloth's colour until their luminances differ by minimum."""
    d = luminance(ink) - luminance(cloth)
    if abs(d) >= minimum:
        return ink
    if abs(d) < 1e-3:
        ink = np.zeros(3, np.float32) if luminance(cloth) > 0.5 else np.ones(3, np.float32)
        d = luminance(ink) - luminance(cloth)
    return np.clip(cloth + (ink - cloth) * (minimum / abs(d)), 0, 1).astype(np.float32)


def fit_symbol(code, variant, st, symbol_px, angle):
    """Build a symbol scaled so its rotated ink box's larger side is symbol_px, thickening the
    strokes to MIN_STROKE_PX when they would be thinner. Returns (symbol, px per unit, ink box
    size in units (w, h) after rotation, bounds)."""
    c, s = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
    for _ in range(2):
        sym = build_symbol(code, variant, st)
        x0, y0, x1, y1 = marks_bounds(sym.marks, sym.join)
        bw, bh = (x1 - x0) * c + (y1 - y0) * s, (x1 - x0) * s + (y1 - y0) * c
        ppu = symbol_px / max(bw, bh)
        if st.lw * ppu >= MIN_STROKE_PX:
            break
        st = Style(**{**st.__dict__, "lw": MIN_STROKE_PX / ppu})
    return sym, ppu, (bw, bh), (x0, y0, x1, y1)


def render_single(code, occurrence, seed, index):
    """One crop: the symbol filling 50–90% of a 40–200 px square (sometimes a little oblong),
    rotated up to 8°, on label cloth or a plain or graded background, either polarity, with
    blur, noise, sometimes low contrast, low resolution or JPEG artefacts. How hard each
    degradation may be follows the symbol's size and stroke, so that a person can still read
    every crop. Returns (png bytes, variant)."""
    rng = np.random.default_rng([seed, 1, index])
    st = random_style(rng)
    variant = variants(code)[occurrence % len(variants(code))]
    side = int(rng.integers(40, 201))
    w = side
    h = int(np.clip(round(side * rng.uniform(0.85, 1.15)), 40, 200)) if rng.random() < 0.3 else side
    fill = rng.uniform(0.5, 0.9)
    angle = rng.uniform(-8, 8)
    symbol_px = fill * min(w, h)
    f = 1.0
    if rng.random() < 0.25 and symbol_px * 0.8 >= MIN_RENDER_SYMBOL_PX:
        f = rng.uniform(max(0.45, MIN_RENDER_SYMBOL_PX / symbol_px), 0.8)
    rw, rh = int(round(w * f)), int(round(h * f))
    sym, ppu, (bw, bh), (x0, y0, x1, y1) = fit_symbol(code, variant, st, fill * min(rw, rh), angle)
    slack_x, slack_y = (rw - bw * ppu) / 2, (rh - bh * ppu) / 2
    cx = rw / 2 + rng.uniform(-0.6, 0.6) * slack_x
    cy = rh / 2 + rng.uniform(-0.6, 0.6) * slack_y
    # place the ink box centre (not the unit point) at (cx, cy)
    mid = np.array([(x0 + x1) / 2, (y0 + y1) / 2 - 0.5])
    off = Affine2D().rotate_deg(angle).scale(ppu, -ppu).transform(mid[None])[0]
    tile, (tx, ty) = symbol_tile(sym, ppu, angle, origin=(cx - off[0], cy - off[1]))
    ink = np.zeros((rh, rw), np.float32)
    paste(ink, tile, tx, ty)
    rgb, thread, material, ink_rgb, base = crop_background(rng, rh, rw)
    ink = ink_on_cloth(rng, ink, thread, material, max_cell=2 if symbol_px * f < 60 else 3)
    low_contrast = rng.random() < 0.3
    if low_contrast:  # the ink only part-way from the cloth's colour
        ink_rgb = base + (ink_rgb - base) * rng.uniform(0.3, 0.55)
    ink_rgb = ensure_contrast(ink_rgb, base, MIN_CONTRAST)
    img = rgb * (1 - ink[..., None]) + ink_rgb * ink[..., None]
    img = img * light_field(rng, rh, rw) ** 0.5
    stroke_px = sym.lw * ppu
    img = blur_and_noise(rng, img, blur_max=min(0.3 + side / 120, 0.3 + 0.5 * stroke_px),
                         noise_max=0.02 if low_contrast else 0.05, motion_max=1.5 + stroke_px)
    if f < 1.0:
        img = np.clip(ndimage.zoom(img, (h / rh, w / rw, 1), order=1), 0, 1)
        img = pad_to(img, h, w)
    u8 = to_uint8(img)
    if rng.random() < 0.35:  # a crop of a JPEG photo
        u8 = np.asarray(Image.open(io.BytesIO(jpeg_bytes(u8, rng.integers(50, 92)))).convert("RGB"))
    buf = io.BytesIO()
    Image.fromarray(u8).save(buf, format="PNG")
    return buf.getvalue(), variant


def paste(canvas, tile, x, y):
    """Max-combine a coverage tile into a canvas at (x, y), clipping at the edges."""
    h, w = canvas.shape
    th, tw = tile.shape
    cx0, cy0 = max(0, x), max(0, y)
    cx1, cy1 = min(w, x + tw), min(h, y + th)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    region = tile[cy0 - y:cy1 - y, cx0 - x:cx1 - x]
    canvas[cy0:cy1, cx0:cx1] = np.maximum(canvas[cy0:cy1, cx0:cx1], region)


def pad_to(img, h, w):
    """Pad (edge) or crop an h' × w' × 3 image to h × w."""
    img = img[:h, :w]
    if img.shape[0] < h or img.shape[1] < w:
        img = np.pad(img, ((0, h - img.shape[0]), (0, w - img.shape[1]), (0, 0)), mode="edge")
    return img


# =============================================================================================
# Label text
# =============================================================================================
FIBRES = ("100% COTTON", "100% COTON", "100% BAUMWOLLE", "100% ALGODÓN", "100% COTONE",
          "100% KATOEN", "100% BOMULL", "ΒΑΜΒΑΚΙ 100%", "ХЛОПОК 100%", "95% VISCOSE 5% ELASTANE",
          "80% WOOL 20% POLYAMIDE", "80% LAINE 20% POLYAMIDE", "70% POLYESTER 30% COTTON",
          "52% LINEN 48% COTTON", "100% MERINO WOOL", "SHELL: 100% NYLON",
          "LINING: 100% POLYESTER", "60% Baumwolle 40% Polyester", "100% Seide / Silk / Soie",
          "CORPO: 100% POLIESTERE", "65% Polyester 35% Viscose", "100% LIN / LINEN / LEINEN")
ORIGINS = ("MADE IN PORTUGAL", "FABRIQUÉ EN TUNISIE", "HECHO EN MÉXICO", "MADE IN CHINA",
           "MADE IN BANGLADESH", "HERGESTELLT IN DER TÜRKEI", "PRODOTTO IN ITALIA",
           "MADE IN VIET NAM", "FABRICADO EN ESPAÑA", "MADE IN INDIA", "WYPRODUKOWANO W POLSCE",
           "VYROBENO V ČR", "Made in Sri Lanka", "FABRIQUÉ AU MAROC")
SIZES = ("M", "S / 36", "EU 40  UK 12  US 8", "L (42-44)", "XL", "TAILLE 38", "GR. 50", "32/34",
         "XS / P / CH", "M 170/92A", "SIZE 10", "EUR 44")
MISC = ("WASH INSIDE OUT", "LAVER À L'ENVERS", "WASH WITH SIMILAR COLOURS",
        "MIT ÄHNLICHEN FARBEN WASCHEN", "LAVAR DEL REVÉS", "DO NOT SOAK", "RN 54867  CA 17897",
        "STYLE 40211 · LOT 8812", "REMOVE PROMPTLY", "ART. 2291/77", "SEE REVERSE FOR CARE",
        "ВЫВЕРНУТЬ НАИЗНАНКУ", "Lavare separatamente", "Wash dark colours separately",
        "RN 117013", "Ref. 0457/320/800")
CARE_WORDS = ("MACHINE WASH COLD", "DO NOT BLEACH", "TUMBLE DRY LOW", "COOL IRON",
              "DRY CLEANABLE", "HAND WASH ONLY", "LAVAGE À 30°", "NICHT IM TROCKNER TROCKNEN",
              "NO LAVAR EN SECO", "LINE DRY IN SHADE", "WASH AT 40°C", "DO NOT TUMBLE DRY",
              "Iron on reverse", "Only non-chlorine bleach when needed")
BRANDS = ("NORDVIK", "Maison Lune", "ARDEN & CO", "BLUEFIN", "Oak+Thread", "VELA", "kestrel",
          "Hollis", "MARÉE", "Sundry Goods", "ATLAS WORKWEAR", "Fjell", "nomad/ic", "CASA OLIVA")


def text_lines(rng, count, banks=(FIBRES, ORIGINS, SIZES, MISC)):
    """count lines of label text, drawn from the banks in turn."""
    lines = []
    for k in range(count):
        lines.append(pick(rng, banks[(k + int(rng.integers(len(banks)))) % len(banks)]))
    return lines


def text_font_for(rng, lines):
    """A text font that has every glyph of the lines (cm fonts only cover ASCII)."""
    names = [f for f in TEXT_FONTS if all(font_has(f, line) for line in lines)]
    return pick(rng, names)


# =============================================================================================
# Labels: plan, layout, plane, photo
# =============================================================================================
FAMILY_WEIGHT = {"washing": 0.95, "bleaching": 0.45, "drying": 0.9, "ironing": 0.6,
                 "professional": 0.8}
SYMBOL_COUNTS = (2, 3, 4, 5, 6, 7)
SYMBOL_COUNT_P = (0.1, 0.15, 0.2, 0.3, 0.15, 0.1)


def plan_labels(n, seed):
    """Which codes each label shows, in reading order. Families are chosen like real labels
    (mostly one symbol each, extras from washing, drying, professional), and within a family the
    least-used code so far is taken, so every code appears across the set. Mostly in family
    order; 15% of labels shuffled."""
    rng = np.random.default_rng([seed, 90])
    used = {c: 0 for c in CODES}
    plans = []
    for _ in range(n):
        k = int(rng.choice(SYMBOL_COUNTS, p=SYMBOL_COUNT_P))
        fams = list(FAMILIES)
        w = np.array([FAMILY_WEIGHT[f] for f in fams])
        chosen = list(rng.choice(fams, size=min(k, 5), replace=False, p=w / w.sum()))
        while len(chosen) < k:
            chosen.append(str(rng.choice(["washing", "drying", "drying", "professional"])))
        codes = []
        for fam in chosen:
            pool = [c for c in CODES if family(c) == fam and c not in codes]
            low = min(used[c] for c in pool)
            cands = [c for c in pool if used[c] == low]
            code = cands[int(rng.integers(len(cands)))]
            used[code] += 1
            codes.append(code)
        if rng.random() < 0.85:
            codes.sort(key=lambda c: FAMILIES.index(family(c)))
        else:
            rng.shuffle(codes)
        rows = 1
        if k >= 4 and rng.random() < 0.3:
            rows = 2
        plans.append({"codes": codes, "rows": rows})
    return plans


def choose_variant(rng, code):
    """A drawing for a code on a label: ISO forms a little more often than ASTM ones."""
    vs = variants(code)
    if len(vs) == 1:
        return vs[0]
    return vs[0] if rng.random() < 0.6 else vs[1]


@dataclass
class Placed:
    """A symbol placed on the label plane (units: symbol height; y down from the top-left)."""
    symbol: Symbol
    x: float  # where the symbol's unit point (0, 0.5) lands
    y: float


@dataclass
class TextLine:
    """A line of text (or a logo) on the label plane: its glyph marks in plane units."""
    marks: list


def layout_label(rng, symbols, rows, lines_top, lines_bottom, font, align, logo=None):
    """Place symbols (in rows) and text lines on a label. Returns (placed, texts, width, height)
    in label units (1 unit = the symbols' base height)."""
    gap = rng.uniform(0.28, 0.6)
    text_h = rng.uniform(0.2, 0.36)
    margin_x, margin_y = rng.uniform(0.35, 0.8), rng.uniform(0.3, 0.65)
    half = math.ceil(len(symbols) / 2)
    row_lists = [] if not symbols else [symbols] if rows == 1 else [symbols[:half], symbols[half:]]
    row_dims = []
    for row in row_lists:
        bounds = [marks_bounds(s.marks, s.join) for s in row]
        width = sum(b[2] - b[0] for b in bounds) + gap * (len(row) - 1)
        up = max(b[3] - 0.5 for b in bounds)
        down = max(0.5 - b[1] for b in bounds)
        row_dims.append((bounds, width, up, down))
    content_w = max([d[1] for d in row_dims] + [0.0])
    target_w = max(content_w, 4.5)
    texts_top = [fit_text(t, font, text_h, target_w) for t in lines_top]
    texts_bottom = [fit_text(t, font, text_h * rng.uniform(0.8, 1.0), target_w) for t in lines_bottom]
    logo_marks = logo(target_w) if logo else None
    widths = [content_w] + [t[1] for t in texts_top + texts_bottom if t]
    if logo_marks:
        widths.append(logo_marks[1][2] - logo_marks[1][0])
    inner_w = max(widths) + rng.uniform(0, 1.2)
    label_w = inner_w + 2 * margin_x
    place_x = (lambda w: margin_x + (inner_w - w) / 2) if align == "center" else (lambda w: margin_x)
    y = margin_y
    texts, placed = [], []
    if logo_marks:
        marks, (lx0, ly0, lx1, ly1) = logo_marks
        x = place_x(lx1 - lx0)
        tr = Affine2D().translate(-lx0, -ly1).scale(1, -1).translate(x, y)
        texts.append(TextLine([Mark(tr.transform_path(m.path), m.width) for m in marks]))
        y += (ly1 - ly0) + text_h
    y = place_lines(texts, texts_top, y, text_h, place_x)
    if texts_top:
        y += rng.uniform(0.15, 0.45)
    for row, (bounds, width, up, down) in zip(row_lists, row_dims):
        x = place_x(width)
        cy = y + up
        for s, b in zip(row, bounds):
            placed.append(Placed(s, x - b[0], cy))
            x += (b[2] - b[0]) + gap
        y = cy + down + gap * rng.uniform(0.8, 1.4)
    if row_dims:
        y += rng.uniform(0.0, 0.3)
    y = place_lines(texts, texts_bottom, y, text_h, place_x)
    label_h = y + margin_y - (text_h * 0.6 if (texts_bottom or texts_top) else 0)
    return placed, texts, label_w, max(label_h, 1.2)


def fit_text(text, font, height, max_width):
    """Glyph outline of a text line at cap height `height`, shrunk to max_width; None when it
    would have to shrink below 60%. Returns (path, width, height)."""
    path = glyph_path(text, font)
    cap = glyph_path("H", font).get_extents().height
    ext = path.get_extents()
    scale = height / cap
    if ext.width * scale > max_width:
        if max_width / (ext.width * scale) < 0.6:
            return None
        scale = max_width / ext.width
    tr = Affine2D().translate(-ext.x0, 0).scale(scale, -scale)  # baseline at y = 0, y down
    return tr.transform_path(path), ext.width * scale, cap * scale


def place_lines(texts, lines, y, text_h, place_x):
    """Stack fitted text lines from y down; returns the y after them."""
    for t in lines:
        if not t:
            continue
        path, width, cap = t
        y += cap
        texts.append(TextLine([Mark(Affine2D().translate(place_x(width), y).transform_path(path))]))
        y += cap * 0.75 + text_h * 0.25
    return y


@dataclass
class Look:
    """How a label looks: material, cloth colour, ink colour, edges."""
    material: str
    cloth: np.ndarray
    ink: np.ndarray
    hem: bool
    fray: float


def random_look(rng):
    """A label look: woven/satin/printed; white, cream, grey, black, navy or a colour; ink dark
    on light cloth, light on dark."""
    _, cloth, _ = pick_weighted(rng, LABEL_COLOURS)
    cloth = jitter_colour(rng, cloth, 0.025)
    material = str(rng.choice(["woven", "satin", "printed"], p=[0.4, 0.3, 0.3]))
    ink = pick(rng, DARK_INKS if luminance(cloth) >= 0.4 else LIGHT_INKS)
    return Look(material, cloth, jitter_colour(rng, ink, 0.02), bool(rng.random() < 0.35),
                float(rng.uniform(0, 1.5)) if material == "woven" else 0.0)


def render_plane(rng, look, placed, texts, label_w, label_h, ppu):
    """The label plane at ppu pixels per unit: (rgb, alpha, [(tile, origin)] per symbol)."""
    pw, ph = int(math.ceil(label_w * ppu)), int(math.ceil(label_h * ppu))
    ink = np.zeros((ph, pw), np.float32)
    text_marks_all = [m for t in texts for m in t.marks]
    if text_marks_all:
        ink = np.maximum(ink, rasterize(text_marks_all, pw, ph, Affine2D().scale(ppu)))
    tiles = []
    for p in placed:
        tile, origin = symbol_tile(p.symbol, ppu, 0.0, origin=(p.x * ppu, p.y * ppu))
        paste(ink, tile, *origin)
        tiles.append((tile, origin))
    cloth, thread = label_surface(rng, ph, pw, look.cloth, look.material)
    inked = ink_on_cloth(rng, ink, thread, look.material)
    rgb = cloth * (1 - inked[..., None]) + look.ink * inked[..., None]
    alpha = np.ones((ph, pw), np.float32)
    if look.hem:  # a sewn fold along the top or bottom edge: a shadow line and stitches
        band = int(ppu * rng.uniform(0.12, 0.25))
        at_top = rng.random() < 0.5
        yb = band if at_top else ph - band
        yy = np.arange(ph, dtype=np.float32)[:, None]
        rgb *= (1 - 0.25 * np.exp(-((yy - yb) / max(1.5, band * 0.15)) ** 2))[..., None]
        dash = max(3, int(ppu * 0.12))
        ys = yb + (band // 2 if at_top else -band // 2) - 1
        for x in range(dash, pw - dash, dash * 2):
            rgb[max(0, ys):ys + 2, x:x + dash] *= 0.8
    if look.fray > 0:
        yy, xx = coords(ph, pw)
        edge = np.minimum(np.minimum(xx, pw - 1 - xx), np.minimum(yy, ph - 1 - yy))
        alpha = np.clip((edge + 0.5 - look.fray * (0.5 + 0.5 * low_noise(rng, ph, pw, 40))), 0, 1)
    return rgb.astype(np.float32), alpha.astype(np.float32), tiles


def place_on_photo(rng, plane_w, plane_h, out_w, out_h, scale, keep_boxes):
    """A homography from the label plane to the photo: a similarity (rotation ±15°, scale,
    position) with each corner jittered for perspective. keep_boxes: plane boxes that must land
    inside the photo. Returns H or None when it does not fit."""
    for _ in range(40):
        angle = math.radians(rng.uniform(-15, 15))
        s = scale * rng.uniform(0.92, 1.05)
        corners = np.array([(0, 0), (plane_w, 0), (plane_w, plane_h), (0, plane_h)], float)
        c, sn = math.cos(angle), math.sin(angle)
        rot = (corners - [plane_w / 2, plane_h / 2]) @ np.array([[c, sn], [-sn, c]]) * s
        span = rot.max(0) - rot.min(0)
        free = np.array([out_w, out_h]) - span
        centre = np.array([out_w / 2, out_h / 2]) + rng.uniform(-0.5, 0.5, 2) * np.maximum(free, 0) * 0.9
        dst = rot + centre + rng.normal(0, 0.025, (4, 2)) * span.min()
        hm = homography(corners, dst)
        ok = True
        for (x0, y0, x1, y1) in keep_boxes:
            p = apply_h(hm, np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], float))
            if p[:, 0].min() < 6 or p[:, 1].min() < 6 or p[:, 0].max() > out_w - 6 or p[:, 1].max() > out_h - 6:
                ok = False
                break
        if ok:
            return hm
        scale *= 0.95
    return None


def add_thumb(rng, img, corner, centre, avoid):
    """A thumb reaching over a label corner from outside, unless it would touch a symbol box
    (then the image is returned unchanged)."""
    h, w, _ = img.shape
    d = np.asarray(corner, float) - np.asarray(centre, float)
    d /= np.linalg.norm(d) + 1e-9
    a = rng.uniform(-0.5, 0.5)  # not exactly along the diagonal
    d = np.array([d[0] * math.cos(a) - d[1] * math.sin(a), d[0] * math.sin(a) + d[1] * math.cos(a)])
    rx, ry = rng.uniform(0.045, 0.07) * w, rng.uniform(0.13, 0.2) * w
    c = np.asarray(corner, float) + d * ry * rng.uniform(0.5, 0.8)
    ang = math.degrees(math.atan2(d[1], d[0])) - 90  # the long axis along d
    mask = rasterize([Mark(ellipse(c[0], c[1], rx, ry, ang))], w, h, Affine2D())
    for bx, by, bw, bh in avoid:
        if mask[max(0, by - 4):by + bh + 4, max(0, bx - 4):bx + bw + 4].max(initial=0) > 0.01:
            return img
    tip = c - d * ry * 0.62
    nail = rasterize([Mark(ellipse(tip[0], tip[1], rx * 0.6, ry * 0.28, ang))], w, h, Affine2D()) * mask
    skin = jitter_colour(rng, pick(rng, ((0.87, 0.67, 0.55), (0.65, 0.45, 0.32), (0.45, 0.3, 0.2),
                                         (0.93, 0.76, 0.66))), 0.03)
    y, x = coords(h, w)
    across = ((x - c[0]) * d[1] - (y - c[1]) * d[0]) / rx  # −1…1 across the thumb
    shade = 0.7 + 0.35 * np.clip(1 - across ** 2, 0, 1)
    col = skin * shade[..., None]
    col = col * (1 - nail[..., None] * 0.35) + nail[..., None] * 0.35 * np.array([0.97, 0.88, 0.85])
    m = ndimage.gaussian_filter(mask, 1.5)[..., None]
    return img * (1 - m) + col * m


def photograph_plane(rng, rgb, alpha, tiles, out_w, out_h, thumb=True):
    """Put a label plane in a photo: background, homography, bends and folds, shadow, thumb,
    light, blur, noise. Returns (image float32, boxes) or None when the label does not fit."""
    ph, pw = alpha.shape
    keep = [(o[0], o[1], o[0] + t.shape[1], o[1] + t.shape[0]) for t, o in tiles]
    hm = place_on_photo(rng, pw, ph, out_w, out_h, 1.0, keep)
    if hm is None:
        return None
    hm_inv = np.linalg.inv(hm)
    bend = (rng.uniform(0, 2.5), rng.uniform(0, 2.5), rng.uniform(0.6, 2) * pw,
            rng.uniform(0.6, 2) * ph, rng.uniform(0, 2 * np.pi))
    folds = [random_fold(rng, pw, ph) for _ in range(int(rng.choice([0, 1, 2], p=[0.55, 0.35, 0.1])))]
    u, v, fold_shade = plane_map(hm_inv, out_h, out_w, bend, folds)
    scale = math.sqrt(abs(np.linalg.det(hm[:2, :2])))
    if scale < 0.85:  # shrinking: smooth first so thin strokes do not alias
        rgb = ndimage.gaussian_filter(rgb, (0.45 / scale, 0.45 / scale, 0))
    lab = sample(rgb, u, v)
    a = sample(alpha, u, v)[..., None]
    lab = lab * fold_shade[..., None]
    bg = background(rng, out_h, out_w)
    shadow = ndimage.gaussian_filter(a[..., 0], rng.uniform(3, 9))
    shadow = ndimage.shift(shadow, rng.uniform(-6, 6, 2), order=1, mode="constant")
    bg = bg * (1 - rng.uniform(0.15, 0.45) * shadow)[..., None]
    img = bg * (1 - a) + lab * a
    boxes = [warped_box(t, o, u, v) for t, o in tiles]
    if any(b is None for b in boxes):
        return None
    if thumb and rng.random() < 0.15:
        corners = apply_h(hm, np.array([(0, 0), (pw, 0), (pw, ph), (0, ph)], float))
        img = add_thumb(rng, img, corners[int(rng.integers(4))], corners.mean(0), boxes)
    img = img * light_field(rng, out_h, out_w)
    img = blur_and_noise(rng, img)
    return img, boxes


def photo_height(rng):
    """Photo height for a 1000 px wide photo: 4:3 landscape, square or 3:4 portrait."""
    return int(rng.choice([750, 1000, 1333], p=[0.55, 0.2, 0.25]))


def render_label(plan, seed, index):
    """One care-label photo. Returns (jpeg, record without path)."""
    rng = np.random.default_rng([seed, 2, index])
    st = random_style(rng)
    syms = [build_symbol(c, choose_variant(rng, c), st) for c in plan["codes"]]
    look = random_look(rng)
    n_top = int(rng.choice([0, 1, 2, 3], p=[0.3, 0.35, 0.25, 0.1]))
    n_bottom = int(rng.choice([0, 1, 2, 3, 4], p=[0.25, 0.3, 0.25, 0.12, 0.08]))
    lines = text_lines(rng, n_top + n_bottom)
    font = text_font_for(rng, lines)
    align = "center" if rng.random() < 0.7 else "left"
    placed, texts, lw_u, lh_u = layout_label(rng, syms, plan["rows"], lines[:n_top], lines[n_top:],
                                             font, align)
    out_w, out_h = 1000, photo_height(rng)
    for attempt in range(6):
        sym_px = math.exp(rng.uniform(math.log(40), math.log(150)))
        fit = min(0.92 * out_w / (lw_u * 1.1), 0.92 * out_h / (lh_u * 1.1))
        sym_px = min(sym_px, fit)
        ppu = sym_px / rng.uniform(0.9, 1.1)
        rgb, alpha, tiles = render_plane(rng, look, placed, texts, lw_u, lh_u, ppu)
        shot = photograph_plane(rng, rgb, alpha, tiles, out_w, out_h)
        if shot is not None:
            break
    else:
        raise RuntimeError(f"label {index}: could not fit the label in the photo")
    img, boxes = shot
    quality = int(rng.integers(40, 91))
    symbols = [{"code": p.symbol.code, "box": b, "variant": p.symbol.variant}
               for p, b in zip(placed, boxes)]
    rec = {"width": out_w, "height": out_h, "symbols": symbols,
           "look": {"material": look.material, "rows": plan["rows"], "jpegQuality": quality}}
    return jpeg_bytes(to_uint8(img), quality), rec


# =============================================================================================
# Negatives: no care symbol anywhere
# =============================================================================================
NEGATIVE_KINDS = ("text-label", "text-label", "text-label", "text-label", "text-label",
                  "blank-label", "blank-label", "logo-label", "logo-label", "logo-label",
                  "plain-fabric", "plain-fabric", "patterned-fabric", "patterned-fabric",
                  "patterned-fabric", "garment", "garment", "scene", "scene", "cat")


def logo_maker(rng):
    """A brand logo for a label: a wordmark, sometimes beside a filled emblem (star, leaf,
    crown, diamond). Never an outlined circle, square, triangle or tub."""
    brand = pick(rng, BRANDS)
    font = pick(rng, [f for f in ("DejaVuSerif-Bold.ttf", "DejaVuSans-Bold.ttf", "STIXGeneralBolIta.ttf",
                                  "STIXGeneralItalic.ttf", "DejaVuSerif-Italic.ttf", "cmb10.ttf")
                      if font_has(f, brand)])
    emblem = pick(rng, (None, "star", "leaf", "crown", "diamond"))

    def make(max_w):
        h = rng.uniform(0.5, 1.0)
        marks, box = text_marks(brand, font, h, (0, 0), max_w, ref="H")
        if emblem:
            e = emblem_path(emblem)
            size = h * 1.2
            ex = box[0] - size * 0.8
            tr = Affine2D().scale(size).translate(ex, 0)
            marks.append(Mark(tr.transform_path(e)))
            box = (ex - size * 0.55, min(box[1], -size / 2), box[2], max(box[3], size / 2))
        return marks, box
    return make


def emblem_path(kind):
    """A filled emblem shape about 1 unit across, centred on the origin."""
    if kind == "star":
        pts = [(0.5 * math.cos(math.pi / 2 + k * math.pi / 5) * (1 if k % 2 == 0 else 0.42),
                0.5 * math.sin(math.pi / 2 + k * math.pi / 5) * (1 if k % 2 == 0 else 0.42))
               for k in range(10)]
        return polyline(pts, closed=True)
    if kind == "leaf":
        return Path(np.array([(0, -0.5), (0.45, -0.1), (0.3, 0.4), (0, 0.5), (-0.3, 0.4), (-0.45, -0.1),
                              (0, -0.5), (0, -0.5)]),
                    [Path.MOVETO, Path.CURVE4, Path.CURVE4, Path.CURVE4, Path.CURVE4, Path.CURVE4,
                     Path.CURVE4, Path.CLOSEPOLY])
    if kind == "crown":
        return polyline([(-0.5, -0.35), (0.5, -0.35), (0.5, 0.4), (0.25, 0.05), (0, 0.45), (-0.25, 0.05),
                         (-0.5, 0.4)], closed=True)
    return polyline([(0, -0.5), (0.35, 0), (0, 0.5), (-0.35, 0)], closed=True)


def label_negative(rng, kind):
    """A label photo without symbols: text only, blank, or a brand logo."""
    look = random_look(rng)
    if kind == "text-label":
        n_top = int(rng.integers(1, 5))
        n_bottom = int(rng.integers(0, 5))
        lines = text_lines(rng, n_top + n_bottom, (FIBRES, ORIGINS, CARE_WORDS, SIZES, MISC, CARE_WORDS))
        logo = None
    elif kind == "logo-label":
        n_top, n_bottom = 0, int(rng.choice([0, 0, 1]))
        lines = text_lines(rng, n_bottom, (SIZES,))
        logo = logo_maker(rng)
    else:
        n_top = n_bottom = 0
        lines = []
        logo = None
    font = text_font_for(rng, lines) if lines else "DejaVuSans.ttf"
    placed, texts, lw_u, lh_u = layout_label(rng, [], 1, lines[:n_top], lines[n_top:], font,
                                             "center" if rng.random() < 0.7 else "left", logo)
    if kind == "blank-label":
        lw_u, lh_u = rng.uniform(3, 8), rng.uniform(1.5, 5)
    out_w, out_h = 1000, photo_height(rng)
    for _ in range(6):
        ppu = min(rng.uniform(0.4, 0.9) * out_w / lw_u,
                  0.92 * out_w / (lw_u * 1.1), 0.92 * out_h / (lh_u * 1.1))
        rgb, alpha, _ = render_plane(rng, look, [], texts, lw_u, lh_u, ppu)
        shot = photograph_plane(rng, rgb, alpha, [], out_w, out_h)
        if shot is not None:
            return shot[0]
    raise RuntimeError("could not place a negative label")


def garment_scene(rng, h, w):
    """A T-shirt-like silhouette in a fabric on a plain backdrop (with a blank neck label)."""
    backdrop = table(rng, h, w, pick(rng, TABLES))
    cloth = fabric(rng, h, w, pick(rng, FABRICS))
    s = rng.uniform(0.7, 1.1) * min(h, w)
    cx, cy = w / 2 + rng.uniform(-0.1, 0.1) * w, h / 2 + rng.uniform(-0.05, 0.1) * h
    shirt = [(-0.3, -0.42), (-0.12, -0.46), (0, -0.38), (0.12, -0.46), (0.3, -0.42), (0.55, -0.2),
             (0.42, -0.05), (0.3, -0.18), (0.3, 0.5), (-0.3, 0.5), (-0.3, -0.18), (-0.42, -0.05),
             (-0.55, -0.2)]
    tr = Affine2D().rotate_deg(rng.uniform(-10, 10)).scale(s).translate(cx, cy)
    mask = rasterize([Mark(tr.transform_path(polyline(shirt, closed=True, radius=0.03)))], w, h, Affine2D())
    img = backdrop * (1 - mask[..., None]) + cloth * mask[..., None]
    if rng.random() < 0.6:
        tag = rasterize([Mark(tr.transform_path(polyline([(-0.04, -0.4), (0.04, -0.4), (0.04, -0.33),
                                                          (-0.04, -0.33)], closed=True)))], w, h, Affine2D())
        img = img * (1 - tag[..., None]) + jitter_colour(rng, (0.93, 0.93, 0.9))[None, None] * tag[..., None]
    return img


def shapes_scene(rng, h, w):
    """A random scene: a gradient with overlapping filled shapes (no thin outlines)."""
    y, x = coords(h, w)
    c1, c2 = rng.uniform(0, 1, 3), rng.uniform(0, 1, 3)
    t = np.clip((x / w) * rng.uniform(-1, 1) + (y / h) * rng.uniform(-1, 1) + 0.5, 0, 1)
    img = (c1 * (1 - t[..., None]) + c2 * t[..., None]).astype(np.float32)
    for _ in range(int(rng.integers(5, 16))):
        kind = rng.integers(3)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        size = rng.uniform(0.05, 0.35) * w
        if kind == 0:
            path = ellipse(cx, cy, size, size * rng.uniform(0.4, 1), rng.uniform(0, 180))
        elif kind == 1:
            n = int(rng.integers(4, 8))
            pts = [(cx + size * rng.uniform(0.4, 1) * math.cos(2 * math.pi * k / n),
                    cy + size * rng.uniform(0.4, 1) * math.sin(2 * math.pi * k / n)) for k in range(n)]
            path = polyline(pts, closed=True)
        else:
            path = polyline([(cx, cy), (cx + size, cy), (cx + size, cy + size * 0.6), (cx, cy + size * 0.6)],
                            closed=True)
        m = rasterize([Mark(path)], w, h, Affine2D())[..., None]
        img = img * (1 - m) + rng.uniform(0, 1, 3).astype(np.float32) * m
    return img


def cat_scene(rng, h, w):
    """Something cat-like: a furry body, a round head with ears, eyes and whiskers, a tail, on
    a floor."""
    img = table(rng, h, w, pick(rng, TABLES))
    fur = jitter_colour(rng, pick(rng, ((0.9, 0.55, 0.2), (0.2, 0.2, 0.2), (0.6, 0.6, 0.6),
                                        (0.95, 0.93, 0.88))), 0.05)
    s = rng.uniform(0.5, 0.8) * min(h, w)
    cx, cy = w / 2 + rng.uniform(-0.15, 0.15) * w, h / 2 + rng.uniform(-0.1, 0.1) * h
    tr = Affine2D().scale(s).translate(cx, cy)
    body = [ellipse(0.1, 0.15, 0.42, 0.28), ellipse(-0.3, -0.2, 0.2),
            polyline([(-0.47, -0.3), (-0.43, -0.52), (-0.33, -0.36)], closed=True),
            polyline([(-0.27, -0.38), (-0.16, -0.52), (-0.13, -0.3)], closed=True)]
    m = rasterize([Mark(tr.transform_path(p)) for p in body], w, h, Affine2D())
    tail = rasterize([Mark(bezier((0.5, 0.2), (0.8, 0.3), (0.75, -0.2), (0.6, -0.3)), 0.07)], w, h, tr)
    m = np.maximum(m, tail)
    texture = 1 + 0.12 * streaks(rng, h, w, 8, int(rng.integers(2)))
    img = img * (1 - m[..., None]) + (fur * texture[..., None]) * m[..., None]
    eyes = rasterize([Mark(tr.transform_path(ellipse(-0.37, -0.22, 0.035, 0.025))),
                      Mark(tr.transform_path(ellipse(-0.23, -0.22, 0.035, 0.025)))], w, h, Affine2D())
    img = img * (1 - eyes[..., None]) + np.array([0.35, 0.6, 0.2], np.float32) * eyes[..., None]
    whisk = rasterize([Mark(segment((-0.3, -0.13), (-0.3 + dx, -0.13 + dy)), 0.006)
                       for dx, dy in ((0.25, -0.03), (0.25, 0.03), (-0.25, -0.03), (-0.25, 0.03))],
                      w, h, tr)
    return img * (1 - whisk[..., None]) + 0.92 * whisk[..., None]


def render_negative(kind, seed, index):
    """One negative photo. Returns jpeg bytes."""
    rng = np.random.default_rng([seed, 3, index])
    if kind.endswith("-label"):
        img = label_negative(rng, kind)
    else:
        out_w, out_h = 1000, photo_height(rng)
        if kind == "plain-fabric":
            img = fabric(rng, out_h, out_w, pick(rng, ("heather", "twill", "knit")))
        elif kind == "patterned-fabric":
            img = patterned_fabric(rng, out_h, out_w)
        elif kind == "garment":
            img = garment_scene(rng, out_h, out_w)
        elif kind == "scene":
            img = shapes_scene(rng, out_h, out_w)
        else:
            img = cat_scene(rng, out_h, out_w)
        img = img * light_field(rng, out_h, out_w)
        img = blur_and_noise(rng, img)
    return jpeg_bytes(to_uint8(img), int(rng.integers(40, 91)))


def patterned_fabric(rng, h, w):
    """A patterned fabric: plaid, gingham, stripes, denim, or polka dots."""
    kind = pick(rng, ("plaid", "gingham", "stripes", "denim", "polka"))
    if kind != "polka":
        return fabric(rng, h, w, kind)
    img = fabric(rng, h, w, "twill")
    p = rng.uniform(25, 70)
    r = p * rng.uniform(0.12, 0.3)
    dots = [Mark(ellipse(x + (p / 2 if (k % 2) else 0), y, r))
            for k, y in enumerate(np.arange(0, h + p, p)) for x in np.arange(0, w + p, p)]
    m = rasterize(dots, w, h, Affine2D())[..., None]
    return img * (1 - m) + jitter_colour(rng, pick(rng, ((0.95, 0.95, 0.95), (0.1, 0.1, 0.1), (0.8, 0.2, 0.2)))) * m


# =============================================================================================
# Set generation
# =============================================================================================
def job(task):
    """Worker: render one image and write it. Returns (subset, index, record)."""
    subset, index, arg, seed, out = task
    name = f"{index + 1:04d}"
    if subset == "singles":
        code, occurrence = arg
        data, variant = render_single(code, occurrence, seed, index)
        rel = f"singles/{name}.png"
        rec = {"path": rel, "code": code, "variant": variant}
    elif subset == "labels":
        data, rec = render_label(arg, seed, index)
        rel = f"labels/{name}.jpg"
        rec = {"path": rel, **rec}
    else:
        data = render_negative(arg, seed, index)
        rel = f"negatives/{name}.jpg"
        rec = {"path": rel, "kind": arg, "symbols": []}
    with open(os.path.join(out, rel), "wb") as f:
        f.write(data)
    return subset, index, rec


def plan_singles(n, seed):
    """Codes for n crops, every code equally often (round robin), shuffled; with each crop's
    occurrence number so the listed drawings of a code alternate."""
    codes = [CODES[i % len(CODES)] for i in range(n)]
    np.random.default_rng([seed, 91]).shuffle(codes)
    seen = {}
    out = []
    for c in codes:
        out.append((c, seen.get(c, 0)))
        seen[c] = seen.get(c, 0) + 1
    return out


def plan_negatives(n, seed):
    """Kinds of n negatives, in the proportions of NEGATIVE_KINDS, shuffled."""
    kinds = [NEGATIVE_KINDS[i % len(NEGATIVE_KINDS)] for i in range(n)]
    np.random.default_rng([seed, 92]).shuffle(kinds)
    return kinds


def generate(out, seed, n_singles, n_labels, n_negatives, jobs):
    """Render the whole set into out, jobs processes, with progress on stderr."""
    tasks = []
    for subset, plans in (("singles", plan_singles(n_singles, seed)),
                          ("labels", plan_labels(n_labels, seed)),
                          ("negatives", plan_negatives(n_negatives, seed))):
        d = os.path.join(out, subset)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
        tasks += [(subset, i, p, seed, out) for i, p in enumerate(plans)]
    if n_labels:
        missing = set(CODES) - {c for p in plan_labels(n_labels, seed) for c in p["codes"]}
        if missing:
            say(f"warning: {len(missing)} codes appear on no label (use more labels): {sorted(missing)}")
    records = {"singles": [None] * n_singles, "labels": [None] * n_labels,
               "negatives": [None] * n_negatives}
    total, done, t0, last = len(tasks), 0, time.time(), 0.0
    # labels first: they are the slowest, so the pool ends evenly
    order = sorted(tasks, key=lambda t: {"labels": 0, "negatives": 1, "singles": 2}[t[0]])
    with Pool(jobs) as pool:
        for subset, index, rec in pool.imap_unordered(job, order, chunksize=4):
            records[subset][index] = rec
            done += 1
            now = time.time()
            if now - last > 5 or done == total:
                last = now
                say(f"{done}/{total} images ({now - t0:.0f} s)")
    for subset, recs in records.items():
        with open(os.path.join(out, f"{subset}.jsonl"), "w") as f:
            for rec in recs:
                f.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
    say(f"wrote {n_singles} singles, {n_labels} labels, {n_negatives} negatives to {out} "
        f"in {time.time() - t0:.0f} s")


def say(msg):
    """Progress and diagnostics on stderr."""
    print(f"render_test.py: {msg}", file=sys.stderr, flush=True)


# =============================================================================================
# Previews
# =============================================================================================
def sheet(cells, cols, cell_w, cell_h, caption_h=16):
    """A contact sheet: cells are (rgb uint8 image, caption)."""
    rows = math.ceil(len(cells) / cols)
    fig = Figure(figsize=(cols * cell_w / 72, rows * (cell_h + caption_h) / 72), dpi=72)
    canvas = FigureCanvasAgg(fig)
    for k, (img, caption) in enumerate(cells):
        r, c = divmod(k, cols)
        ax = fig.add_axes((c / cols, 1 - (r + 1) / rows + caption_h / (rows * (cell_h + caption_h)),
                           1 / cols, cell_h / (rows * (cell_h + caption_h))))
        ax.imshow(img, interpolation="antialiased")
        ax.set_axis_off()
        fig.text((c + 0.5) / cols, 1 - (r + 1) / rows + 2 / (rows * (cell_h + caption_h)), caption,
                 ha="center", va="bottom", fontsize=9, family="DejaVu Sans")
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


def clean_symbol_image(sym, size=120):
    """A symbol in black on white, fitted to a size × size square."""
    x0, y0, x1, y1 = marks_bounds(sym.marks, sym.join)
    ppu = 0.8 * size / max(x1 - x0, y1 - y0)
    origin = (size / 2 - (x0 + x1) / 2 * ppu, size / 2 + ((y0 + y1) / 2 - 0.5) * ppu)
    tile, (tx, ty) = symbol_tile(sym, ppu, 0.0, origin=origin)
    ink = np.zeros((size, size), np.float32)
    paste(ink, tile, tx, ty)
    return to_uint8(np.repeat((1 - ink)[..., None], 3, -1))


def preview(out, seed):
    """Contact sheets: every drawing of every code (clean), every code in random styles,
    sample crops, sample labels with their truth boxes."""
    os.makedirs(out, exist_ok=True)
    cells = [(clean_symbol_image(build_symbol(c, v, plain_style())), f"{c} {v if v != 'standard' else ''}")
             for c in CODES for v in variants(c)]
    Image.fromarray(sheet(cells, 8, 170, 120)).save(os.path.join(out, "preview-codes.png"))
    rng = np.random.default_rng([seed, 99])
    cells = []
    for c in CODES:
        for k in range(3):
            cells.append((clean_symbol_image(build_symbol(c, variants(c)[k % len(variants(c))],
                                                          random_style(rng)), 90), c if k == 1 else ""))
    Image.fromarray(sheet(cells, 18, 96, 90, 12)).save(os.path.join(out, "preview-styles.png"))
    singles = plan_singles(62, seed)
    cells = []
    for i, (code, occ) in enumerate(singles):
        png, variant = render_single(code, occ, seed, i)
        img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
        cells.append((img, code))
    Image.fromarray(sheet(cells, 8, 170, 130)).save(os.path.join(out, "preview-singles.png"))
    plans = plan_labels(8, seed)
    cells = []
    for i, plan in enumerate(plans):
        data, rec = render_label(plan, seed, i)
        img = np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).copy()
        for s in rec["symbols"]:
            draw_box(img, s["box"])
        cells.append((img, " ".join(s["code"] for s in rec["symbols"])[:110]))
    Image.fromarray(sheet(cells, 2, 640, 520)).save(os.path.join(out, "preview-labels.png"))
    cells = []
    for i, kind in enumerate(sorted(set(NEGATIVE_KINDS))):
        img = np.asarray(Image.open(io.BytesIO(render_negative(kind, seed, i))).convert("RGB"))
        cells.append((img, kind))
    Image.fromarray(sheet(cells, 4, 300, 240)).save(os.path.join(out, "preview-negatives.png"))
    say(f"previews in {out}")


def draw_box(img, box, colour=(255, 0, 255)):
    """Outline a box (2 px) on a uint8 image."""
    x, y, w, h = box
    x1, y1 = x + w - 1, y + h - 1
    img[y:y + 2, x:x1 + 1] = colour
    img[y1 - 1:y1 + 1, x:x1 + 1] = colour
    img[y:y1 + 1, x:x + 2] = colour
    img[y:y1 + 1, x1 - 1:x1 + 1] = colour


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="directory to write the set into")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--singles", type=int, default=620)
    ap.add_argument("--labels", type=int, default=300)
    ap.add_argument("--negatives", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--preview", action="store_true", help="write contact sheets into --out instead")
    args = ap.parse_args()
    if min(args.singles, args.labels, args.negatives) < 0 or args.jobs < 1:
        ap.error("counts must be ≥ 0 and --jobs ≥ 1")
    if args.preview:
        preview(args.out, args.seed)
        return
    os.makedirs(args.out, exist_ok=True)
    generate(args.out, args.seed, args.singles, args.labels, args.negatives, args.jobs)


if __name__ == "__main__":
    main()
