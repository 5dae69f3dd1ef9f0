#!/usr/bin/env python3
"""Score `atl-classify --task care` output against the independent care test set.

    python3 benchmarks/care/evaluate.py --truth DIR --output OUT.jsonl [OUT2.jsonl ...]
                                        [--timing TIMING.json] [--json METRICS.json]
                                        [--targets own|standards]

DIR is a set written by render_test.py or render_standards.py (singles.jsonl, labels.jsonl,
negatives.jsonl, any of them). OUT files hold the tool's NDJSON: records of type "care" are
matched to the truth by `path`, resolved against DIR when relative (the tool is run from DIR) or
as given when absolute; every other record type is ignored. An image with no care record counts
as a failure on it.

Measures (and the targets of the care-label issue; --targets own, the default, for the set of
render_test.py; --targets standards for the independent set of render_standards.py):
                                                                             own     standards
  singles    top-1 accuracy: the highest-confidence symbol's code is the truth code (an empty
             list is wrong)                                                  ≥ 0.98  ≥ 0.95
             top-1 per code, and its minimum over the codes                  ≥ 0.80  ≥ 0.80
  labels     exact-set rate: the multiset of predicted codes equals the truth's  ≥ 0.90  ≥ 0.80
             count right: the share of labels with as many predicted symbols as true ones
                                                                             ≥ 0.90  ≥ 0.90
             symbol precision / recall / F1: a prediction is a true positive when its code is
             right and its box overlaps a not-yet-matched truth box of that code with
             IoU ≥ 0.3, predictions taken greedily by confidence             F1 ≥ 0.97  ≥ 0.97
             the same F1 ignoring boxes (multiset matching of codes)
  negatives  the fraction of images with an empty symbol list                ≥ 0.95  ≥ 0.95
  timing     (--timing, written by benchmarks/care.sh) wall time per label photo over one
             invocation for the whole labels subset                          ≤ 50 ms ≤ 50 ms

A truth record may name its code's family ("family"); otherwise render_test.family gives it
(and, when render_test cannot be imported, e.g. without matplotlib, the code's prefix).

Prints a Markdown summary (pasteable into benchmarks/RESULTS.md) on stdout; --json writes every
number. Exit status: 0 whether or not targets are met; 65 for unreadable input (a line of the
tool's output that is not JSON, a truth file missing), 64 for bad usage.
"""

import argparse
import json
import os
import sys
from collections import Counter

try:
    from render_test import family  # the same table the test set is drawn from
except ImportError:  # render_test needs matplotlib; the standards set names its families itself
    _PREFIX_FAMILY = (("wash-", "washing"), ("wring-", "washing"), ("bleach-", "bleaching"),
                      ("tumble-", "drying"), ("dry-", "drying"), ("iron-", "ironing"),
                      ("pro-", "professional"))

    def family(code):
        """The family of a code by its prefix (the families of /work/shared/care-symbols.md)."""
        return next((f for p, f in _PREFIX_FAMILY if code.startswith(p)), "other")

IOU_MIN = 0.3
# name: (threshold, higher is better); one table per test set
TARGET_SETS = {
    "own": {  # render_test.py
        "singles_top1": (0.98, True),
        "singles_min_code": (0.80, True),
        "labels_exact_set": (0.90, True),
        "labels_count": (0.90, True),
        "labels_f1": (0.97, True),
        "negatives_empty": (0.95, True),
        "ms_per_label": (50.0, False),
    },
    "standards": {  # render_standards.py, the independent set
        "singles_top1": (0.95, True),
        "singles_min_code": (0.80, True),
        "labels_exact_set": (0.80, True),
        "labels_count": (0.90, True),
        "labels_f1": (0.97, True),
        "negatives_empty": (0.95, True),
        "ms_per_label": (50.0, False),
    },
}
TARGETS = dict(TARGET_SETS["own"])  # the table in use (main() sets it from --targets)
SUBSETS = ("singles", "labels", "negatives")


class InputError(Exception):
    """Unreadable truth or tool output; the message names the file and line."""


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------
def read_jsonl(path):
    """Records of an NDJSON file; a line that is not a JSON object raises InputError."""
    records = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    raise InputError(f"{path}:{n}: not JSON ({e.msg})") from None
                if not isinstance(rec, dict):
                    raise InputError(f"{path}:{n}: expected a JSON object")
                records.append(rec)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    return records


