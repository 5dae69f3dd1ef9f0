#!/usr/bin/env python3
"""Generate N realistic garment records as NDJSON on stdout, deterministically.

    benchmarks/gen-garments.py N SEED > garments.ndjson
    benchmarks/gen-garments.py N SEED --other-apps 0.3 --invalid 0.5 > mixed.ndjson

--other-apps F writes a share F of the records as other wardrobe apps export them: care codes,
states, subcategories and fabrics in their spellings (`hand-wash`, `bleach-ok`, `Wash 40°C`,
`lent`, `inLaundry`, `trench`, `spandex`…), the kinds they have and Atelier's first list did not
(`culottes`, `oxfords`, `puffer`, `watch`, `sunglasses`), `archived` garments, denim by name, and
now and then a word nobody lists (`kilt`, `bouclé`): all of it must import.
--invalid F makes a share F of the records invalid the ways hand-edited exports are (a price
written "12,50", a care code that is none, a day that does not exist, percentages over 100, no
name), each still one line of JSON, so that `sqlite-utils insert --nl` reads the same file.

The same N and SEED give the same bytes on any machine (Python's Mersenne Twister and float
repr are stable across versions, and nothing depends on the clock or the locale). Every record
is valid for `atl-import` (the vocabularies of Sources/AtelierRecords/Domain.swift and
Schemas.swift): type, name, category, subcategory, brand, color, colorName, seasons, style,
state, composition, care, price {amount, currency}, purchasedOn, wearCount, and when they apply
lastWornOn, lastWashedOn, tags and notes.

Records carry no "id": minting ids is part of what `atl-import` does for new garments, and
`sqlite-utils insert` gets the same file (it keys rows by rowid). See benchmarks/RESULTS.md.

Without those options every record is valid for `atl-import` as written. Every record has the
same keys in the same order (optional fields are null when absent, as a
catalog export would write them), so `sqlite-utils insert` sees the whole table shape in its first
batch; `atl-import` treats null as "no value".
"""

import json
import random
import sys
from datetime import date, timedelta

# category -> (share of a wardrobe, [(subcategory, noun used in names, weight)])
CATEGORIES = {
    "top": (30, [("tShirt", "T-Shirt", 8), ("tankTop", "Tank Top", 2), ("shirt", "Shirt", 6),
                 ("blouse", "Blouse", 3), ("polo", "Polo", 2), ("sweater", "Sweater", 5),
                 ("cardigan", "Cardigan", 2), ("hoodie", "Hoodie", 3), ("sweatshirt", "Sweatshirt", 2),
                 ("turtleneck", "Turtleneck", 1)]),
    "bottom": (18, [("jeans", "Jeans", 6), ("trousers", "Trousers", 4), ("chinos", "Chinos", 3),
                    ("shorts", "Shorts", 3), ("skirt", "Skirt", 3), ("leggings", "Leggings", 2),
                    ("joggers", "Joggers", 2)]),
    "outerwear": (10, [("coat", "Coat", 3), ("jacket", "Jacket", 5), ("blazer", "Blazer", 3),
                       ("parka", "Parka", 2), ("raincoat", "Raincoat", 1), ("vest", "Vest", 1),
                       ("trenchCoat", "Trench Coat", 1)]),
    "onePiece": (7, [("dress", "Dress", 8), ("jumpsuit", "Jumpsuit", 2), ("overalls", "Overalls", 1),
                     ("suit", "Suit", 2), ("romper", "Romper", 1)]),
    "footwear": (10, [("sneakers", "Sneakers", 6), ("boots", "Boots", 4), ("sandals", "Sandals", 2),
                      ("heels", "Heels", 2), ("loafers", "Loafers", 2), ("flats", "Flats", 1),
                      ("slippers", "Slippers", 1)]),
    "accessory": (11, [("scarf", "Scarf", 3), ("hat", "Hat", 2), ("beanie", "Beanie", 2),
                       ("gloves", "Gloves", 1), ("belt", "Belt", 3), ("bag", "Bag", 3), ("tie", "Tie", 2),
                       ("jewelry", "Necklace", 1)]),
    "lingerie": (12, [("underwear", "Briefs", 4), ("bra", "Bra", 2), ("socks", "Socks", 5),
                      ("tights", "Tights", 1), ("pajamas", "Pajamas", 1), ("swimwear", "Swimsuit", 1),
                      ("sportsBra", "Sports Bra", 1)]),
    "other": (2, [("costume", "Costume", 1), ("uniform", "Uniform", 2)]),
}

