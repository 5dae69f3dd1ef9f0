#!/usr/bin/env python3
"""An independent laundry planner, and a judge of `atl-query laundry-plan`'s output.

    laundry_reference.py [plan] --date DAY [--capacity-kg 7] < garments.ndjson > plan.ndjson
    laundry_reference.py compare --garments G --atl PLAN --ref PLAN [--catalog-plan PLAN]
                                 --date DAY [--capacity-kg 7] [--report report.md]

`plan` reads garment records (NDJSON) and prints what `atl-query - laundry-plan` prints, in the
same shape: one {"type":"laundry"} record per machine load (bin, program, temperature,
weightGrams, garments) and one {"type":"unplaced"} record (garment, name, reason) per garment that
wants washing but is put in no load. It is written from the planning rules of the laundry-plan
issue and atelier(7) (LAUNDRY), the vocabularies of Sources/AtelierRecords/Domain.swift and the
care-symbol codes of care-symbols.md, and from nothing of the Swift planner: it is a second hand,
so that where the two disagree one of them is wrong. Only its bins are meant to be compared; its
loads are a plain first-fit split (hottest label first), enough to make it do the same work.

`compare` reads the garments, atl-query's plan and this planner's plan and writes a markdown
report: garments each finds ready (these must be equal), agreement of bins per garment, the top
disagreements with example garments, and invariants checked on atl-query's loads alone (no load
hotter than a member's label, no do-not-wash or hand-wash-only garment in a machine programme, no
do-not-dry-clean garment in the professional bag, every machine load within capacity, every ready
garment placed once). Its last line on stdout is a summary of key=value pairs for the script.
"""

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from datetime import date

# ------------------------------------------------------------------------------------------------
# Vocabularies (Sources/AtelierRecords/Domain.swift)
# ------------------------------------------------------------------------------------------------

WEARS_BEFORE_WASH = {
    "tShirt": 1, "tankTop": 1, "shirt": 2, "blouse": 2, "polo": 2, "sweater": 5, "cardigan": 5, "hoodie": 4,
    "sweatshirt": 4, "turtleneck": 3,
    "jeans": 6, "trousers": 4, "chinos": 4, "shorts": 2, "skirt": 3, "leggings": 1, "joggers": 3,
    "coat": 15, "jacket": 10, "blazer": 8, "parka": 15, "raincoat": 15, "vest": 8, "trenchCoat": 15,
    "dress": 2, "jumpsuit": 2, "overalls": 4, "suit": 6, "romper": 2,
    "sneakers": 10, "boots": 15, "sandals": 5, "heels": 10, "loafers": 10, "flats": 8, "slippers": 10,
    "scarf": 8, "hat": 10, "beanie": 6, "gloves": 10, "belt": 30, "bag": 30, "tie": 5, "jewelry": 50,
    "underwear": 1, "bra": 3, "socks": 1, "tights": 1, "pajamas": 3, "swimwear": 1, "sportsBra": 1,
    "costume": 2, "uniform": 3,
}
DEFAULT_WEARS_BEFORE_WASH = {
    "top": 2, "bottom": 4, "outerwear": 10, "onePiece": 2, "footwear": 10, "accessory": 10,
    "lingerie": 1, "other": 3,
}
SYNTHETIC = {"polyester", "nylon", "acrylic", "elastane", "polypropylene", "fleece", "fauxLeather"}
WOOL_FAMILY = {"wool", "merino", "cashmere", "alpaca", "mohair", "angora"}
NOT_READY_STATES = {"drying", "onLoan", "underRepair"}