def resolve(path, base):
    """The real path of an image named relative to base, or absolute."""
    return os.path.realpath(path if os.path.isabs(path) else os.path.join(base, path))


def load_truth(truth_dir):
    """{subset: [record with "_key"]} for the subsets present in truth_dir."""
    truth = {}
    for subset in SUBSETS:
        path = os.path.join(truth_dir, f"{subset}.jsonl")
        if os.path.exists(path):
            recs = read_jsonl(path)
            for r in recs:
                r["_key"] = resolve(r["path"], truth_dir)
            truth[subset] = recs
    if not truth:
        raise InputError(f"{truth_dir}: no singles.jsonl, labels.jsonl or negatives.jsonl")
    return truth


def load_predictions(paths, truth_dir):
    """{resolved image path: care record} from the tool's output files, and the number of
    duplicate care records (the first one for a path is kept)."""
    preds, duplicates = {}, 0
    for path in paths:
        for rec in read_jsonl(path):
            if rec.get("type") != "care" or not isinstance(rec.get("path"), str):
                continue
            key = resolve(rec["path"], truth_dir)
            if key in preds:
                duplicates += 1
                continue
            preds[key] = rec
    return preds, duplicates


def symbols_of(rec):
    """The symbol list of a care record (malformed entries dropped)."""
    syms = rec.get("symbols") if rec else None
    if not isinstance(syms, list):
        return []
    return [s for s in syms if isinstance(s, dict) and isinstance(s.get("code"), str)]


def confidence(sym):
    """A symbol's confidence, 0 when absent."""
    c = sym.get("confidence")
    return float(c) if isinstance(c, (int, float)) else 0.0


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------
def score_singles(truth, preds):
    """Top-1 accuracy, per family, per drawing variant, and the commonest confusions."""
    right, seen = 0, 0
    confusions = Counter()
    by_family, by_variant, by_code = Counter(), Counter(), Counter()
    family_n, variant_n, code_n = Counter(), Counter(), Counter()
    for t in truth:
        rec = preds.get(t["_key"])
        seen += rec is not None
        syms = symbols_of(rec)
        guess = max(syms, key=confidence)["code"] if syms else None
        ok = guess == t["code"]
        right += ok
        fam = t.get("family") or family(t["code"])
        family_n[fam] += 1
        by_family[fam] += ok
        code_n[t["code"]] += 1
        by_code[t["code"]] += ok
        variant = t.get("variant", "standard")
        if variant != "standard":
            variant_n[variant] += 1
            by_variant[variant] += ok
        if not ok:
            confusions[(t["code"], guess or ("(no record)" if rec is None else "(none)"))] += 1
    n = len(truth)
    per_code = {c: by_code[c] / code_n[c] for c in code_n}
    worst = min(per_code, key=lambda c: (per_code[c], c)) if per_code else None
    return {
        "images": n, "records": seen, "correct": right, "top1": right / n if n else None,
        "byFamily": {f: by_family[f] / family_n[f] for f in family_n},
        "byVariant": {v: by_variant[v] / variant_n[v] for v in sorted(variant_n)},
        "byCode": {c: per_code[c] for c in sorted(per_code)},
        "byCodeImages": {c: code_n[c] for c in sorted(code_n)},
        "minCode": {"code": worst, "top1": per_code[worst]} if worst else None,
        "confusions": [[a, b, k] for (a, b), k in confusions.most_common()],
    }


def iou(a, b):
    """Intersection over union of two [x, y, w, h] boxes (0 when either is malformed)."""
    try:
        ax, ay, aw, ah = (float(v) for v in a)
        bx, by, bw, bh = (float(v) for v in b)
    except (TypeError, ValueError):
        return 0.0
    iw = min(ax + aw, bx + bw) - max(ax, bx)
    ih = min(ay + ah, by + bh) - max(ay, by)
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    return inter / (aw * ah + bw * bh - inter)


def match_boxes(preds, truths):
    """Greedy matching by confidence: (true positives, unmatched predictions, unmatched truths)."""
    used = [False] * len(truths)
    tp, fp = 0, []
    for p in sorted(preds, key=confidence, reverse=True):
        best, best_j = 0.0, None
        for j, t in enumerate(truths):
            if not used[j] and t["code"] == p["code"]:
                v = iou(p.get("box"), t["box"])
                if v > best:
                    best, best_j = v, j
        if best_j is not None and best >= IOU_MIN:
            used[best_j] = True
            tp += 1
        else:
            fp.append(p)
    return tp, fp, [t for j, t in enumerate(truths) if not used[j]]