# (brand, weight): a long tail, like a real wardrobe. Includes non-ASCII names.
BRANDS = [
    ("Uniqlo", 40), ("Zara", 36), ("H&M", 36), ("COS", 18), ("Arket", 14), ("Mango", 16),
    ("Levi's", 20), ("Nike", 22), ("Adidas", 20), ("Muji", 12), ("Gap", 12), ("Massimo Dutti", 10),
    ("& Other Stories", 8), ("Everlane", 7), ("Patagonia", 8), ("The North Face", 8),
    ("Carhartt WIP", 7), ("Lacoste", 5), ("Ralph Lauren", 7), ("Tommy Hilfiger", 7),
    ("Calvin Klein", 8), ("Lululemon", 7), ("Asics", 5), ("New Balance", 6), ("Converse", 6),
    ("Vans", 5), ("Dr. Martens", 4), ("Birkenstock", 4), ("Blundstone", 2), ("Clarks", 4),
    ("Weekday", 5), ("Monki", 4), ("Pull&Bear", 6), ("Bershka", 5), ("Primark", 10),
    ("Marks & Spencer", 8), ("Next", 6), ("Hugo Boss", 4), ("Suitsupply", 3), ("Max Mara", 2),
    ("AllSaints", 3), ("Acne Studios", 2), ("Sézane", 3), ("Maje", 2), ("Sandro", 2),
    ("Whistles", 2), ("Reformation", 2), ("Schott", 1), ("Rains", 2), ("Barbour", 3),
    ("Fjällräven", 3), ("Björn Borg", 2), ("Falke", 3), ("Wolford", 1), ("Petit Bateau", 3),
    ("Saint James", 1), ("Armor-Lux", 1), ("Baggu", 1), ("Eberjey", 1), ("G.H. Bass", 1),
    ("Dockers", 3), ("Wrangler", 4), ("Lee", 3), ("Diesel", 3), ("Superdry", 4), ("Jack & Jones", 5),
    ("Vero Moda", 5), ("Only", 5), ("Esprit", 5), ("s.Oliver", 4), ("Tchibo", 2), ("Decathlon", 8),
]

# (colour name, hex) — the hex gets a little jitter per garment, as photographed colours do.
COLORS = [
    ("black", "#111111"), ("white", "#f5f5f2"), ("navy", "#1d2b4f"), ("grey", "#8a8d91"),
    ("charcoal", "#3a3b3f"), ("beige", "#c8b48c"), ("cream", "#efe6d2"), ("ivory", "#f3ead8"),
    ("camel", "#b5895b"), ("brown", "#5a3a22"), ("tan", "#8b5a2b"), ("olive", "#5b5f3a"),
    ("khaki", "#8f8a5c"), ("forest green", "#2e3b2f"), ("green", "#1e5b3a"), ("sage", "#9caf88"),
    ("light blue", "#aec6e8"), ("blue", "#2f6fd6"), ("indigo", "#1c2841"), ("denim blue", "#4b6c9a"),
    ("teal", "#1f6f6f"), ("burgundy", "#7a1f3d"), ("red", "#c8102e"), ("pink", "#e8a0a8"),
    ("blush", "#f2c6c2"), ("lilac", "#b9a5d6"), ("purple", "#5b2a86"), ("yellow", "#f2c12e"),
    ("mustard", "#c9a227"), ("orange", "#e56b1f"), ("rust", "#a4471f"), ("coral", "#f27b6b"),
    ("sand", "#d9cbb0"), ("taupe", "#8b7d6b"), ("silver", "#c0c0c0"), ("gold", "#c9a94b"),
]
COLOR_WEIGHTS = [14, 9, 10, 8, 4, 5, 3, 2, 2, 4, 2, 3, 2, 1, 2, 1, 3, 4, 2, 3, 1, 2, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1]

STYLES = ["casual", "formal", "sporty", "elegant", "business"]
STYLE_WEIGHTS = [50, 6, 16, 14, 14]
STATES = ["available", "toWash", "washing", "atLaundry", "onLoan", "underRepair", "drying"]
STATE_WEIGHTS = [820, 90, 20, 15, 15, 10, 30]
SEASONS = ["spring", "summer", "autumn", "winter"]

