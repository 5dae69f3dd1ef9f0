"""Training samples for the care networks, drawn from render.py and cut the way the tool cuts them.

`crop_for_box` and `normalize_crop` mirror CareCrop.swift: the classifier must see at training time
exactly what atl-classify shows it, so any change here is a change there too.
"""

import multiprocessing as mp

import numpy as np
from PIL import Image

import model as M
import render

NONE = "none"  # the classifier's extra class: "this crop is not a care symbol"
CLASSES = list(render.CODES) + [NONE]


def _symbol_weight(code):
    """How often a code is drawn as a single crop, relative to the others: more for the codes told
    apart by small details (the tub's temperature digits or dots, professional care's letters, bars
    and ticks)."""
    if code.startswith("wash-") and any(ch.isdigit() for ch in code):
        return 2.0
    if code.startswith("pro-"):
        return 1.5
    return 1.0


SYMBOL_P = np.array([_symbol_weight(c) for c in render.CODES]) / sum(_symbol_weight(c) for c in render.CODES)


def luminance(rgb):
    """Rec. 601 luma of an RGB uint8 image in Pillow's fixed point, as `Image.grey()` computes it."""
    if rgb.ndim == 2:
        return rgb
    return np.asarray(Image.fromarray(np.ascontiguousarray(rgb)).convert("L"))


def square_crop_box(box, margin=M.CROP_MARGIN):
    """The square region the classifier looks at for a symbol box [x, y, w, h]."""
    x, y, w, h = box
    side = max(w, h) * margin
    cx, cy = x + w / 2, y + h / 2
    return (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)


def resample_weights(start, end, count, limit):
    """Weights [count, limit] mapping source pixels to `count` outputs spanning [start, end).

    Shrinking averages the source pixels each output covers, by overlap (exact area averaging);
    enlarging interpolates linearly between pixel centres. Sources outside [0, limit) repeat the
    edge pixel. AtelierImaging's Resize+Region.swift (`Image.resampled`, which CareCrop.swift cuts
    with) computes the same weights.
    """
    weights = np.zeros((count, limit), np.float64)
    scale = (end - start) / count
    for i in range(count):
        a = start + i * scale
        b = a + scale
        if scale >= 1:
            for j in range(int(np.floor(a)), int(np.ceil(b))):
                overlap = min(b, j + 1) - max(a, j)
                if overlap > 0:
                    weights[i, min(max(j, 0), limit - 1)] += overlap / scale
        else:
            c = (a + b) / 2 - 0.5
            j = int(np.floor(c))
            t = c - j
            weights[i, min(max(j, 0), limit - 1)] += 1 - t
            weights[i, min(max(j + 1, 0), limit - 1)] += t
    return weights


def resample(gray, region, size):
    """The part `region` = (x0, y0, x1, y1) of a uint8 image, resampled to size = (width, height),
    rounded to uint8."""
    x0, y0, x1, y1 = region
    wy = resample_weights(y0, y1, size[1], gray.shape[0])
    wx = resample_weights(x0, x1, size[0], gray.shape[1])
    rows = np.nonzero(wy.any(axis=0))[0]
    cols = np.nonzero(wx.any(axis=0))[0]
    window = gray[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].astype(np.float64)
    out = wy[:, rows[0]:rows[-1] + 1] @ window @ wx[:, cols[0]:cols[-1] + 1].T
    return np.clip(np.floor(out + 0.5), 0, 255).astype(np.uint8)


def crop_for_box(gray, box, size=M.CLASSIFIER_SIZE):
    """The classifier's input for a symbol box: the square around it, resampled to size×size."""
    return resample(gray, square_crop_box(box), (size, size))


def scaled(gray, factor):
    """The whole image scaled by factor (what the detector's pyramid does)."""
    h, w = max(1, round(gray.shape[0] * factor)), max(1, round(gray.shape[1] * factor))
    return resample(gray, (0, 0, gray.shape[1], gray.shape[0]), (w, h))


