#!/usr/bin/env python3
"""A generated wardrobe for the suggestion benchmark (benchmarks/suggest.sh): garments, stored
outfits and a prior wear log, as NDJSON for atl-import.

    gen_wardrobe.py N [--seed S] [--start YYYY-MM-DD] [--history-days 60] > wardrobe.ndjson

Deterministic: the same N, seed, start and history give the same bytes. Python 3 standard library.

What it makes:
- N garments in a realistic mix of categories (tops 30 %, bottoms 18 %, outerwear 8 %, one-pieces
  7 %, footwear 12 %, accessories 15 %, lingerie 10 %, rounded by largest remainder), each with a
  subcategory of Domain.swift's lists, a colour (about two thirds neutrals: black, white, navy,
  greys, beige, camel, brown, denim and indigo; the rest coloured), seasons that follow the kind of
  garment (shorts and sandals in summer, coats and knitwear in the cold months, most others all
  year or two or three consecutive seasons), a style, a composition and the care label that goes
  with it (codes of /work/shared/care-symbols.md), a price, a purchase date within four years of
  the start, and a few (2 %) on loan or under repair.
- about N / 8 stored outfits, each complete (a top and a bottom, or a one-piece; footwear; often
  outerwear or an accessory), their seasons the seasons all their garments share, about a third
  of them favourites.
- a wear log of the --history-days days before --start, skewed toward the favourites: on most days
  an outfit is worn, chosen by Zipf-like weights (1 / rank^1.2, the favourites ranked first) among
  those whose garments are clean that day; on some days a single garment is worn besides. The
  garments' wearsSinceWash is followed through that log with the wears-before-wash of Domain.swift,
  and every third day everything that wants washing is washed, so each garment's lastWashedOn is
  its last wash in that history (or a day before it): the wardrobe starts as a real one does,
  unbalanced, with some of it in the laundry basket.
- an older lifetime wearCount (and lastWornOn before the history) for garments bought before the
  history, also skewed toward the favourites' garments.

Garment ids are g_gen<N>x<index>, outfit ids o_gen<N>x<index>.
"""
import argparse
import json
import random
import sys
from datetime import date, timedelta

CATEGORY_SHARES = [
    ("top", 0.30), ("bottom", 0.18), ("outerwear", 0.08), ("onePiece", 0.07),
    ("footwear", 0.12), ("accessory", 0.15), ("lingerie", 0.10),
]

# subcategory: (relative frequency within its category, wears before wash as in Domain.swift)
SUBCATEGORIES = {
    "top": {"tShirt": (6, 1), "tankTop": (1, 1), "shirt": (4, 2), "blouse": (2, 2), "polo": (1, 2),
            "sweater": (3, 5), "cardigan": (1.5, 5), "hoodie": (1.5, 4), "sweatshirt": (1, 4), "turtleneck": (1, 3)},
    "bottom": {"jeans": (4, 6), "trousers": (3, 4), "chinos": (2, 4), "shorts": (1.5, 2), "skirt": (2, 3),
               "leggings": (1, 1), "joggers": (1, 3)},
    "outerwear": {"coat": (2, 15), "jacket": (3, 10), "blazer": (2, 8), "parka": (1, 15), "raincoat": (1, 15),
                  "vest": (0.7, 8), "trenchCoat": (1, 15)},
    "onePiece": {"dress": (6, 2), "jumpsuit": (1.5, 2), "overalls": (0.5, 4), "suit": (1.5, 6), "romper": (0.5, 2)},
    "footwear": {"sneakers": (4, 10), "boots": (2.5, 15), "sandals": (1.5, 5), "heels": (1, 10), "loafers": (1.5, 10),
                 "flats": (1, 8), "slippers": (0.3, 10)},
    "accessory": {"scarf": (2.5, 8), "hat": (1, 10), "beanie": (1, 6), "gloves": (0.8, 10), "belt": (2.5, 30),
                  "bag": (2.5, 30), "tie": (1, 5), "jewelry": (1.5, 50)},
    "lingerie": {"underwear": (4, 1), "bra": (2, 3), "socks": (4, 1), "tights": (1, 1), "pajamas": (1, 3),
                 "swimwear": (0.7, 1), "sportsBra": (0.7, 1)},
}
WEARS_BEFORE_WASH = {sub: w for subs in SUBCATEGORIES.values() for sub, (_, w) in subs.items()}
CATEGORY_OF = {sub: cat for cat, subs in SUBCATEGORIES.items() for sub in subs}