def prf(tp, n_pred, n_truth):
    """Precision, recall, F1 (F1 is 1.0 when there is nothing to find and nothing found)."""
    p = tp / n_pred if n_pred else (1.0 if n_truth == 0 else 0.0)
    r = tp / n_truth if n_truth else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def score_labels(truth, preds):
    """Exact-set rate, box-matched and code-only P/R/F1, misses, false detections and
    confusions (a miss whose box a wrong-code prediction overlaps)."""
    exact = seen = count_right = 0
    count_diff = Counter()  # predicted minus true symbol count, clamped to ±3
    tp = n_pred = n_truth = 0
    tp_codes = 0
    misses, false, confusions = Counter(), Counter(), Counter()
    for t in truth:
        rec = preds.get(t["_key"])
        seen += rec is not None
        ps = symbols_of(rec)
        ts = t["symbols"]
        pc, tc = Counter(p["code"] for p in ps), Counter(s["code"] for s in ts)
        exact += pc == tc
        count_right += len(ps) == len(ts)
        count_diff[max(-3, min(3, len(ps) - len(ts)))] += 1
        tp_codes += sum((pc & tc).values())
        k, fp, fn = match_boxes(ps, ts)
        tp += k
        n_pred += len(ps)
        n_truth += len(ts)
        for m in fn:
            misses[m["code"]] += 1
            wrong = [p for p in fp if iou(p.get("box"), m["box"]) >= IOU_MIN]
            if wrong:
                confusions[(m["code"], max(wrong, key=confidence)["code"])] += 1
        for p in fp:
            false[p["code"]] += 1
    n = len(truth)
    p, r, f = prf(tp, n_pred, n_truth)
    pc_, rc_, fc_ = prf(tp_codes, n_pred, n_truth)
    return {
        "images": n, "records": seen, "exactSet": exact / n if n else None, "exactSetCount": exact,
        "countRight": count_right / n if n else None, "countRightCount": count_right,
        "countDifference": {str(k): count_diff[k] for k in sorted(count_diff)},
        "truthSymbols": n_truth, "predictedSymbols": n_pred, "truePositives": tp,
        "precision": p, "recall": r, "f1": f,
        "codesOnly": {"truePositives": tp_codes, "precision": pc_, "recall": rc_, "f1": fc_},
        "misses": misses.most_common(), "falseDetections": false.most_common(),
        "confusions": [[a, b, k] for (a, b), k in confusions.most_common()],
    }


def score_negatives(truth, preds):
    """Fraction of negatives with a care record whose symbol list is empty."""
    empty = seen = 0
    false = Counter()
    for t in truth:
        rec = preds.get(t["_key"])
        seen += rec is not None
        syms = symbols_of(rec)
        if rec is not None and not syms:
            empty += 1
        for s in syms:
            false[s["code"]] += 1
    n = len(truth)
    return {"images": n, "records": seen, "empty": empty / n if n else None, "emptyCount": empty,
            "falseDetections": false.most_common()}