def percentile_levels(values, low=0.02, high=0.98):
    """The 2nd and 98th percentiles of uint8 values, from the histogram (as the Swift side does)."""
    counts = np.bincount(values.ravel(), minlength=256)
    cumulative = np.cumsum(counts)
    n = cumulative[-1]
    lo = int(np.searchsorted(cumulative, low * n, side="right"))
    hi = int(np.searchsorted(cumulative, high * n, side="left"))
    return lo, max(hi, lo + 1)


def normalize_crop(crop):
    """Stretch a uint8 crop to [0, 1] between its 2nd and 98th percentiles (at least 24 levels apart,
    so a blank crop stays flat), then turn it so the background (the median) is light."""
    lo, hi = percentile_levels(crop)
    hi = max(hi, lo + 24)
    x = np.clip((crop.astype(np.float32) - lo) / (hi - lo), 0, 1)
    if np.median(crop) < (lo + hi) / 2:
        x = 1 - x
    return x


def normalize_image(gray):
    """The detector's input: the whole image stretched between its 1st and 99th percentiles."""
    lo, hi = percentile_levels(gray, 0.01, 0.99)
    hi = max(hi, lo + 24)
    return np.clip((gray.astype(np.float32) - lo) / (hi - lo), 0, 1)


# ---------------------------------------------------------------- classifier samples

def _jitter_box(box, rng, scale=0.08, shift=0.05):
    """A box as an imperfect detector might return it: its size off by a factor e^N(0, scale), its
    centre by N(0, shift) of its side."""
    x, y, w, h = box
    s = np.exp(rng.normal(0, scale))
    dx, dy = rng.normal(0, shift, 2) * max(w, h)
    nw, nh = w * s, h * s
    return [x + w / 2 - nw / 2 + dx, y + h / 2 - nh / 2 + dy, nw, nh]


def _overlap(a, b):
    ax0, ay0, aw, ah = a
    bx0, by0, bw, bh = b
    ix = max(0, min(ax0 + aw, bx0 + bw) - max(ax0, bx0))
    iy = max(0, min(ay0 + ah, by0 + bh) - max(ay0, by0))
    return ix * iy / max(1e-6, min(aw * ah, bw * bh))


# The classifier's samples: how much of its crop a symbol fills, how far off a label's boxes are
# (the size by a factor e^N(0, scale), the centre by N(0, shift) of the side), and the shares of
# crops of one symbol and of things that are not symbols (the rest are cut from whole labels). The
# wide framing (the tuning epoch, train.py) also takes in symbols framed as loosely as a user's
# crop of one, or by a box a detector got the size wrong; it shows more non-symbols, so that the
# looser framing does not teach the classifier to see symbols in them, among them text-only labels
# cut as a detector may cut them (render.render_text_label: the whole label, and large letters).
FRAMING = {"detector": {"fill": (0.6, 0.9), "scale": 0.08, "shift": 0.05, "symbols": 0.62, "negatives": 0.18,
                        "text_labels": 0.0},
           "wide": {"fill": (0.45, 0.95), "scale": 0.12, "shift": 0.06, "symbols": 0.5, "negatives": 0.22,
                    "text_labels": 0.1}}