# Typical dry weights in grams: my own table (the Swift planner has its own; only bins are compared).
TYPICAL_GRAMS = {
    "tShirt": 180, "tankTop": 120, "shirt": 250, "blouse": 200, "polo": 250, "sweater": 500, "cardigan": 450,
    "hoodie": 600, "sweatshirt": 500, "turtleneck": 350,
    "jeans": 700, "trousers": 500, "chinos": 500, "shorts": 300, "skirt": 300, "leggings": 250, "joggers": 450,
    "coat": 1600, "jacket": 1000, "blazer": 800, "parka": 1800, "raincoat": 700, "vest": 400, "trenchCoat": 1200,
    "dress": 400, "jumpsuit": 600, "overalls": 900, "suit": 1200, "romper": 350,
    "sneakers": 800, "boots": 1400, "sandals": 500, "heels": 600, "loafers": 700, "flats": 400, "slippers": 400,
    "scarf": 200, "hat": 150, "beanie": 100, "gloves": 100, "belt": 200, "bag": 700, "tie": 60, "jewelry": 50,
    "underwear": 60, "bra": 80, "socks": 50, "tights": 60, "pajamas": 400, "swimwear": 150, "sportsBra": 100,
    "costume": 800, "uniform": 800,
}
TYPICAL_BY_CATEGORY = {"top": 300, "bottom": 500, "outerwear": 1200, "onePiece": 500, "footwear": 800,
                       "accessory": 200, "lingerie": 80, "other": 600}

# ------------------------------------------------------------------------------------------------
# Care codes (care-symbols.md)
# ------------------------------------------------------------------------------------------------

# washing family: code -> (maximum °C or None for "any temperature", process)
# process: 0 normal, 1 mild (one bar), 2 very mild (two bars), 3 hand wash
WASH_CODES = {
    "wash-95": (95, 0), "wash-70": (70, 0), "wash-60": (60, 0), "wash-60-mild": (60, 1), "wash-50": (50, 0),
    "wash-50-mild": (50, 1), "wash-40": (40, 0), "wash-40-mild": (40, 1), "wash-40-very-mild": (40, 2),
    "wash-30": (30, 0), "wash-30-mild": (30, 1), "wash-30-very-mild": (30, 2),
    "wash-hand": (40, 3), "wash-hand-ambient": (20, 3),
    "wash-machine": (None, 0), "wash-machine-permanent-press": (None, 1), "wash-machine-delicate": (None, 2),
}
# wash-no and wring-no are of the washing family too, but neither says how to wash.
HAND = 3
PROGRAM_BY_PROCESS = {0: "cotton", 1: "synthetics", 2: "delicate", 3: "handWash"}
NO_PRO = {"pro-no", "pro-w-no"}


def care_codes(g):
    care = g.get("care")
    if isinstance(care, list):
        return [c for c in care if isinstance(c, str)]
    return None if care is None else []


def washing(codes):
    """(max °C or None, gentlest process) over the label's washing codes, or None without any."""
    found = [WASH_CODES[c] for c in codes if c in WASH_CODES]
    if not found:
        return None
    temps = [t for t, _ in found if t is not None]
    return (min(temps) if temps else None, max(p for _, p in found))


def pro_allowed(codes):
    return any(c.startswith("pro-") and c not in NO_PRO for c in codes)


def contradictory_pro(codes):
    """pro-no beside a code allowing dry cleaning, or pro-w-no beside one allowing wet cleaning."""
    dry = any(c.startswith("pro-") and not c.startswith("pro-w") and c != "pro-no" for c in codes)
    wet = any(c.startswith("pro-w") and c != "pro-w-no" for c in codes)
    return ("pro-no" in codes and dry) or ("pro-w-no" in codes and wet)


def share(g, fabrics):
    total = 0.0
    for part in g.get("composition") or []:
        if isinstance(part, dict) and part.get("fabric") in fabrics:
            p = part.get("percent")
            total += p if isinstance(p, (int, float)) else 0
    return total


def has_fabric(g, fabric):
    return any(isinstance(p, dict) and p.get("fabric") == fabric for p in g.get("composition") or [])


# ------------------------------------------------------------------------------------------------
# Colour (sRGB -> CIELAB, D65)
# ------------------------------------------------------------------------------------------------

def lab(hex_colour):
    s = hex_colour.strip().lstrip("#")
    if len(s) == 3:
        s = "".join(ch * 2 for ch in s)
    if len(s) != 6:
        return None
    try:
        rgb = [int(s[i:i + 2], 16) / 255.0 for i in (0, 2, 4)]
    except ValueError:
        return None
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b

    def f(t):
        return t ** (1.0 / 3.0) if t > (6.0 / 29.0) ** 3 else t / (3.0 * (6.0 / 29.0) ** 2) + 4.0 / 29.0

    fx, fy, fz = f(x / 0.95047), f(y / 1.0), f(z / 1.08883)
    return 116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)