# Fabric mixes by kind of garment: (main fabric, optional second, optional third).
FABRIC_MIXES = {
    "light": [("cotton",), ("organicCotton",), ("linen",), ("cotton", "elastane"), ("cotton", "polyester"),
              ("viscose",), ("lyocell",), ("modal", "elastane"), ("silk",), ("linen", "viscose"), ("polyester",)],
    "knit": [("wool",), ("merino",), ("cashmere",), ("wool", "nylon"), ("acrylic",), ("cotton",),
             ("alpaca", "wool", "nylon"), ("mohair", "wool"), ("cotton", "polyester")],
    "denim": [("cotton",), ("cotton", "elastane"), ("cotton", "polyester", "elastane")],
    "tailored": [("wool",), ("wool", "elastane"), ("polyester", "viscose"), ("wool", "cashmere"), ("cotton", "elastane")],
    "outer": [("wool", "nylon"), ("wool", "cashmere"), ("polyester",), ("nylon",), ("cotton",), ("leather",),
              ("down", "nylon"), ("fauxLeather",), ("cotton", "polyester")],
    "sport": [("polyester", "elastane"), ("nylon", "elastane"), ("polyester",), ("cotton", "polyester"), ("fleece",)],
    "shoe": [("leather",), ("suede",), ("polyester", "nylon"), ("cotton",), ("fauxLeather",)],
    "accessory": [("wool",), ("cashmere",), ("acrylic",), ("leather",), ("cotton",), ("silk",), ("polyester",)],
    "under": [("cotton", "elastane"), ("modal", "elastane"), ("nylon", "elastane"), ("cotton", "nylon", "elastane"),
              ("polyester", "elastane"), ("bamboo", "elastane")],
}
KIND_BY_SUB = {
    "sweater": "knit", "cardigan": "knit", "turtleneck": "knit", "jeans": "denim", "trousers": "tailored",
    "chinos": "light", "blazer": "tailored", "suit": "tailored", "coat": "outer", "jacket": "outer", "parka": "outer",
    "raincoat": "outer", "vest": "outer", "trenchCoat": "outer", "leggings": "sport", "joggers": "sport",
    "hoodie": "sport", "sweatshirt": "sport", "tankTop": "sport", "sportsBra": "sport", "swimwear": "sport",
    "scarf": "accessory", "hat": "accessory", "beanie": "knit", "gloves": "accessory", "belt": "accessory",
    "bag": "accessory", "tie": "accessory", "jewelry": "accessory",
}
ADJECTIVE = {
    "cotton": "Cotton", "organicCotton": "Organic Cotton", "linen": "Linen", "wool": "Wool", "merino": "Merino",
    "cashmere": "Cashmere", "alpaca": "Alpaca", "mohair": "Mohair", "silk": "Silk", "leather": "Leather",
    "suede": "Suede", "down": "Down", "viscose": "Viscose", "lyocell": "Tencel", "modal": "Modal",
    "polyester": "Technical", "nylon": "Nylon", "acrylic": "Knit", "fleece": "Fleece", "fauxLeather": "Faux Leather",
    "bamboo": "Bamboo",
}
CUTS = ["Slim", "Relaxed", "Oversized", "Classic", "Cropped", "Straight", "Regular", "Boxy", "Fitted", "Wide"]

CARE_BY_KIND = {
    "light": ["wash-40", "wash-30", "wash-30-mild", "tumble-low", "tumble-no", "iron-medium", "iron-low", "bleach-no", "dry-line"],
    "knit": ["wash-30-very-mild", "wash-hand", "bleach-no", "tumble-no", "dry-flat", "iron-low", "pro-p"],
    "denim": ["wash-30", "wash-40", "bleach-no", "tumble-low", "tumble-no", "dry-line", "iron-medium"],
    "tailored": ["wash-no", "bleach-no", "tumble-no", "iron-low", "pro-p"],
    "outer": ["wash-no", "wash-30-mild", "bleach-no", "tumble-no", "tumble-low", "iron-no", "pro-p", "pro-no"],
    "sport": ["wash-30", "wash-40", "bleach-no", "tumble-no", "tumble-low", "iron-no", "dry-line"],
    "shoe": ["wash-no", "bleach-no", "tumble-no", "iron-no"],
    "accessory": ["wash-hand", "wash-no", "bleach-no", "tumble-no", "dry-flat", "iron-low", "pro-p"],
    "under": ["wash-40", "wash-60", "wash-30-mild", "tumble-low", "bleach-no", "iron-no"],
}