def score_timing(timing):
    """Per-photo times from care.sh's timing file."""
    out = {}
    labels = timing.get("labels") or {}
    if labels.get("images") and labels.get("seconds") is not None:
        out["msPerLabel"] = 1000.0 * labels["seconds"] / labels["images"]
    for subset in SUBSETS:
        t = timing.get(subset) or {}
        if t.get("images") and t.get("seconds") is not None:
            out[f"{subset}MsPerImage"] = 1000.0 * t["seconds"] / t["images"]
            if t.get("maxRssKB"):
                out[f"{subset}PeakRssMB"] = t["maxRssKB"] / 1024.0
    one = timing.get("oneByOne") or {}
    secs = one.get("seconds") or []
    if secs:
        s = sorted(secs)
        out["oneByOne"] = {"images": len(s), "maxMs": 1000 * s[-1], "medianMs": 1000 * s[len(s) // 2],
                           "slowestPath": one.get("slowestPath")}
    out["pinning"] = timing.get("pinning")
    return out


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
def verdict(name, value, ran=True):
    """'met', '**not met**' or 'not run' for a target."""
    if not ran or value is None:
        return "not run"
    threshold, higher = TARGETS[name]
    return "met" if (value >= threshold if higher else value <= threshold) else "**not met**"


def top(pairs, n, fmt):
    """The first n items of a most-common list, formatted, or '(none)'."""
    items = [fmt(p) for p in pairs[:n]]
    return ", ".join(items) if items else "(none)"


def goal(name):
    """A target as the table prints it: '≥ 0.98', '≤ 50 ms'."""
    threshold, higher = TARGETS[name]
    return f"≥ {threshold:.2f}" if higher else f"≤ {threshold:g} ms"


def report(m, n_top):
    """Markdown summary of the metrics."""
    lines = ["| measure | value | target | |", "|---|---:|---:|---|"]
    s, lab, neg, tim = m.get("singles"), m.get("labels"), m.get("negatives"), m.get("timing") or {}
    if s:
        ran = s["records"] > 0
        lines.append(f"| singles: top-1 accuracy | {s['top1']:.3f} ({s['correct']}/{s['images']}) | {goal('singles_top1')} "
                     f"| {verdict('singles_top1', s['top1'], ran)} |")
        if s.get("minCode"):
            w = s["minCode"]
            lines.append(f"| singles: lowest top-1 of a code ({w['code']}, {s['byCodeImages'][w['code']]} images; "
                         f"{sum(v < TARGETS['singles_min_code'][0] for v in s['byCode'].values())} of "
                         f"{len(s['byCode'])} codes below target) | {w['top1']:.3f} | {goal('singles_min_code')} "
                         f"| {verdict('singles_min_code', w['top1'], ran)} |")
    if lab:
        ran = lab["records"] > 0
        lines.append(f"| labels: exact set of codes | {lab['exactSet']:.3f} ({lab['exactSetCount']}/{lab['images']}) "
                     f"| {goal('labels_exact_set')} | {verdict('labels_exact_set', lab['exactSet'], ran)} |")
        lines.append(f"| labels: symbol count right | {lab['countRight']:.3f} ({lab['countRightCount']}/{lab['images']}) "
                     f"| {goal('labels_count')} | {verdict('labels_count', lab['countRight'], ran)} |")
        lines.append(f"| labels: symbol F1, boxes at IoU ≥ 0.3 (P {lab['precision']:.3f}, R {lab['recall']:.3f}) "
                     f"| {lab['f1']:.3f} | {goal('labels_f1')} | {verdict('labels_f1', lab['f1'], ran)} |")
        c = lab["codesOnly"]
        lines.append(f"| labels: symbol F1, codes only (P {c['precision']:.3f}, R {c['recall']:.3f}) "
                     f"| {c['f1']:.3f} | | |")
    if neg:
        ran = neg["records"] > 0
        lines.append(f"| negatives: no symbol reported | {neg['empty']:.3f} ({neg['emptyCount']}/{neg['images']}) "
                     f"| {goal('negatives_empty')} | {verdict('negatives_empty', neg['empty'], ran)} |")
    if "msPerLabel" in tim:
        lines.append(f"| time per label photo, one run over the labels, {tim.get('pinning') or 'unpinned'} "
                     f"| {tim['msPerLabel']:.1f} ms | {goal('ms_per_label')} | {verdict('ms_per_label', tim['msPerLabel'])} |")
    if "oneByOne" in tim:
        o = tim["oneByOne"]
        lines.append(f"| slowest single-photo run of {o['images']} (process start and model load included; "
                     f"median {o['medianMs']:.0f} ms) | {o['maxMs']:.0f} ms | | |")
    for subset in SUBSETS:
        if f"{subset}PeakRssMB" in tim:
            lines.append(f"| peak RSS, {subset} run | {tim[f'{subset}PeakRssMB']:.0f} MB | | |")
    lines.append("")
    missing = [f"{k}: {v['images'] - v['records']} of {v['images']}" for k, v in
               (("singles", s), ("labels", lab), ("negatives", neg)) if v and v["records"] < v["images"]]
    if missing:
        lines.append(f"Images without a care record (counted as failures): {'; '.join(missing)}.")
    if m.get("duplicateRecords"):
        lines.append(f"Duplicate care records for one path (first kept): {m['duplicateRecords']}.")
    arrow = lambda t: f"{t[0]} → {t[1]} ×{t[2]}"  # noqa: E731
    times = lambda t: f"{t[0]} ×{t[1]}"  # noqa: E731
    if s:
        fams = ", ".join(f"{f} {v:.3f}" for f, v in s["byFamily"].items())
        lines.append(f"- singles by family: {fams}")
        if s["byVariant"]:
            lines.append("- singles by drawing, for codes with two listed drawings: "
                         + ", ".join(f"{k} {v:.3f}" for k, v in s["byVariant"].items()))
        lines.append(f"- singles, commonest mistakes (truth → top-1): {top(s['confusions'], n_top, arrow)}")
        if s.get("byCode"):
            weakest = sorted(s["byCode"].items(), key=lambda kv: (kv[1], kv[0]))
            lines.append("- singles, weakest codes (top-1): "
                         + top([kv for kv in weakest if kv[1] < 1.0], n_top, lambda kv: f"{kv[0]} {kv[1]:.2f}"))
    if lab:
        diff = lab.get("countDifference") or {}
        if diff:
            name = {-3: "≤ -3", 0: "0", 3: "≥ +3"}
            lines.append("- labels, predicted minus true symbol count: " + ", ".join(
                f"{name.get(int(k), f'{int(k):+d}')} ×{v}" for k, v in sorted(diff.items(), key=lambda kv: int(kv[0]))))
        lines.append(f"- labels, commonest misses: {top(lab['misses'], n_top, times)}")
        lines.append(f"- labels, commonest false detections: {top(lab['falseDetections'], n_top, times)}")
        lines.append(f"- labels, misread codes (truth → predicted, boxes overlapping): "
                     f"{top(lab['confusions'], n_top, arrow)}")
    if neg:
        lines.append(f"- negatives, symbols reported: {top(neg['falseDetections'], n_top, times)}")
    return "\n".join(lines)


def evaluate(truth_dir, outputs, timing_path=None):
    """All metrics as a dict."""
    truth = load_truth(truth_dir)
    preds, dups = load_predictions(outputs, truth_dir)
    m = {"truth": os.path.realpath(truth_dir), "duplicateRecords": dups}
    if "singles" in truth:
        m["singles"] = score_singles(truth["singles"], preds)
    if "labels" in truth:
        m["labels"] = score_labels(truth["labels"], preds)
    if "negatives" in truth:
        m["negatives"] = score_negatives(truth["negatives"], preds)
    if timing_path:
        try:
            with open(timing_path, encoding="utf-8") as f:
                m["timing"] = score_timing(json.load(f))
        except (OSError, json.JSONDecodeError) as e:
            raise InputError(f"{timing_path}: {e}") from None
    ran = lambda subset, key: m[subset][key] if m.get(subset, {}).get("records") else None  # noqa: E731
    targets = {
        "singles_top1": ran("singles", "top1"),
        "singles_min_code": (m["singles"]["minCode"] or {}).get("top1") if ran("singles", "top1") is not None else None,
        "labels_exact_set": ran("labels", "exactSet"),
        "labels_count": ran("labels", "countRight"),
        "labels_f1": ran("labels", "f1"),
        "negatives_empty": ran("negatives", "empty"),
        "ms_per_label": (m.get("timing") or {}).get("msPerLabel"),
    }
    m["targets"] = {k: {"value": v, "threshold": TARGETS[k][0],
                        "met": None if v is None else verdict(k, v) == "met"} for k, v in targets.items()}
    return m


def main():
    ap = argparse.ArgumentParser(description="Score atl-classify --task care output against the care test set.")
    ap.add_argument("--truth", required=True, help="test set directory (render_test.py or render_standards.py --out)")
    ap.add_argument("--output", required=True, nargs="+", help="the tool's NDJSON output file(s)")
    ap.add_argument("--timing", help="timing JSON written by benchmarks/care.sh")
    ap.add_argument("--json", help="write every metric here as JSON")
    ap.add_argument("--top", type=int, default=8, help="how many mistakes to list (default 8)")
    ap.add_argument("--targets", choices=sorted(TARGET_SETS), default="own",
                    help="the target table: own (render_test.py's set, the default) or standards "
                         "(render_standards.py's independent set)")
    args = ap.parse_args()
    TARGETS.clear()
    TARGETS.update(TARGET_SETS[args.targets])
    try:
        m = evaluate(args.truth, args.output, args.timing)
    except InputError as e:
        print(f"evaluate.py: {e}", file=sys.stderr)
        return 65
    m["targetSet"] = args.targets
    print(report(m, args.top))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(m, f, indent=1, ensure_ascii=False)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