SEASONS = ["spring", "summer", "autumn", "winter"]
ALL = list(SEASONS)
# Seasons by kind of garment; anything not named follows the general rule in seasons_for().
SEASONS_BY_SUB = {
    "shorts": [["summer"], ["spring", "summer"]], "sandals": [["summer"], ["spring", "summer"]],
    "tankTop": [["summer"], ["spring", "summer"]], "romper": [["summer"], ["spring", "summer"]],
    "swimwear": [["summer"]],
    "coat": [["autumn", "winter"], ["winter"]], "parka": [["winter"], ["autumn", "winter"]],
    "beanie": [["winter"], ["autumn", "winter"]], "gloves": [["winter"], ["autumn", "winter"]],
    "scarf": [["autumn", "winter"], ["autumn", "winter", "spring"]],
    "sweater": [["autumn", "winter"], ["autumn", "winter", "spring"]],
    "turtleneck": [["autumn", "winter"]], "cardigan": [["autumn", "winter", "spring"], ["spring", "autumn"]],
    "boots": [["autumn", "winter"], ["autumn", "winter", "spring"]],
    "trenchCoat": [["spring", "autumn"]], "raincoat": [["spring", "autumn"], ["spring", "autumn", "winter"]],
    "pajamas": [["autumn", "winter"], ALL],
}

NEUTRALS = [  # name, hex, weight, colour group for fabric choice
    ("black", "#111111", 5), ("white", "#f5f5f0", 4), ("navy", "#1d2b4f", 4), ("grey", "#8a8d91", 3),
    ("charcoal", "#3a3b3f", 2), ("beige", "#c8b48c", 2.5), ("camel", "#b5895b", 1), ("brown", "#5a3a22", 1.5),
    ("cream", "#efe6d2", 1.5), ("denim blue", "#4b6c9a", 2), ("indigo", "#1c2841", 1.5), ("olive", "#5b5f3a", 1),
]
COLOURS = [
    ("burgundy", "#7a1f3d", 1.5), ("forest green", "#2e5b3a", 1), ("mustard", "#d4a017", 0.8), ("rust", "#b7472a", 0.8),
    ("red", "#c8102e", 1), ("pink", "#e8a0a8", 1), ("light blue", "#aec6e8", 1.5), ("lavender", "#b9a7d6", 0.6),
    ("teal", "#1f7a7a", 0.7), ("emerald", "#1f8a5b", 0.5), ("yellow", "#f2c12e", 0.5), ("coral", "#f27f6b", 0.5),
    ("sky blue", "#6fa8dc", 0.8), ("terracotta", "#c0653f", 0.6),
]

STYLES = ["casual", "formal", "sporty", "elegant", "business"]
STYLE_BY_SUB = {
    "hoodie": {"casual": 3, "sporty": 2}, "sweatshirt": {"casual": 3, "sporty": 1}, "joggers": {"casual": 1, "sporty": 3},
    "leggings": {"sporty": 3, "casual": 1}, "sneakers": {"casual": 3, "sporty": 2}, "tankTop": {"casual": 2, "sporty": 2},
    "sportsBra": {"sporty": 1}, "blazer": {"business": 3, "formal": 1, "elegant": 1}, "suit": {"business": 2, "formal": 3},
    "tie": {"business": 2, "formal": 2}, "loafers": {"business": 3, "elegant": 1, "casual": 1},
    "heels": {"elegant": 3, "formal": 1}, "blouse": {"elegant": 2, "business": 2, "casual": 1},
    "shirt": {"business": 3, "casual": 2, "formal": 1}, "trousers": {"business": 3, "formal": 1, "casual": 1},
    "dress": {"casual": 2, "elegant": 3}, "jeans": {"casual": 1}, "tShirt": {"casual": 4, "sporty": 1},
    "coat": {"elegant": 2, "casual": 2, "business": 1}, "parka": {"casual": 2, "sporty": 1},
}
STYLE_DEFAULT = {"casual": 55, "business": 15, "elegant": 12, "formal": 8, "sporty": 10}