PRICE_BY_CATEGORY = {  # median price, spread
    "top": (35, 0.6), "bottom": (55, 0.55), "outerwear": (150, 0.65), "onePiece": (85, 0.6),
    "footwear": (95, 0.55), "accessory": (35, 0.8), "lingerie": (18, 0.6), "other": (45, 0.7),
}
CURRENCIES = ["EUR", "USD", "GBP", "CHF", "SEK"]
CURRENCY_WEIGHTS = [70, 14, 10, 3, 3]

TAGS = ["favourite", "work", "gift", "vintage", "second-hand", "capsule", "travel", "needs-repair", "sale",
        "wedding", "gym", "date-night", "hand-me-down", "limited-edition"]
NOTES = [
    "Dry clean only; store on a wide hanger.",
    "Runs small; size up next time.",
    "Button loose on the left cuff.",
    "Bought on holiday in Lisbon.",
    "Wash inside out to keep the colour.",
    "Hem taken up 3 cm.",
    "Pills a little under the arms.",
    "Gift from Mum, Christmas.",
    "Pairs well with the camel coat.",
    "Second-hand from Vinted, good condition.",
    "Zip sticks; needs a new slider.",
    "Keep away from the dryer — it shrank once.",
    "Perfect for long-haul flights.",
    "Matching belt is in the top drawer.",
]

FIRST_DAY = date(2014, 1, 1).toordinal()
LAST_DAY = date(2026, 10, 31).toordinal()  # fixed, so the data does not depend on today


def weighted(table, weights):
    total = 0
    cumulative = []
    for w in weights:
        total += w
        cumulative.append(total)
    return table, cumulative, total