def colour_group(hex_colour):
    """(group, L*, C*); darks without a (readable) colour."""
    v = lab(hex_colour) if isinstance(hex_colour, str) else None
    if v is None:
        return "darks", None, None
    l, a, b = v
    c = math.hypot(a, b)
    if l >= 85 and c <= 10:
        return "whites", l, c
    if l < 35 or (l < 50 and c < 55) or (l < 60 and c < 25):
        return "darks", l, c
    if (l >= 60 and c < 25) or (l >= 70 and c < 45):
        return "pastels", l, c
    return "vibrant", l, c


# ------------------------------------------------------------------------------------------------
# Readiness and sorting
# ------------------------------------------------------------------------------------------------

def parse_day(s):
    if not isinstance(s, str) or len(s) < 10:
        return None
    try:
        return date.fromisoformat(s[:10])
    except ValueError:
        return None


def wears_before_wash(g):
    sub = g.get("subcategory")
    if sub in WEARS_BEFORE_WASH:
        return WEARS_BEFORE_WASH[sub]
    return DEFAULT_WEARS_BEFORE_WASH.get(g.get("category"), 3)


def ready(g, day):
    if g.get("type", "garment") != "garment" or g.get("state") in NOT_READY_STATES:
        return False
    if g.get("state") == "toWash":
        return True
    wears = g.get("wearsSinceWash")
    wears = wears if isinstance(wears, (int, float)) else 0
    if wears >= wears_before_wash(g):
        return True
    if wears > 0:
        washed = parse_day(g.get("lastWashedOn"))
        if washed is None or (day - washed).days >= 30:
            return True
    return False


def sort_garment(g):
    """(bin, None, why) or (None, reason, why): the first rule that matches wins."""
    codes = care_codes(g)
    codes = codes or []
    wash = washing(codes)
    leather = share(g, {"leather", "suede"})
    # (1) professional care
    if leather >= 1 or "wash-no" in codes or (wash is None and pro_allowed(codes)):
        why = "rule 1: " + ("leather/suede %g%%" % leather if leather >= 1 else
                            "wash-no" if "wash-no" in codes else "no washing symbol, pro allowed")
        if pro_allowed(codes):
            return "professional", None, why
        return None, "do not wash: professional care", why + ", no pro symbol allowing it"
    # (2) no care information
    if not codes:
        return None, "no care information", "rule 2: no care codes"
    if wash is None:
        return None, "no washing symbol on the care label", "rule 2: no washing symbol"
    # (3) wool family
    wool = share(g, WOOL_FAMILY)
    if wool >= 10:
        return "woolAndCashmere", None, "rule 3: wool family %g%%" % wool
    # (4) denim
    denim = share(g, {"denim"})
    if g.get("subcategory") == "jeans" or denim >= 50:
        return "denim", None, "rule 4: " + ("jeans" if g.get("subcategory") == "jeans" else "denim %g%%" % denim)
    # (5) activewear
    synthetic = share(g, SYNTHETIC)
    if g.get("style") == "sporty" and synthetic > 50:
        return "activewear", None, "rule 5: sporty, synthetic %g%%" % synthetic
    # (6) colour group x delicate
    group, l, c = colour_group(g.get("color"))
    silk = share(g, {"silk"})
    delicate = wash[1] >= 1 or silk >= 10 or has_fabric(g, "lace")
    why = "rule 6: %s (%s)" % (group, "no colour" if l is None else "L*=%.2f C*=%.2f" % (l, c))
    if delicate:
        why += ", delicate (%s)" % ", ".join(
            x for x in ("process %d" % wash[1] if wash[1] >= 1 else "", "silk %g%%" % silk if silk >= 10 else "",
                        "lace" if has_fabric(g, "lace") else "") if x)
    else:
        why += ", normal (silk %g%%, synthetic %g%%, wool %g%%)" % (silk, synthetic, wool)
    return group + ("Delicate" if delicate else ""), None, why


def grams(g):
    w = g.get("weightGrams")
    if isinstance(w, (int, float)) and w > 0:
        return w
    return TYPICAL_GRAMS.get(g.get("subcategory"), TYPICAL_BY_CATEGORY.get(g.get("category"), 400))