PRICE_MEDIAN = {"top": 35, "bottom": 60, "outerwear": 180, "onePiece": 90, "footwear": 110, "accessory": 40, "lingerie": 18}


def weighted(rng, pairs):
    """One key of a {key: weight} dict or a list of (key, weight) pairs."""
    items = list(pairs.items()) if isinstance(pairs, dict) else list(pairs)
    total = sum(w for _, w in items)
    x = rng.random() * total
    for key, w in items:
        x -= w
        if x < 0:
            return key
    return items[-1][0]


def split_counts(n):
    """Garments per category: the shares of n, rounded by largest remainder."""
    raw = [(cat, n * share) for cat, share in CATEGORY_SHARES]
    counts = {cat: int(x) for cat, x in raw}
    left = n - sum(counts.values())
    for cat, x in sorted(raw, key=lambda p: (-(p[1] - int(p[1])), p[0]))[:left]:
        counts[cat] += 1
    return counts


def seasons_for(rng, sub):
    if sub in SEASONS_BY_SUB:
        return list(rng.choice(SEASONS_BY_SUB[sub]))
    x = rng.random()
    if x < 0.10:
        return []                       # none given: all year
    if x < 0.50:
        return list(ALL)
    k = 2 if x < 0.78 else 3            # two or three consecutive seasons
    first = rng.randrange(4)
    return [SEASONS[(first + i) % 4] for i in range(k)]


def colour_for(rng, sub):
    if sub == "jeans":
        return weighted(rng, [(("indigo", "#1c2841"), 4), (("denim blue", "#4b6c9a"), 4), (("black", "#16161a"), 2), (("grey", "#9a9ca0"), 1)])
    pool = NEUTRALS if rng.random() < 0.66 else COLOURS
    name, hexa, _ = weighted(rng, [((n, h, w), w) for n, h, w in pool])
    # a little variation in shade, as real garments have
    rgb = [int(hexa[i:i + 2], 16) for i in (1, 3, 5)]
    rgb = [max(0, min(255, c + rng.randint(-8, 8))) for c in rgb]
    return name, "#%02x%02x%02x" % tuple(rgb)