def classifier_chunk(args, framing="detector"):
    """`count` (crop, class index) samples from seed: symbols, non-symbols, and cuts from labels."""
    seed, count = args
    frame = FRAMING[framing]
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    while len(xs) < count:
        r = rng.random()
        if r < frame["symbols"]:
            k = int(rng.choice(len(render.CODES), p=SYMBOL_P))
            xs.append(render.render_symbol_crop(render.CODES[k], rng, M.CLASSIFIER_SIZE, frame["fill"]))
            ys.append(k)
        elif r < frame["symbols"] + frame["negatives"]:
            xs.append(render.render_negative_crop(rng, M.CLASSIFIER_SIZE))
            ys.append(len(CLASSES) - 1)
        elif r < frame["symbols"] + frame["negatives"] + frame["text_labels"]:
            image, boxes = render.render_text_label(rng)
            gray = luminance(image)
            for box in boxes:
                xs.append(crop_for_box(gray, _jitter_box(box, rng, frame["scale"], frame["shift"])))
                ys.append(len(CLASSES) - 1)
        else:
            image, symbols = render.render_label(rng)
            gray = luminance(image)
            boxes = [s["box"] for s in symbols]
            for s in symbols:
                xs.append(crop_for_box(gray, _jitter_box(s["box"], rng, frame["scale"], frame["shift"])))
                ys.append(CLASSES.index(s["code"]))
            # Non-symbol regions of the same label, sized like its symbols: text, edges, fabric.
            size = np.median([max(b[2], b[3]) for b in boxes]) if boxes else 80
            for _ in range(max(2, len(boxes) // 2)):
                s = size * np.exp(rng.normal(0, 0.3))
                box = [rng.uniform(0, gray.shape[1] - s), rng.uniform(0, gray.shape[0] - s), s, s]
                if all(_overlap(box, b) < 0.35 for b in boxes):
                    xs.append(crop_for_box(gray, box))
                    ys.append(len(CLASSES) - 1)
    return np.stack(xs[:count]), np.array(ys[:count], dtype=np.int32)


# ---------------------------------------------------------------- detail samples

# Detail networks give the reader a second opinion on the one part of a symbol that the classifier
# confuses most: what a kind of symbol shows inside it. Each has classes (what is shown) and, per
# class, the codes drawn with it; the codes go into the network's file (`meta.codes`), so that
# atl-classify knows which of the classifier's answers the network judges.
# The temperature network: what a machine-wash tub shows in its water, a temperature
# (care-symbols.md) or nothing (ASTM's plain tub, any temperature).
TEMPERATURES = [30, 40, 50, 60, 70, 95, None]
TEMPERATURE_CLASSES = [str(t) if t else NONE for t in TEMPERATURES]
TEMPERATURE_CODES = [[c for c in render.CODES if c.startswith("wash-machine")] if t is None
                     else [c for c in render.CODES if render.WASH_SPEC.get(c, (None,))[0] == t] for t in TEMPERATURES]
# The tumble network: what a tumble dryer's circle holds, one to three dots, a filled disc (no
# heat) or nothing (ASTM's any heat, permanent press and delicate, whose bars are outside it). The
# crossed circle is left to the classifier: its cross hides the inside.
TUMBLE_INSIDE = {"1": [1], "2": [2], "3": [3], "filled": ["solid"], NONE: [0, "bar1", "bar2"]}
TUMBLE_CLASSES = list(TUMBLE_INSIDE)
TUMBLE_CODES = [[c for c, spec in render.TUMBLE_SPEC.items() if spec in specs] for specs in TUMBLE_INSIDE.values()]

DETAILS = {"temperature": (TEMPERATURE_CLASSES, TEMPERATURE_CODES),
           "tumble": (TUMBLE_CLASSES, TUMBLE_CODES)}
# How each detail network's crops are framed (FRAMING). Both see the classifier's first crop; the
# tumble network learns from crops as loose as the classifier's tuning samples (on a user's crop
# of one symbol, that crop is the whole photo). The temperature network so framed missed more tubs
# on the validation set's labels (benchmarks/RESULTS.md), so it keeps the detector's framing.
DETAIL_FRAMING = {"temperature": "detector", "tumble": "wide"}


def detail_chunk(name, args):
    """`count` (crop, class index) samples for the detail network `name`: its symbols, every
    class equally often and every code of a class alike, cut as the classifier's crops are and
    framed as DETAIL_FRAMING says."""
    seed, count = args
    codes = DETAILS[name][1]
    fill = FRAMING[DETAIL_FRAMING[name]]["fill"]
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for _ in range(count):
        k = int(rng.integers(len(codes)))
        code = codes[k][int(rng.integers(len(codes[k])))]
        xs.append(render.render_symbol_crop(code, rng, M.CLASSIFIER_SIZE, fill))
        ys.append(k)
    return np.stack(xs), np.array(ys, dtype=np.int32)


# ---------------------------------------------------------------- detector samples

PATCH = 128


def detector_targets(boxes, patch=PATCH):
    """Heat map, regression targets and loss mask on the detector's output grid for boxes
    (already in patch pixels). Symbols outside DETECTOR_BAND are masked out, not negatives: a
    neighbouring pyramid level finds them."""
    cells = patch // M.DETECTOR_STRIDE
    heat = np.zeros((cells, cells), np.float32)
    mask = np.ones((cells, cells), np.float32)
    reg = np.zeros((cells, cells, 4), np.float32)
    regmask = np.zeros((cells, cells), np.float32)
    gy, gx = np.mgrid[0:cells, 0:cells]
    lo, hi = M.DETECTOR_BAND
    for x, y, w, h in boxes:
        size = max(w, h)
        cx, cy = (x + w / 2) / M.DETECTOR_STRIDE, (y + h / 2) / M.DETECTOR_STRIDE
        if not (lo <= size <= hi):
            x0, y0 = int(np.floor(x / M.DETECTOR_STRIDE)), int(np.floor(y / M.DETECTOR_STRIDE))
            x1, y1 = int(np.ceil((x + w) / M.DETECTOR_STRIDE)), int(np.ceil((y + h) / M.DETECTOR_STRIDE))
            mask[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = 0
            continue
        if not (0 <= cx < cells and 0 <= cy < cells):
            continue
        sigma = max(0.5, size / M.DETECTOR_STRIDE / 4)
        heat = np.maximum(heat, np.exp(-((gx + 0.5 - cx) ** 2 + (gy + 0.5 - cy) ** 2) / (2 * sigma ** 2)))
        ix, iy = int(cx), int(cy)
        heat[iy, ix] = 1.0
        reg[iy, ix] = [np.log(w / M.DETECTOR_STRIDE), np.log(h / M.DETECTOR_STRIDE), cx - ix, cy - iy]
        regmask[iy, ix] = 1.0
    return heat, mask, reg, regmask


def detector_chunk(args):
    """`count` patches (normalised image, targets) from labels and label-free photos."""
    seed, count = args
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        if rng.random() < 0.15:
            image, symbols = render.render_negative_image(rng), []
        else:
            image, symbols = render.render_label(rng)
        gray = luminance(image)
        sizes = [max(s["box"][2], s["box"][3]) for s in symbols] or [gray.shape[1] * 0.1]
        for _ in range(3):
            target = np.exp(rng.uniform(np.log(9), np.log(44)))
            f = target / np.median(sizes)
            small = normalize_image(scaled(gray, f))
            h, w = small.shape
            canvas = np.full((max(h, PATCH), max(w, PATCH)), rng.uniform(0, 1), np.float32)
            oy, ox = int(rng.integers(0, canvas.shape[0] - h + 1)), int(rng.integers(0, canvas.shape[1] - w + 1))
            canvas[oy:oy + h, ox:ox + w] = small
            # Prefer patches that hold a symbol.
            if symbols and rng.random() < 0.8:
                b = symbols[int(rng.integers(len(symbols)))]["box"]
                cx, cy = ox + (b[0] + b[2] / 2) * f, oy + (b[1] + b[3] / 2) * f
                px = int(np.clip(cx - rng.uniform(16, PATCH - 16), 0, canvas.shape[1] - PATCH))
                py = int(np.clip(cy - rng.uniform(16, PATCH - 16), 0, canvas.shape[0] - PATCH))
            else:
                px = int(rng.integers(0, canvas.shape[1] - PATCH + 1))
                py = int(rng.integers(0, canvas.shape[0] - PATCH + 1))
            patch = canvas[py:py + PATCH, px:px + PATCH]
            boxes = [[ox + s["box"][0] * f - px, oy + s["box"][1] * f - py, s["box"][2] * f, s["box"][3] * f] for s in symbols]
            out.append((patch, *detector_targets(boxes)))
    out = out[:count]
    return tuple(np.stack([o[i] for o in out]) for i in range(5))


def generate(chunk, total, seed, per_chunk=256, workers=None):
    """Run chunk(seed_i, n) over a process pool and concatenate, deterministically."""
    jobs = [(seed * 1_000_003 + i, min(per_chunk, total - i * per_chunk)) for i in range((total + per_chunk - 1) // per_chunk)]
    # forkserver: the parent has JAX loaded, whose threads do not survive a fork.
    with mp.get_context("forkserver").Pool(workers or mp.cpu_count()) as pool:
        parts = []
        for i, part in enumerate(pool.imap(chunk, jobs)):
            parts.append(part)
            print(f"\r  {min(total, (i + 1) * per_chunk)}/{total}", end="", flush=True)
    print()
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(len(parts[0])))