# ------------------------------------------------------------------------------------------------
# plan
# ------------------------------------------------------------------------------------------------

def garment_id(g, number):
    return g.get("id") if isinstance(g.get("id"), str) else "line %d" % number


def plan(lines, day, capacity_kg, out):
    capacity = capacity_kg * 1000
    bins = defaultdict(list)  # bin -> [(max °C, process, grams, id)]
    unplaced = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        g = json.loads(line)
        if not ready(g, day):
            continue
        gid = garment_id(g, number)
        bin_, reason, _ = sort_garment(g)
        if bin_ is None:
            unplaced.append((gid, g.get("name"), reason))
            continue
        w = grams(g)
        if bin_ != "professional" and w > capacity:
            unplaced.append((gid, g.get("name"), "heavier (%g kg) than the machine takes (%g kg)"
                             % (round(w / 1000, 1), capacity_kg)))
            continue
        wash = washing(care_codes(g) or []) or (None, 0)
        bins[bin_].append((wash[0] if wash[0] is not None else 95, wash[1], w, gid))
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    for bin_ in sorted(bins):
        members = bins[bin_]
        if bin_ == "professional":
            out.write(dumps({"type": "laundry", "bin": bin_, "program": "professional",
                             "weightGrams": sum(m[2] for m in members), "garments": [m[3] for m in members],
                             "status": "planned", "plannedOn": day.isoformat()}) + "\n")
            continue
        # hand-wash-only garments make loads of their own; the rest hottest label first, first fit
        for group in ([m for m in members if m[1] == HAND], [m for m in members if m[1] != HAND]):
            group.sort(key=lambda m: (-m[0], m[1]))
            load, load_grams = [], 0
            for m in group + [None]:
                if m is None or (load and load_grams + m[2] > capacity):
                    if load:
                        process = max(x[1] for x in load)
                        program = "wool" if bin_ == "woolAndCashmere" and process != HAND else PROGRAM_BY_PROCESS[process]
                        out.write(dumps({"type": "laundry", "bin": bin_, "program": program,
                                         "temperature": min(x[0] for x in load), "weightGrams": load_grams,
                                         "garments": [x[3] for x in load], "status": "planned",
                                         "plannedOn": day.isoformat()}) + "\n")
                    load, load_grams = [], 0
                if m is not None:
                    load.append(m)
                    load_grams += m[2]
    for gid, name, reason in unplaced:
        out.write(dumps({"type": "unplaced", "garment": gid, "name": name, "reason": reason}) + "\n")


# ------------------------------------------------------------------------------------------------
# compare
# ------------------------------------------------------------------------------------------------