def fabric_and_care(rng, cat, sub, seasons):
    """A composition and a care label that go together."""
    warm = "winter" in seasons and "summer" not in seasons
    if sub in ("coat", "parka", "trenchCoat") or (sub == "blazer") or (sub == "suit"):
        if sub == "parka":
            return [{"fabric": "nylon", "percent": 100}], ["wash-30-mild", "bleach-no", "tumble-low", "iron-no", "pro-no"]
        if sub == "trenchCoat":
            return [{"fabric": "cotton", "percent": 100}], ["wash-no", "bleach-no", "tumble-no", "iron-medium", "pro-p"]
        wool = rng.choice([100, 90, 80])
        comp = [{"fabric": "wool", "percent": wool}] + ([{"fabric": rng.choice(["cashmere", "nylon", "polyester"]), "percent": 100 - wool}] if wool < 100 else [])
        return comp, ["wash-no", "bleach-no", "tumble-no", "iron-low", "pro-p"]
    if sub == "raincoat":
        return [{"fabric": "polyester", "percent": 100}], ["wash-30-mild", "bleach-no", "tumble-no", "iron-no", "pro-no"]
    if sub in ("jacket", "vest"):
        x = rng.random()
        if x < 0.35:
            return [{"fabric": "cotton", "percent": 100}], ["wash-30", "bleach-no", "tumble-low", "iron-medium"]
        if x < 0.55:
            return [{"fabric": "leather", "percent": 100}], ["wash-no", "bleach-no", "tumble-no", "iron-no", "pro-no"]
        return [{"fabric": "polyester", "percent": 100}], ["wash-30-mild", "bleach-no", "tumble-no", "iron-low"]
    if cat == "footwear":
        if sub in ("sneakers", "slippers") and rng.random() < 0.5:
            return [{"fabric": "polyester", "percent": 70}, {"fabric": "nylon", "percent": 30}], ["wash-30", "tumble-no", "iron-no"]
        return [{"fabric": "leather", "percent": 100}], ["wash-no", "bleach-no", "tumble-no", "iron-no"]
    if sub in ("belt", "bag") and rng.random() < 0.6:
        return [{"fabric": "leather", "percent": 100}], ["wash-no", "tumble-no", "iron-no"]
    if sub == "jewelry":
        return [], ["wash-no", "tumble-no", "iron-no"]
    light = ("tShirt", "tankTop", "shirt", "blouse", "polo", "shorts", "leggings", "dress", "romper", "skirt")
    if sub in ("sweater", "cardigan", "turtleneck", "scarf", "beanie", "gloves") or (warm and sub not in light and rng.random() < 0.3):
        fibre = weighted(rng, {"wool": 3, "merino": 3, "cashmere": 1, "acrylic": 2, "cotton": 2})
        if fibre in ("wool", "merino", "cashmere"):
            care = rng.choice([["wash-30-very-mild", "bleach-no", "tumble-no", "dry-flat", "iron-low"],
                               ["wash-hand", "bleach-no", "tumble-no", "dry-flat", "iron-low", "pro-p"]])
            return [{"fabric": fibre, "percent": 100}], care
        if fibre == "acrylic":
            return [{"fabric": "acrylic", "percent": 100}], ["wash-30", "bleach-no", "tumble-no", "dry-flat"]
        return [{"fabric": "cotton", "percent": 100}], ["wash-30", "tumble-low", "iron-medium"]
    if sub in ("leggings", "sportsBra", "swimwear") or (sub in ("tankTop", "joggers") and rng.random() < 0.5):
        return [{"fabric": "nylon", "percent": 75}, {"fabric": "elastane", "percent": 25}], ["wash-30", "bleach-no", "tumble-no", "iron-no"]
    if sub == "jeans":
        p = rng.choice([100, 99, 98])
        return ([{"fabric": "cotton", "percent": p}] + ([{"fabric": "elastane", "percent": 100 - p}] if p < 100 else [])), \
            ["wash-30", "bleach-no", "tumble-no", "dry-line", "iron-medium"]
    if sub in ("blouse", "dress", "skirt", "jumpsuit", "romper") and rng.random() < 0.45:
        fibre = weighted(rng, {"viscose": 3, "polyester": 3, "silk": 1, "linen": 1, "lyocell": 1})
        care = {"silk": ["wash-hand", "bleach-no", "tumble-no", "iron-low", "pro-p"],
                "linen": ["wash-40", "tumble-no", "dry-line", "iron-high"]}.get(fibre, ["wash-30-mild", "bleach-no", "tumble-no", "iron-low"])
        return [{"fabric": fibre, "percent": 100}], care
    if sub in ("trousers", "chinos") and rng.random() < 0.25:
        return [{"fabric": "wool", "percent": 98}, {"fabric": "elastane", "percent": 2}], ["wash-no", "bleach-no", "tumble-no", "iron-low", "pro-p"]
    # cotton and cotton blends, the bulk of a wardrobe
    if rng.random() < 0.6:
        comp = [{"fabric": rng.choice(["cotton", "cotton", "organicCotton"]), "percent": 100}]
    else:
        p = rng.choice([95, 80, 70, 60])
        comp = [{"fabric": "cotton", "percent": p}, {"fabric": rng.choice(["polyester", "elastane", "linen"]), "percent": 100 - p}]
    temp = weighted(rng, {"wash-30": 3, "wash-40": 4, "wash-60": 1})
    return comp, [temp, rng.choice(["tumble-low", "tumble-no", "tumble-normal"]), rng.choice(["iron-medium", "iron-low", "iron-high"])]


