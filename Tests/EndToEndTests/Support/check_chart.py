#!/usr/bin/env python3
"""Reads a chart atl-export wrote, with readers that share nothing with it, and checks it
against the stats records it was drawn from.

    check_chart.py svg CHART.svg STATS.ndjson FIELD KIND
    check_chart.py png CHART.png WIDTH HEIGHT

svg: the file parses as XML (xml.etree); it has a <title> and real <text>; every group of the
stats (the total left out) has one mark whose data-value is the record's number (money in the
chart's currency); for bars and line, the marks' positions match their numbers within a pixel on
the scale the axis's own tick lines and labels give (fitted from the ticks, as a reader would
read the chart); for ranking, bar lengths likewise; for donut, the slices' shares add to the whole.
png: it decodes (Pillow) to WIDTH x HEIGHT, and its most common non-white colour is the series
blue (#0072B2) or, for a donut, one of the palette's.
Prints "ok" or the first failure, and exits 0 or 1.
"""
import json
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def fail(message):
    print(message)
    sys.exit(1)


def number(value, currency):
    if isinstance(value, dict):
        return float(value.get(currency, 0)) if currency else 0.0
    return float(value or 0)


def check_svg(path, stats_path, field, kind):
    root = ET.parse(path).getroot()
    if root.tag != NS + "svg":
        fail("the root element is not svg")
    if root.find(NS + "title") is None or not (root.find(NS + "title").text or "").strip():
        fail("no <title>")
    texts = [t.text or "" for t in root.iter(NS + "text")]
    if len(texts) < 3:
        fail("fewer than three text elements: the labels are not real text")
    stats = [json.loads(line) for line in open(stats_path) if line.strip()]
    groups = [r for r in stats if r.get("type") == "stats" and not r.get("total")]
    # The currency: the one with the largest sum over the groups.
    sums = {}
    for r in groups:
        if isinstance(r.get(field), dict):
            for c, a in r[field].items():
                sums[c] = sums.get(c, 0) + a
    currency = max(sums, key=lambda c: (sums[c], c)) if sums else None
    expected = {str(r["group"]): number(r.get(field), currency) for r in groups}
    marks = [e for e in root.iter() if e.get("class") in ("bar", "point", "slice")]
    # A donut's folded slice ("32 more") stands for the groups its data-others lists.
    folded = [e for e in marks if e.get("data-others")]
    marks = [e for e in marks if not e.get("data-others")]
    got = {e.get("data-label"): float(e.get("data-value")) for e in marks}
    shown = set(got)
    for label, value in expected.items():
        if label in shown and abs(got[label] - value) > 0.005:
            fail(f"{label}: the chart says {got[label]}, the stats {value}")
    others = [label for e in folded for label in json.loads(e.get("data-others"))]
    if folded and (kind != "donut" or len(folded) != 1 or len(marks) != 7):
        fail(f"{len(folded)} folded slices beside {len(marks)} others: a donut folds only past eight groups, into one")
    for e in folded:
        if abs(float(e.get("data-value")) - sum(expected.get(label, 0) for label in others)) > 0.01:
            fail("the folded slice is not the sum of the groups it names")
        if sorted(got.values(), reverse=True)[-1] < max(expected.get(label, 0) for label in others):
            fail("a folded group is larger than a slice of its own")
    if set(others) & shown:
        fail("a group is both folded and drawn on its own")
    shown |= set(others)
    if kind != "ranking" and kind != "line" and shown != set(expected):
        fail(f"groups differ: chart {sorted(shown)} stats {sorted(expected)}")
    if kind == "ranking" and len(shown) != min(30, len(expected)):
        fail(f"the ranking shows {len(shown)} of {len(expected)}")
    if kind == "ranking":
        largest = sorted(expected.values(), reverse=True)[: len(shown)]
        if sorted(got.values(), reverse=True) != sorted(largest, reverse=True):
            fail("the ranking does not show the largest values")
    if kind == "donut":
        order = [float(e.get("data-value")) for e in marks]
        if order != sorted(order, reverse=True):
            fail("the slices are not largest first")
        total = sum(got.values()) + sum(float(e.get("data-value")) for e in folded)
        if abs(total - sum(expected.values())) > 0.01:
            fail("the slices do not add up to the whole")
        return
    # The scale a reader reads off the axis: tick lines and their labels.
    ticks = []
    for g in root.iter(NS + "g"):
        if g.get("class") != "tick":
            continue
        line = g.find(NS + "line")
        label = g.find(NS + "text")
        value = float(label.text)
        coordinate = float(line.get("y1")) if kind in ("bars", "line") else float(line.get("x1"))
        ticks.append((value, coordinate))
    if len(ticks) < 2:
        fail("fewer than two ticks on the value axis")
    (v0, c0), (v1, c1) = ticks[0], ticks[-1]
    scale = (c1 - c0) / (v1 - v0)
    at = lambda v: c0 + (v - v0) * scale
    for e in marks:
        value = float(e.get("data-value"))
        if kind == "bars":
            top, height = float(e.get("y")), float(e.get("height"))
            if abs(top - at(value)) > 1 or abs(top + height - at(0)) > 1:
                fail(f"bar {e.get('data-label')}: top {top}, bottom {top + height}; the axis puts {value} at {at(value)} and 0 at {at(0)}")
        elif kind == "line":
            if abs(float(e.get("cy")) - at(value)) > 1:
                fail(f"point {e.get('data-label')} at {e.get('cy')}, the axis puts {value} at {at(value)}")
        elif kind == "ranking":
            left, width = float(e.get("x")), float(e.get("width"))
            if abs(left - at(0)) > 1 or abs(left + width - at(value)) > 1:
                fail(f"bar {e.get('data-label')}: ends at {left + width}, the axis puts {value} at {at(value)}")


def check_png(path, width, height, kind):
    from PIL import Image
    image = Image.open(path).convert("RGB")
    if image.size != (width, height):
        fail(f"the PNG is {image.size}, not {(width, height)}")
    counts = {}
    for count, colour in image.getcolors(width * height):
        if sum(colour) < 3 * 235 and max(colour) - min(colour) > 40:
            counts[colour] = count
    if not counts:
        fail("the PNG has no coloured pixels")
    dominant = max(counts, key=counts.get)
    palette = [(0x00, 0x72, 0xB2), (0xE6, 0x9F, 0x00), (0x00, 0x9E, 0x73), (0xCC, 0x79, 0xA7), (0x56, 0xB4, 0xE9), (0xD5, 0x5E, 0x00), (0xF0, 0xE4, 0x42)]
    wanted = palette if kind == "donut" else palette[:1]
    if not any(sum(abs(a - b) for a, b in zip(dominant, w)) <= 12 for w in wanted):
        fail(f"the most common colour is {dominant}, not the chart's")


if __name__ == "__main__":
    if sys.argv[1] == "svg":
        check_svg(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        check_png(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] if len(sys.argv) > 5 else "bars")
    print("ok")