def read_plan(path):
    """{garment id: bin or "unplaced"}, {id: reason}, [loads], [duplicate ids]"""
    where, reasons, loads, dup = {}, {}, [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("type") == "laundry":
                loads.append(r)
                for gid in r.get("garments") or []:
                    if gid in where:
                        dup.append(gid)
                    where[gid] = r.get("bin")
            elif r.get("type") == "unplaced":
                gid = r.get("garment")
                if gid in where:
                    dup.append(gid)
                where[gid] = "unplaced"
                reasons[gid] = r.get("reason")
    return where, reasons, loads, dup


def reason_kind(reason):
    if reason is None:
        return "-"
    r = reason.lower()
    if "washing symbol" in r:
        return "no washing symbol on the care label"
    if r.startswith("heavier"):
        return "heavier than the machine takes"
    if r.startswith("already in load"):
        return "already in a load"
    return reason


def compare(args):
    day = date.fromisoformat(args.date)
    capacity = args.capacity_kg * 1000
    garments = {}
    with open(args.garments, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                g = json.loads(line)
                garments[garment_id(g, number)] = g
    atl, atl_reasons, atl_loads, atl_dup = read_plan(args.atl)
    ref, ref_reasons, _, _ = read_plan(args.ref)
    md = []
    summary = {}

    def example(gid, extra=""):
        g = garments.get(gid)
        _, _, why = sort_garment(g) if g else (None, None, "?")
        md.append("  - `%s`" % json.dumps(g, ensure_ascii=False, separators=(",", ":")))
        md.append("    - reference: %s%s" % (why, extra))

    # ready garments
    both = set(atl) & set(ref)
    only_atl = sorted(set(atl) - set(ref))
    only_ref = sorted(set(ref) - set(atl))
    summary.update(ready_atl=len(atl), ready_ref=len(ref), ready_equal=int(len(atl) == len(ref) and not only_atl and not only_ref))
    md.append("### Ready garments")
    md.append("")
    md.append("- atl-query finds **%d** garments ready to wash on %s (%d in loads, %d unplaced); the reference "
              "finds **%d** (%d in bins, %d unplaced): %s."
              % (len(atl), args.date, sum(1 for v in atl.values() if v != "unplaced"),
                 sum(1 for v in atl.values() if v == "unplaced"), len(ref),
                 sum(1 for v in ref.values() if v != "unplaced"), sum(1 for v in ref.values() if v == "unplaced"),
                 "**equal, the same garments**" if summary["ready_equal"] else "**NOT equal**"))
    for label, ids in (("ready for atl-query only", only_atl), ("ready for the reference only", only_ref)):
        if ids:
            md.append("- %d %s, e.g.:" % (len(ids), label))
            for gid in ids[:3]:
                g = garments.get(gid) or {}
                md.append("  - `%s`" % json.dumps(g, ensure_ascii=False, separators=(",", ":")))
    md.append("")

    # agreement
    agree = sum(1 for gid in both if atl[gid] == ref[gid])
    rate = agree / len(both) if both else 1.0
    summary.update(compared=len(both), agree=agree, rate="%.4f" % rate)
    md.append("### Bins: atl-query vs the reference")
    md.append("")
    md.append("- same bin (or both unplaced) for **%d of %d** garments ready for both: **%.2f%%**"
              % (agree, len(both), 100 * rate))
    per_bin = sorted(set(atl[g] for g in both) | set(ref[g] for g in both))
    md.append("")
    md.append("| bin | atl-query | reference | both |")
    md.append("|---|---:|---:|---:|")
    ca = Counter(atl[g] for g in both)
    cr = Counter(ref[g] for g in both)
    cb = Counter(atl[g] for g in both if atl[g] == ref[g])
    for b in per_bin:
        md.append("| %s | %d | %d | %d |" % (b, ca[b], cr[b], cb[b]))
    md.append("")
    # unplaced reasons, side by side
    ua = Counter(reason_kind(atl_reasons.get(g)) for g in both if atl[g] == "unplaced")
    ur = Counter(reason_kind(ref_reasons.get(g)) for g in both if ref[g] == "unplaced")
    if ua or ur:
        md.append("Reasons for not placing (atl-query / reference):")
        md.append("")
        for k in sorted(set(ua) | set(ur)):
            md.append("- %s: %d / %d" % (k, ua[k], ur[k]))
        md.append("")

    both_out = [g for g in both if atl[g] == ref[g] == "unplaced"]
    kind = lambda reason: reason_kind(reason).split(" (")[0]
    same_kind = [g for g in both_out if kind(atl_reasons.get(g)) == kind(ref_reasons.get(g))]
    summary["same_reason"] = "%d/%d" % (len(same_kind), len(both_out))
    md.append("Of the %d garments both leave out, %d have the same kind of reason (professional care, no care "
              "information, no washing symbol, too heavy)." % (len(both_out), len(same_kind)))
    odd = Counter((kind(atl_reasons.get(g)), kind(ref_reasons.get(g))) for g in both_out
                  if kind(atl_reasons.get(g)) != kind(ref_reasons.get(g)))
    for (x, y), n in odd.most_common(5):
        example_id = next(g for g in sorted(both_out) if (kind(atl_reasons.get(g)), kind(ref_reasons.get(g))) == (x, y))
        md.append("- atl-query \"%s\", reference \"%s\": %d, e.g." % (x, y, n))
        example(example_id)
    md.append("")

    confusion = Counter((atl[g], ref[g]) for g in both if atl[g] != ref[g])
    summary["disagreements"] = sum(confusion.values())
    if confusion:
        md.append("Disagreements, most frequent first (atl-query → reference), 3 example garments each:")
        md.append("")
        by_pair = defaultdict(list)
        for gid in sorted(both):
            if atl[gid] != ref[gid]:
                by_pair[(atl[gid], ref[gid])].append(gid)
        for (a, r), n in confusion.most_common(args.top):
            odd = sum(1 for gid in by_pair[(a, r)] if contradictory_pro(care_codes(garments.get(gid) or {}) or []))
            md.append("- **atl-query %s, reference %s: %d garments**%s" % (a, r, n, (
                " (%d of them with a self-contradictory professional-care label: pro-no beside a dry-cleaning "
                "code, or pro-w-no beside a wet-cleaning code)" % odd) if odd else ""))
            for gid in by_pair[(a, r)][:3]:
                extra = ""
                if a == "unplaced":
                    extra += "; atl-query's reason: \"%s\"" % atl_reasons.get(gid)
                if r == "unplaced":
                    extra += "; reference's reason: \"%s\"" % ref_reasons.get(gid)
                example(gid, extra)
        if len(confusion) > args.top:
            md.append("- … and %d rarer pairs: %s" % (len(confusion) - args.top, ", ".join(
                "%s→%s %d" % (a, r, n) for (a, r), n in confusion.most_common()[args.top:])))
        md.append("")

    # same reason text where both leave a garment out
    # invariants on atl-query's loads
    md.append("### Invariants of atl-query's plan (checked from the labels, not from the reference)")
    md.append("")
    problems = defaultdict(list)
    ambiguous_hand = []
    for load in atl_loads:
        bin_, program, temp = load.get("bin"), load.get("program"), load.get("temperature")
        members = [(gid, garments.get(gid)) for gid in load.get("garments") or []]
        lid = "%s load of %d (%s, %s °C)" % (bin_, len(members), program, temp)
        for gid, g in members:
            if g is None:
                problems["garment not in the input"].append((lid, gid))
                continue
            codes = care_codes(g) or []
            wash = washing(codes)
            if not ready(g, day):
                problems["garment that does not want washing"].append((lid, gid))
            if isinstance(temp, (int, float)) and wash and wash[0] is not None and temp > wash[0]:
                problems["temperature above a member's label"].append((lid, gid))
            if program != "professional" and bin_ != "professional":
                if "wash-no" in codes:
                    problems["wash-no garment in a washing load"].append((lid, gid))
                if wash and wash[1] == HAND and program != "handWash":
                    # the label's only washing codes are hand wash: a machine must not have it
                    if all(WASH_CODES[c][1] == HAND for c in codes if c in WASH_CODES):
                        problems["hand-wash-only garment in a machine programme"].append((lid, gid))
                    else:
                        ambiguous_hand.append((lid, gid))
            else:
                if "pro-no" in codes and not any(c.startswith("pro-w") and c != "pro-w-no" for c in codes):
                    problems["pro-no garment in the professional bag (no wet cleaning allowed either)"].append((lid, gid))
                if not pro_allowed(codes):
                    problems["professional bag member whose label allows no professional cleaning"].append((lid, gid))
        if bin_ != "professional":
            w = load.get("weightGrams")
            if not isinstance(w, (int, float)) or w > capacity:
                problems["machine load over capacity"].append((lid, "weightGrams=%s" % w))
            explicit = sum(garments[g]["weightGrams"] for g, x in members
                           if x and isinstance(x.get("weightGrams"), (int, float)))
            if isinstance(w, (int, float)) and explicit > w:
                problems["load weight below its members' own weightGrams"].append((lid, "%s < %s" % (w, explicit)))
            if not members:
                problems["empty load"].append((lid, "-"))
    for gid in atl_dup:
        problems["garment placed twice"].append(("-", gid))
    for gid, where in atl.items():
        if where == "unplaced" and (atl_reasons.get(gid) or "").startswith("heavier"):
            g = garments.get(gid) or {}
            w = g.get("weightGrams")
            if isinstance(w, (int, float)) and w <= capacity:
                problems["unplaced as heavier though its weightGrams fits"].append(("-", gid))
    md.append("- %d loads (%d machine loads, %d professional), %d garments in them"
              % (len(atl_loads), sum(1 for l in atl_loads if l.get("bin") != "professional"),
                 sum(1 for l in atl_loads if l.get("bin") == "professional"),
                 sum(len(l.get("garments") or []) for l in atl_loads)))
    checks = ["temperature above a member's label", "wash-no garment in a washing load",
              "hand-wash-only garment in a machine programme",
              "pro-no garment in the professional bag (no wet cleaning allowed either)",
              "professional bag member whose label allows no professional cleaning",
              "machine load over capacity", "load weight below its members' own weightGrams",
              "garment placed twice", "garment not in the input", "garment that does not want washing",
              "empty load", "unplaced as heavier though its weightGrams fits"]
    for name in checks + sorted(set(problems) - set(checks)):
        found = problems.get(name, [])
        md.append("- %s: **%s**" % (name, "none" if not found else "%d VIOLATIONS" % len(found)))
        for lid, gid in found[:3]:
            md.append("  - in %s: `%s`" % (lid, json.dumps(garments.get(gid, gid), ensure_ascii=False,
                                                           separators=(",", ":"))))
    if ambiguous_hand:
        md.append("- (not counted) garments whose label has both a hand-wash and a machine-wash symbol, in a "
                  "machine programme: %d, e.g. `%s`" % (len(ambiguous_hand), json.dumps(
                      garments.get(ambiguous_hand[0][1]), ensure_ascii=False, separators=(",", ":"))))
    summary["violations"] = sum(len(v) for v in problems.values())
    md.append("")

    if args.catalog_plan:
        cat, cat_reasons, _, _ = read_plan(args.catalog_plan)
        same = sum(1 for g in cat if atl.get(g) == cat[g])
        md.append("### The catalog's plan vs the stream's")
        md.append("")
        md.append("- `atl-query laundry-plan` (catalog) finds %d ready, `atl-query - laundry-plan` (stream) %d; "
                  "same bin for %d (%s)" % (len(cat), len(atl), same,
                                            "**identical**" if same == len(cat) == len(atl) else "**they differ**"))
        diff = Counter((cat.get(g, "not ready"), atl.get(g, "not ready")) for g in set(cat) | set(atl)
                       if cat.get(g) != atl.get(g))
        for (c, s), n in diff.most_common(5):
            md.append("  - catalog %s, stream %s: %d, e.g. `%s`" % (c, s, n, json.dumps(garments.get(next(
                g for g in sorted(set(cat) | set(atl)) if cat.get(g, "not ready") == c and atl.get(g, "not ready") == s)),
                ensure_ascii=False, separators=(",", ":"))))
        summary["catalog_same"] = int(same == len(cat) == len(atl))
        md.append("")

    text = "\n".join(md) + "\n"
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print(" ".join("%s=%s" % kv for kv in summary.items()))


def main():
    argv = sys.argv[1:]
    if argv and argv[0] == "compare":
        p = argparse.ArgumentParser(prog="laundry_reference.py compare")
        p.add_argument("--garments", required=True)
        p.add_argument("--atl", required=True, help="atl-query's plan (NDJSON)")
        p.add_argument("--ref", required=True, help="this planner's plan (NDJSON)")
        p.add_argument("--catalog-plan", help="atl-query's plan from the catalog, to set beside the stream's")
        p.add_argument("--date", required=True)
        p.add_argument("--capacity-kg", type=float, default=7.0)
        p.add_argument("--report", help="write the markdown report here (default stdout)")
        p.add_argument("--top", type=int, default=10)
        compare(p.parse_args(argv[1:]))
        return
    if argv and argv[0] == "plan":
        argv = argv[1:]
    p = argparse.ArgumentParser(prog="laundry_reference.py", description="plan garment records from stdin")
    p.add_argument("--date", default=date.today().isoformat())
    p.add_argument("--capacity-kg", type=float, default=7.0)
    args = p.parse_args(argv)
    out = open(sys.stdout.fileno(), "w", encoding="utf-8", buffering=1 << 20, closefd=False)
    plan(open(sys.stdin.fileno(), encoding="utf-8", buffering=1 << 20, closefd=False),
         date.fromisoformat(args.date), args.capacity_kg, out)
    out.flush()


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.stderr.close()