def style_for(rng, sub):
    return weighted(rng, STYLE_BY_SUB.get(sub, STYLE_DEFAULT))


def zipf_weights(n, s=1.2):
    return [1.0 / (r + 1) ** s for r in range(n)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, help="garments")
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--start", default="2026-09-01", help="the first simulated day; the history ends the day before")
    ap.add_argument("--history-days", type=int, default=60)
    args = ap.parse_args()
    if args.n < 10:
        ap.error("N must be at least 10")
    rng = random.Random(args.seed * 1_000_003 + args.n)
    start = date.fromisoformat(args.start)
    first_day = start - timedelta(days=args.history_days)

    # ---- garments
    garments = []
    counts = split_counts(args.n)
    index = 0
    for cat, _ in CATEGORY_SHARES:
        subs = {s: f for s, (f, _) in SUBCATEGORIES[cat].items()}
        for _ in range(counts[cat]):
            index += 1
            sub = weighted(rng, subs)
            seasons = seasons_for(rng, sub)
            colour_name, hexa = colour_for(rng, sub)
            comp, care = fabric_and_care(rng, cat, sub, seasons)
            price = round(PRICE_MEDIAN[cat] * rng.lognormvariate(0, 0.55), 2)
            bought = start - timedelta(days=rng.randint(20, 4 * 365))
            g = {
                "type": "garment", "id": "g_gen%dx%04d" % (args.n, index),
                "name": "%s %s %d" % (colour_name.title(), sub, index),
                "category": cat, "subcategory": sub, "color": hexa, "colorName": colour_name,
                "seasons": seasons, "style": style_for(rng, sub),
                "composition": comp, "care": care,
                "price": {"amount": price, "currency": "EUR"}, "purchasedOn": bought.isoformat(),
            }
            if not comp:
                del g["composition"]
            if rng.random() < 0.02 and cat != "lingerie":
                g["state"] = rng.choice(["onLoan", "underRepair"])
            garments.append(g)
    by_id = {g["id"]: g for g in garments}

    def in_season_all(ids):
        common = set(ALL)
        for gid in ids:
            common &= set(by_id[gid]["seasons"] or ALL)
        return [s for s in SEASONS if s in common]

    # ---- outfits
    pools = {c: [g for g in garments if g["category"] == c] for c in SUBCATEGORIES}
    outfits = []
    want = max(3, round(args.n / 8))
    tries = 0
    while len(outfits) < want and tries < want * 50:
        tries += 1
        season = rng.choice(["spring", "summer", "autumn", "winter"])

        def pick(cat, style=None):
            cands = [g for g in pools[cat] if not g["seasons"] or season in g["seasons"]]
            if style:
                close = [g for g in cands if g["style"] == style or g["style"] == "casual"]
                cands = close or cands
            return rng.choice(cands) if cands else None

        ids = []
        if pools["onePiece"] and rng.random() < 0.18:
            main_piece = pick("onePiece")
            if not main_piece:
                continue
            ids.append(main_piece["id"])
            style = main_piece["style"]
        else:
            top = pick("top")
            if not top:
                continue
            bottom = pick("bottom", top["style"])
            if not bottom:
                continue
            ids += [top["id"], bottom["id"]]
            style = top["style"]
        shoe = pick("footwear", style)
        if not shoe:
            continue
        ids.append(shoe["id"])
        if season in ("autumn", "winter") or rng.random() < 0.3:
            outer = pick("outerwear", style)
            if outer and rng.random() < 0.8:
                ids.append(outer["id"])
        if rng.random() < 0.45:
            acc = pick("accessory")
            if acc:
                ids.append(acc["id"])
        seasons = in_season_all(ids)
        if not seasons or any(set(ids) == set(o["garments"]) for o in outfits):
            continue
        outfits.append({"type": "outfit", "id": "o_gen%dx%04d" % (args.n, len(outfits) + 1),
                        "name": "%s outfit %d" % (season.title(), len(outfits) + 1), "garments": ids,
                        "seasons": seasons, "occasions": [rng.choice(["work", "weekend", "evening", "outdoors", "home"])],
                        "favorite": False})
    if not outfits:
        sys.exit("gen_wardrobe.py: could not make a single outfit")
    for o in rng.sample(outfits, max(1, round(len(outfits) / 3))):
        o["favorite"] = True

    # ---- history: Zipf-like over the outfits, favourites first
    ranked = sorted(outfits, key=lambda o: (not o["favorite"], rng.random()))
    weights = zipf_weights(len(ranked))
    wears_since = {g["id"]: 0 for g in garments}
    last_washed = {g["id"]: first_day - timedelta(days=rng.randint(1, 40)) for g in garments}
    log = []
    worn_in_history = {g["id"]: 0 for g in garments}
    for k in range(args.history_days):
        day = first_day + timedelta(days=k)
        month = day.month
        season = "winter" if month in (12, 1, 2) else "spring" if month <= 5 else "summer" if month <= 8 else "autumn"

        def clean(gid):
            g = by_id[gid]
            return (g.get("state") is None and wears_since[gid] < WEARS_BEFORE_WASH[g["subcategory"]]
                    and g["purchasedOn"] <= day.isoformat())

        if rng.random() < 0.8:
            usable = [(o, w) for o, w in zip(ranked, weights)
                      if season in o["seasons"] and all(clean(gid) for gid in o["garments"])]
            if usable:
                o = weighted(rng, [(o["id"], w) for o, w in usable])
                log.append({"type": "wear", "outfit": o, "date": day.isoformat()})
                for gid in next(x for x in outfits if x["id"] == o)["garments"]:
                    wears_since[gid] += 1
                    worn_in_history[gid] += 1
        if rng.random() < 0.3:
            cands = [g["id"] for g in garments if g["category"] != "lingerie" and clean(g["id"])
                     and (not g["seasons"] or season in g["seasons"])]
            if cands:
                gid = rng.choice(cands)
                if not any(w.get("garment") == gid and w["date"] == day.isoformat() for w in log):
                    log.append({"type": "wear", "garment": gid, "date": day.isoformat()})
                    wears_since[gid] += 1
                    worn_in_history[gid] += 1
        if k % 3 == 2:  # laundry day: everything that wants washing (cleaned, for the dry-clean-only)
            for g in garments:
                if g.get("state") is None and wears_since[g["id"]] >= WEARS_BEFORE_WASH[g["subcategory"]]:
                    wears_since[g["id"]] = 0
                    last_washed[g["id"]] = day
    # An outfit's wear and a single wear of one of its garments on the same day count once in the
    # catalog (one entry per garment per day): the tracker above may count twice; the catalog's
    # own count, from the log, is what the simulation reads.

    # older lifetime wears, before the history, for garments bought before it: skewed like the log
    for g in garments:
        bought = date.fromisoformat(g["purchasedOn"])
        if bought < first_day - timedelta(days=14):
            months = (first_day - bought).days / 30
            base = worn_in_history[g["id"]] / max(1, args.history_days / 30)  # wears a month lately
            older = int(months * (0.4 * base + rng.expovariate(1.5)))
            if older:
                g["wearCount"] = older
                g["lastWornOn"] = (first_day - timedelta(days=rng.randint(1, 60))).isoformat()
        g["lastWashedOn"] = max(last_washed[g["id"]], bought).isoformat()

    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    out = sys.stdout
    for rec in garments + outfits + log:
        out.write(dumps(rec) + "\n")


if __name__ == "__main__":
    main()