def pick(rng, table):
    items, cumulative, total = table
    x = rng.random() * total
    lo, hi = 0, len(cumulative) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cumulative[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return items[lo]


# Other apps' spellings of what a record says (each means exactly what it replaces).
OTHER_CARE = {
    "bleach-no": ["do-not-bleach", "Do Not Bleach", "no-bleach"], "tumble-low": ["tumble-dry-low", "Tumble Dry Low"],
    "tumble-no": ["do-not-tumble-dry", "Do Not Tumble Dry"], "wash-30": ["machine-wash-cold", "wash-30c", "Wash 30°C"],
    "wash-40": ["machine-wash-warm", "Wash 40°C", "wash_40"], "wash-60": ["wash-60c", "Wash 60°C"],
    "wash-hand": ["hand-wash", "Hand Wash"], "wash-no": ["do-not-wash", "Do Not Wash"],
    "wash-30-mild": ["wash-30-permanent-press", "wash-30c-synthetics"], "wash-30-very-mild": ["wash-30-gentle", "Wash 30°C Delicate"],
    "iron-low": ["cool-iron", "iron-110", "Iron Low"], "iron-medium": ["warm-iron", "iron-medium-heat"], "iron-no": ["do-not-iron"],
    "dry-line": ["line-dry", "hang-dry"], "dry-flat": ["lay-flat-to-dry", "dry flat"], "pro-p": ["dry-clean-p"],
    "pro-no": ["do-not-dry-clean"],
}
OTHER_CARE_ADDED = [["bleach-ok"], ["tumble-medium"], ["hand-wash"], ["bleach-ok", "tumble-medium"]]
OTHER_SUB = {"trenchCoat": "trench", "overalls": "overall", "sneakers": "trainers", "sweater": "jumper",
             "tShirt": "tee", "underwear": "boxers", "swimwear": "swimsuit", "jewelry": "necklace", "trousers": "pants"}
OTHER_KINDS = {"bottom": ["culottes", "cargoPants", "kilt"], "footwear": ["oxfords", "mules", "espadrilles"],
               "outerwear": ["puffer", "bomber", "poncho"], "accessory": ["watch", "sunglasses", "cap", "backpack"],
               "top": ["cropTop", "camisole", "tunic"]}
OTHER_STATE = {"onLoan": "lent", "toWash": "inLaundry", "available": "available", "underRepair": "inRepair",
               "atLaundry": "atDryCleaner"}
OTHER_FABRIC = {"elastane": "spandex", "nylon": "polyamide", "viscose": "rayon", "lyocell": "tencel"}


def other_app(record, rng):
    """The record as another app would export it (see --other-apps)."""
    record["care"] = [rng.choice(OTHER_CARE[c]) if c in OTHER_CARE and rng.random() < 0.7 else c for c in record["care"]]
    if rng.random() < 0.25:
        record["care"] = record["care"] + [c for c in rng.choice(OTHER_CARE_ADDED) if c not in record["care"]]
    sub = record["subcategory"]
    if sub in OTHER_SUB and rng.random() < 0.6:
        record["subcategory"] = OTHER_SUB[sub]
    elif record["category"] in OTHER_KINDS and rng.random() < 0.3:
        record["subcategory"] = rng.choice(OTHER_KINDS[record["category"]])
    if sub == "jeans" and rng.random() < 0.7:
        record["composition"] = [{"fabric": "denim", "percent": 100}]
    else:
        for part in record["composition"]:
            part["fabric"] = OTHER_FABRIC.get(part["fabric"], part["fabric"])
        if rng.random() < 0.01:
            record["composition"][0]["fabric"] = "bouclé"
    r = rng.random()
    record["state"] = "archived" if r < 0.05 else ("sold" if r < 0.06 else OTHER_STATE.get(record["state"], record["state"]))
    return record


def invalid(record, rng):
    """The record made invalid in one of the ways hand-edited exports are (see --invalid)."""
    r = rng.randrange(6)
    if r == 0:
        record["price"]["amount"] = ("%.2f" % record["price"]["amount"]).replace(".", ",")
    elif r == 1:
        record["care"] = record["care"] + [rng.choice(["wash-41", "bleach-maybe", "tumble-warmish", "iron-lukewarm"])]
    elif r == 2:
        record["purchasedOn"] = rng.choice(["2026-02-30", "2025-13-01", "31/12/2024", "yesterday"])
    elif r == 3:
        record["composition"] = [{"fabric": "cotton", "percent": 80}, {"fabric": "polyester", "percent": 40}]
    elif r == 4:
        record["name"] = None
    else:
        record["wearCount"] = -rng.randint(1, 9)
    return record


def main():
    args = sys.argv[1:]
    other_share = invalid_share = 0.0
    while len(args) > 2 and args[-2] in ("--other-apps", "--invalid"):
        try:
            value = float(args[-1])
        except ValueError:
            sys.exit("gen-garments.py: %s takes a fraction from 0 to 1" % args[-2])
        if not 0 <= value <= 1:
            sys.exit("gen-garments.py: %s takes a fraction from 0 to 1" % args[-2])
        if args[-2] == "--other-apps":
            other_share = value
        else:
            invalid_share = value
        args = args[:-2]
    if len(args) != 2:
        sys.exit("usage: gen-garments.py N SEED [--other-apps F] [--invalid F]  (writes N garment records as NDJSON to stdout)")
    try:
        n, seed = int(args[0]), int(args[1])
    except ValueError:
        sys.exit("gen-garments.py: N and SEED must be integers")
    if n < 0:
        sys.exit("gen-garments.py: N must not be negative")
    # Their own streams, so that a file with --other-apps or --invalid has the same wardrobe under them.
    variants = random.Random(seed * 7919 + 17)

    rng = random.Random(seed)
    categories = weighted(list(CATEGORIES), [CATEGORIES[c][0] for c in CATEGORIES])
    subs = {c: weighted(CATEGORIES[c][1], [w for _, _, w in CATEGORIES[c][1]]) for c in CATEGORIES}
    brands = weighted([b for b, _ in BRANDS], [w for _, w in BRANDS])
    colors = weighted(COLORS, COLOR_WEIGHTS)
    styles = weighted(STYLES, STYLE_WEIGHTS)
    states = weighted(STATES, STATE_WEIGHTS)
    currencies = weighted(CURRENCIES, CURRENCY_WEIGHTS)

    out = sys.stdout
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    lines = []
    for _ in range(n):
        category = pick(rng, categories)
        sub, noun, _ = pick(rng, subs[category])
        kind = KIND_BY_SUB.get(sub) or {"footwear": "shoe", "lingerie": "under", "outerwear": "outer"}.get(category, "light")
        brand = pick(rng, brands)
        color_name, base_hex = pick(rng, colors)
        jitter = [max(0, min(255, int(base_hex[i:i + 2], 16) + rng.randint(-10, 10))) for i in (1, 3, 5)]
        color = "#%02x%02x%02x" % tuple(jitter)

        mix = rng.choice(FABRIC_MIXES[kind])
        if len(mix) == 1:
            percents = [100]
        elif len(mix) == 2:
            minor = rng.choice([1, 2, 3, 5, 8, 10, 15, 20, 30, 40])
            percents = [100 - minor, minor]
        else:
            second, third = rng.choice([(10, 2), (15, 3), (20, 5), (27, 3), (30, 10)])
            percents = [100 - second - third, second, third]
        composition = [{"fabric": f, "percent": p} for f, p in zip(mix, percents)]

        # Seasons follow the garment: warm fabrics and outerwear lean to the cold months.
        if kind in ("knit", "outer") or mix[0] in ("wool", "cashmere", "down", "alpaca"):
            pool = ["winter", "autumn", "spring"]
        elif sub in ("shorts", "sandals", "tankTop", "swimwear", "romper") or mix[0] == "linen":
            pool = ["summer", "spring"]
        else:
            pool = SEASONS
        if rng.random() < 0.22:
            seasons = list(SEASONS)
        else:
            seasons = rng.sample(pool, rng.randint(1, len(pool)))
            seasons.sort(key=SEASONS.index)

        style = pick(rng, styles)
        if kind == "sport" and rng.random() < 0.7:
            style = "sporty"
        elif kind == "tailored" and rng.random() < 0.7:
            style = rng.choice(["formal", "business"])

        care_pool = CARE_BY_KIND[kind]
        care = sorted(rng.sample(care_pool, min(len(care_pool), rng.randint(3, 5))), key=care_pool.index)

        median, spread = PRICE_BY_CATEGORY[category]
        raw = median * rng.lognormvariate(0, spread)
        if raw < 10:
            amount = round(raw, 2) if rng.random() < 0.5 else round(raw) + 0.99
        elif rng.random() < 0.45:
            amount = int(round(raw))
        else:
            amount = int(raw) + rng.choice([0.5, 0.9, 0.95, 0.99])
        amount = round(amount, 2)
        if amount == int(amount):
            amount = int(amount)  # 9, not 9.0: written as people and jq write it
        currency = pick(rng, currencies)

        bought = rng.randint(FIRST_DAY, LAST_DAY - 1)
        age_days = LAST_DAY - bought
        wear_count = 0 if rng.random() < 0.08 else int(rng.expovariate(1.0) * min(age_days, 1500) / 12)
        last_worn = last_washed = None
        if wear_count > 0:
            last_worn = date.fromordinal(rng.randint(bought + 1, LAST_DAY)).isoformat()
            if rng.random() < 0.6:
                last_washed = date.fromordinal(rng.randint(bought + 1, LAST_DAY)).isoformat()

        tags = None
        r = rng.random()
        if r < 0.35:
            tags = rng.sample(TAGS, 1 if r < 0.22 else (2 if r < 0.31 else 3))
        notes = rng.choice(NOTES) if rng.random() < 0.12 else None

        first = ADJECTIVE.get(mix[0], "")
        if rng.random() < 0.35:
            first = rng.choice(CUTS) + (" " + first if first else "")
        name = " ".join(p for p in (color_name.title(), first, noun) if p)

        record = {
            "type": "garment",
            "name": name,
            "category": category,
            "subcategory": sub,
            "brand": brand,
            "color": color,
            "colorName": color_name,
            "seasons": seasons,
            "style": style,
            "state": pick(rng, states),
            "composition": composition,
            "care": care,
            "price": {"amount": amount, "currency": currency},
            "purchasedOn": date.fromordinal(bought).isoformat(),
            "wearCount": wear_count,
            "lastWornOn": last_worn,
            "lastWashedOn": last_washed,
            "tags": tags,
            "notes": notes,
        }
        if other_share and variants.random() < other_share:
            record = other_app(record, variants)
        if invalid_share and variants.random() < invalid_share:
            record = invalid(record, variants)
        lines.append(dumps(record))
        if len(lines) >= 4096:
            lines.append("")
            out.write("\n".join(lines))
            lines = []
    if lines:
        lines.append("")
        out.write("\n".join(lines))
    out.flush()


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.stderr.close()
